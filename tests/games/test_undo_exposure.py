"""`/game undo` takes back a move only when the engine says it drew nothing and revealed nothing.

Every engine's `exposure(state)` changes whenever chance is drawn or something hidden comes to
light. Over whole random games of every game, each move is checked against two independent
witnesses: the same move with another seed (chance), and the same move from many states re-dealt
where someone cannot see (a reveal). Whenever either witness sees something, the exposure must
have changed and the undo must be refused; an undo is allowed only with the exposure unchanged.
"""
from __future__ import annotations

import random

import pytest

from bot.days.undo import undo_refusal
from games import REGISTRY
from games.core import GameError

GAMES = sorted(REGISTRY)
PROBES = 3


def drew_chance(game, before, after, seat, action) -> bool:
    data = game.to_dict(before)
    other, _ = game.apply(game.from_dict(dict(data, seed=int(data["seed"]) + 7)), seat, action)
    def unseeded(data):
        return {key: value for key, value in data.items() if key != "seed"}

    return unseeded(game.to_dict(other)) != unseeded(game.to_dict(after))


def revealed(game, before, after, seat, action, players, rng) -> bool:
    viewers = (None, *range(players))
    for owner in (None, *range(players)):
        for _ in range(PROBES):
            variant = game.hidden_variant(before, owner, rng)
            try:
                changed, _ = game.apply(variant, seat, action)
            except GameError:  # the move is not even legal in a re-dealt state: it depends on a secret
                if owner == seat:
                    continue  # the mover's own secrets decide the mover's own moves
                return True
            for viewer in viewers:
                if viewer == owner:
                    continue
                if game.view(before, viewer) == game.view(variant, viewer) and \
                        game.view(after, viewer) != game.view(changed, viewer):
                    return True
    return False


@pytest.mark.parametrize("name", GAMES)
def test_undo_is_refused_after_every_draw_roll_or_reveal(name):
    game = REGISTRY[name]
    players = min(max(3, game.min_players), game.max_players)
    counts = {"allowed": 0, "refused": 0}
    for seed in range(1):
        state = game.new_game(players, seed=seed)
        rng = random.Random(seed)
        probe = random.Random(100 + seed)
        for _ in range(250):
            if game.outcome(state) is not None:
                break
            seat = min(game.to_act(state))
            action = rng.choice(game.legal_actions(state, seat))
            after, events = game.apply(state, seat, action)
            refusal = undo_refusal(game, state, after, seat, action, events, players)
            exposed = game.exposure(state) != game.exposure(after)
            if drew_chance(game, state, after, seat, action) or \
                    revealed(game, state, after, seat, action, players, probe):
                assert exposed, f"{name}: {action.encode()} drew or revealed, but exposure did not change"
            if exposed:
                assert refusal is not None, f"{name}: {action.encode()} may be undone after a draw"
            counts["refused" if refusal else "allowed"] += 1
            state = after
    assert counts["refused"] > 0


def test_the_issue_cases_are_refused():
    """Mac Robber: a warrior draw; Raub Ritter: a lay that draws a tile; Carcassonne: ending a
    turn (a follower placed or skipped) draws the next tile (public, but an undo would let
    everybody know the next tile)."""
    cases = (("macrobber", {"warrior"}), ("raubritter", {"lay"}), ("carcassonne", {"follower", "skip", "pass"}))
    for name, verbs in cases:
        game = REGISTRY[name]
        seen = 0
        for seed in range(3):
            state = game.new_game(3, seed=seed)
            rng = random.Random(seed)
            for _ in range(300):
                if game.outcome(state) is not None:
                    break
                seat = min(game.to_act(state))
                action = rng.choice(game.legal_actions(state, seat))
                after, events = game.apply(state, seat, action)
                if game.exposure(state) != game.exposure(after):
                    assert undo_refusal(game, state, after, seat, action, events, 3) is not None
                    seen += action.verb in verbs
                state = after
        assert seen > 0, f"{name}: no drawing move was met"
