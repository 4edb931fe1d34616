"""Replay files: a game exported from the bot, played again move by move on your own machine.

    python -m games replay FILE [--lang de]

A replay file is JSON (documented in docs/replays.md). A finished game's file holds the game,
options, seed, seats and every move, so `replay` rebuilds every state exactly (the engine
contract: `new_game(seed)` plus the action log gives the same game), checks that it ends with the
stored result (`python -m renderers replay FILE --out DIR` draws the public board after every move).

A game that is still running is exported without its seed and without any move that only its
player could see (the seed would tell the order of every deck and bag): that file is a record of
the public moves and cannot be replayed.

Nothing here imports Discord or storage; the bot builds files with `export_game`.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from games import get_game
from games.core import Action, Event, Game, GameError, Msg, hooks
from i18n import translate

FORMAT = "robber-knights-replay"
VERSION = 1


class ReplayError(Exception):
    """A file that is not a replay, cannot be replayed, or does not reproduce its result."""


@dataclass(frozen=True)
class Move:
    seat: int
    action: str
    at: int | None = None


def state_digest(data: Mapping[str, Any]) -> str:
    """A fingerprint of a stored state (`Game.to_dict`), to check a replay ends in the same place."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _text(value: Any) -> Any:
    """Engine text as JSON (a Msg's dict, or a legacy string)."""
    return value.to_json() if isinstance(value, Msg) else value


def _public_view(view: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in view.items() if key != "viewer"}


def export_game(game: Game, *, seed: int, options: Mapping[str, str], names: Sequence[str],
                moves: Sequence[Move], status: str, result: Mapping[str, Any] | None = None,
                game_id: int | None = None, lang: str = "en") -> dict[str, Any]:
    """The replay file (as a JSON-ready dict) for a game played with `seed` and `moves`.

    status 'finished' or 'abandoned': a complete file (seed and every move; the game is over, so
    nothing is secret any more). status 'active': a public record only, without the seed; a
    move is listed with its action only if the action gives nothing away (`action_is_public`),
    otherwise only with the public lines it caused.
    """
    seats = [{"seat": seat, "name": name} for seat, name in enumerate(names)]
    base = {"format": FORMAT, "version": VERSION, "game": game.name, "title": game.title,
            "game_id": game_id, "lang": lang, "options": dict(options), "seats": seats}
    state = game.new_game(len(names), seed=seed, options=options)
    if status in ("finished", "abandoned"):
        for move in moves:
            state, _ = game.apply(state, move.seat, Action.parse(move.action))
        return {**base, "complete": True, "status": status, "seed": seed,
                "moves": [{"n": n, "seat": m.seat, "action": m.action, "at": m.at}
                          for n, m in enumerate(moves, 1)],
                "result": _result_json(result),
                "final_state_sha256": state_digest(game.to_dict(state))}
    if status != "active":
        raise ReplayError(f"A game in the {status} has no moves to export yet.")
    public_moves = []
    n = 0
    for move in moves:
        before = state
        state, events = game.apply(state, move.seat, Action.parse(move.action))
        if move_is_invisible(game, before, state, events):
            continue  # a secret preparation: not even that it happened
        n += 1
        entry: dict[str, Any] = {"n": n, "seat": move.seat, "at": move.at,
                                 "events": [_text(e.text) for e in events if e.seat is None]}
        if action_is_public(game, before, state, move.seat):
            entry["action"] = move.action
        public_moves.append(entry)
    return {**base, "complete": False, "status": "active", "seed": None, "moves": public_moves,
            "result": None, "board": game.view(state, None)}


def move_is_invisible(game: Game, before: Any, after: Any, events: Sequence[Event]) -> bool:
    """A private preparation (a Die Glücksritter document armed during the secret choice): the
    public view is exactly as it was and no public line was said. The channel, the log, the
    status and a running game's export must not show that it happened at all, not even as
    "someone made a move", since that alone tells others something."""
    return not any(event.seat is None for event in events) and game.view(before, None) == game.view(after, None)


def action_is_public(game: Game, before: Any, after: Any, seat: int) -> bool:
    """May a running game's export show what `seat` chose in this move? Yes if the engine declares
    the seat's moves public (`moves_are_public`, e.g. a Raub Ritter knights step); otherwise only if
    the seat saw nothing the public did not, both before the move (no hidden hand to choose from)
    and after it (no secret choice waiting to be revealed)."""
    if game.features.public_moves:
        return bool(hooks(game).moves_are_public(before, seat))
    return all(_public_view(game.view(state, seat)) == _public_view(game.view(state, None))
               for state in (before, after))


