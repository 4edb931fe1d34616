"""Replay files: export -> `python -m games replay` round trip for every registered game, and a
running game's export that holds neither the seed nor anything hidden."""
from __future__ import annotations

import io
import json
import random

import pytest

from games import REGISTRY
from games.__main__ import main
from games.core import Action
from games.replay import Move, ReplayError, check, export_game, replay, run, state_digest


def strip(view: dict) -> dict:
    return {key: value for key, value in view.items() if key != "viewer"}


def random_game(name: str, seed: int, stop_after: int | None = None):
    """A game played by random legal moves: (game, players, moves, final state)."""
    game = REGISTRY[name]
    players = game.min_players + 1 if game.max_players > game.min_players else game.min_players
    state = game.new_game(players, seed=seed)
    chooser = random.Random(seed)
    moves = []
    while game.outcome(state) is None and (stop_after is None or len(moves) < stop_after):
        seat = chooser.choice(sorted(game.to_act(state)))
        action = chooser.choice(game.legal_actions(state, seat))
        moves.append(Move(seat, action.encode(), 1_700_000_000 + len(moves)))
        state, _ = game.apply(state, seat, action)
        assert len(moves) < 20_000
    return game, players, moves, state


def finished_file(name: str, seed: int = 3) -> dict:
    game, players, moves, state = random_game(name, seed)
    outcome = game.outcome(state)
    result = {"winners": list(outcome.winners), "scores": list(outcome.scores), "reason": outcome.reason}
    data = export_game(game, seed=seed, options={o.name: o.default for o in game.options},
                       names=[f"Spieler {i + 1}" for i in range(players)], moves=moves, status="finished",
                       result=result, game_id=7, lang="de")
    return json.loads(json.dumps(data))  # exactly what a file holds


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_a_finished_game_exports_and_replays_to_the_same_result(name, tmp_path):
    data = finished_file(name)
    assert data["complete"] and data["seed"] == 3 and data["moves"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = io.StringIO()
    assert run(path, out=out) == 0, out.getvalue()
    assert "reproduces the stored result" in out.getvalue()
    from renderers.__main__ import main as draw  # the boards: drawn by the renderers' command line

    assert draw(["replay", str(path), "--out", str(tmp_path / "boards")]) == 0
    boards = sorted((tmp_path / "boards").glob("*.png"))
    assert len(boards) == len(data["moves"]) + 1
    assert boards[-1].read_bytes().startswith(b"\x89PNG")
    # The command line reaches the same code.
    assert main(["replay", str(path)]) == 0


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_a_tampered_file_does_not_reproduce_its_result(name, tmp_path):
    data = finished_file(name)
    loser = next(seat for seat in range(len(data["seats"])) if seat not in data["result"]["winners"])
    data["result"]["winners"] = [loser]
    assert any("winners" in problem for problem in check(data, replay(data)))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert run(path, out=io.StringIO()) == 1

    cut = finished_file(name)
    cut["moves"] = cut["moves"][:-1]  # the last move lost: not over, and a different state
    problems = check(cut, replay(cut))
    assert "the final state differs from the stored one" in problems


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_a_running_game_exports_without_seed_or_hidden_information(name, tmp_path):
    seed = 987_654_321
    game, players, moves, state = random_game(name, seed, stop_after=12)
    assert game.outcome(state) is None
    data = export_game(game, seed=seed, options={}, names=[f"P{i + 1}" for i in range(players)], moves=moves,
                       status="active")
    text = json.dumps(data)
    assert data["seed"] is None and not data["complete"] and "final_state_sha256" not in data
    assert str(seed) not in text
    assert data["board"] == json.loads(json.dumps(game.view(state, None)))
    # A move appears with its action only if the engine declares it public, or its player saw
    # nothing the public did not, before and after it.
    replayed = game.new_game(players, seed=seed)
    declared = getattr(game, "moves_are_public", None)
    for move, entry in zip(moves, data["moves"]):
        after, _ = game.apply(replayed, move.seat, Action.parse(move.action))
        if declared is not None:
            public = declared(replayed, move.seat)
        else:
            public = all(strip(game.view(s, move.seat)) == strip(game.view(s, None)) for s in (replayed, after))
        assert ("action" in entry) == public, (move, entry)
        replayed = after
    if name == "raubritter":  # tiles kept or laid from a hidden hand are not named
        assert any("action" not in entry for entry in data["moves"])
    # Nothing private of any seat is in the file: no seat's view beyond the public one.
    for seat in range(players):
        private = game.view(state, seat).get("private")
        if private:
            assert json.dumps(private) not in text
    # And the tool refuses it, saying why.
    path = tmp_path / "running.json"
    path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    assert run(path, out=out) == 2
    assert "still running" in out.getvalue() and "cannot be replayed" in out.getvalue()
    with pytest.raises(ReplayError):
        replay(data)


def test_files_that_are_not_replays_are_refused(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"hello": 1}', encoding="utf-8")
    out = io.StringIO()
    assert run(path, out=out) == 2 and "not a replay file" in out.getvalue()
    path.write_text("not json", encoding="utf-8")
    assert run(path, out=io.StringIO()) == 2


def test_state_digest_ignores_key_order():
    assert state_digest({"a": 1, "b": [1, 2]}) == state_digest({"b": [1, 2], "a": 1})
    assert state_digest({"a": 1}) != state_digest({"a": 2})


def test_undone_moves_and_substitutes_are_not_in_an_export():
    from types import SimpleNamespace as Row

    from games.replay import moves_from

    rows = [Row(seat=0, action="roll", at=1), Row(seat=1, action="pick 2", at=2),
            Row(seat=1, action="~undo", at=3), Row(seat=1, action="pick 3", at=4),
            Row(seat=0, action="~replace", at=5), Row(seat=0, action="stop", at=6)]
    assert [(m.seat, m.action) for m in moves_from(rows)] == [(0, "roll"), (1, "pick 3"), (0, "stop")]