def _result_json(result: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {key: _text(value) for key, value in result.items()}


def dumps(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1)


# ------------------------------------------------------------------------------- replaying


@dataclass(frozen=True)
class Replayed:
    game: Game
    names: list[str]
    states: list[Any]  # index 0: the start; index n: after move n
    moves: list[Move]
    events: list[list[Any]]  # each move's events

    @property
    def final(self) -> Any:
        return self.states[-1]


def load(data: Mapping[str, Any]) -> tuple[Game, list[str], list[Move]]:
    """Check a file's shape; refuse a file that cannot be replayed, saying why."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise ReplayError("This is not a replay file (no \"format\": \"robber-knights-replay\").")
    if data.get("version") != VERSION:
        raise ReplayError(f"Replay format version {data.get('version')!r} is not supported "
                          f"(this tool reads {VERSION}).")
    if not data.get("complete") or data.get("seed") is None:
        raise ReplayError("This file was exported while the game was still running: it has no seed and only the "
                          "public moves, so it cannot be replayed. Export the game again once it is over.")
    try:
        game = get_game(str(data["game"]))
    except KeyError as exc:
        raise ReplayError(str(exc.args[0])) from None
    names = [str(seat["name"]) for seat in sorted(data["seats"], key=lambda s: s["seat"])]
    moves = [Move(int(m["seat"]), str(m["action"]), m.get("at")) for m in data["moves"]]
    return game, names, moves


def replay(data: Mapping[str, Any]) -> Replayed:
    """Every state of a complete file's game. Raises ReplayError if a move is refused."""
    game, names, moves = load(data)
    state = game.new_game(len(names), seed=int(data["seed"]), options=data.get("options") or {})
    states, events = [state], []
    for n, move in enumerate(moves, 1):
        try:
            state, said = game.apply(state, move.seat, Action.parse(move.action))
        except GameError as exc:
            raise ReplayError(f"Move {n} ({move.action!r} by seat {move.seat + 1}) was refused: {exc}") from None
        states.append(state)
        events.append(said)
    return Replayed(game, names, states, moves, events)


def check(data: Mapping[str, Any], replayed: Replayed) -> list[str]:
    """Differences between the replay and the stored result; empty when it reproduces it."""
    problems = []
    game, final = replayed.game, replayed.final
    digest = data.get("final_state_sha256")
    if digest and state_digest(game.to_dict(final)) != digest:
        problems.append("the final state differs from the stored one")
    result = data.get("result") or {}
    outcome = game.outcome(final)
    if data.get("status") == "finished" and "resigned" not in result:
        if outcome is None:
            problems.append("the stored game is finished but the replayed game is not over")
        else:
            if list(outcome.winners) != list(result.get("winners", [])):
                problems.append(f"winners {list(outcome.winners)} differ from the stored {result.get('winners')}")
            if "scores" in result and list(outcome.scores) != list(result["scores"]):
                problems.append(f"scores {list(outcome.scores)} differ from the stored {result['scores']}")
    elif outcome is not None:
        problems.append("the replayed game ended although the stored game was ended early")
    return problems


def run(path: Path, out: TextIO = sys.stdout, lang: str | None = None,
        each_state: Callable[[Game, int, Any, list[str], str], None] | None = None) -> int:
    """The `replay` command: 0 when the file reproduces its result, 1 when not, 2 when it
    cannot be replayed at all. `each_state(game, step, state, names, lang)`: called with every state
    (the renderers' command line draws them)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"Cannot read {path}: {exc}", file=out)
        return 2
    try:
        replayed = replay(data)
    except ReplayError as exc:
        print(f"Cannot replay {path}: {exc}", file=out)
        return 2
    lang = lang or data.get("lang") or "en"
    game, names = replayed.game, replayed.names
    print(f"{game.title}: {len(names)} players ({', '.join(names)}), seed {data['seed']}, "
          f"{len(replayed.moves)} moves", file=out)
    for n, (move, events) in enumerate(zip(replayed.moves, replayed.events), 1):
        said = " ".join(translate(e.text, lang, names) for e in events if e.seat is None)
        print(f"{n:4d}. {names[move.seat]}: {move.action}" + (f" — {said}" if said else ""), file=out)
    if each_state is not None:
        for step, state in enumerate(replayed.states):
            each_state(game, step, state, names, lang)
    problems = check(data, replayed)
    if problems:
        print("The replay does NOT reproduce the stored result: " + "; ".join(problems) + ".", file=out)
        return 1
    result = data.get("result") or {}
    reason = result.get("reason")
    print("The replay reproduces the stored result" + (f": {translate(reason, lang, names)}" if reason else "."),
          file=out)
    return 0


def add_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Adds `replay` to `python -m games` (its handler is in `args.run_command`)."""
    parser = subparsers.add_parser("replay", help="replay an exported game file and check its result")
    parser.add_argument("file", type=Path)
    parser.add_argument("--lang", choices=("en", "de"), help="language of the lines (default: the table's)")
    parser.set_defaults(run_command=lambda args: run(args.file, lang=args.lang))


# Rows the bot writes into a game's log that are not moves: an undo (takes back the last move)
# and a substitute taking a seat (changes nothing in the game).
UNDO_ROW, REPLACE_ROW = "~undo", "~replace"


def moves_from(rows: Iterable[Any]) -> list[Move]:
    """The moves that stand, from stored action rows (anything with .seat, .action and .at):
    an undone move is left out, and so are the undo and substitute rows themselves."""
    moves: list[Move] = []
    for row in rows:
        if row.action == UNDO_ROW:
            if moves:
                moves.pop()
        elif row.action != REPLACE_ROW:
            moves.append(Move(row.seat, row.action, row.at))
    return moves
