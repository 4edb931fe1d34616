"""Command-line runner: play a whole game with computer-controlled seats.

    python -m games play knatsch --players 3 --seed 7 [--computer] [--lang de]
    python -m games play raubritter --players 3 --option area=8x8
    python -m games list

By default each seat picks uniformly among its legal actions with a generator seeded from
--seed; with --computer every seat plays the game's computer player (`suggest`) instead, where
the game has one. The same seed plays the same game every time. Lines are printed in --lang
(English or German) from the catalogues. The engines draw nothing: `python -m renderers play`
plays the same game and writes every public board as an image.
"""
from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from games import REGISTRY, get_game
from games.core import Game, GameError, Msg, hooks, msg
from games.replay import add_command
from i18n import LANGUAGES, game_title, has_message, t, translate

MAX_ACTIONS = 50_000


def play(game_name: str, players: int, seed: int, out: TextIO | None = None, *, computer: bool = False,
         lang: str = "en", options: Mapping[str, str] | None = None,
         each_state: Callable[[int, Any], None] | None = None) -> int:
    """Play a whole game and print it. `each_state(step, state)`: called with the state at the
    start (step 0) and after every move (the renderers' command line draws them)."""
    out = out if out is not None else sys.stdout
    game = get_game(game_name)
    names = [f"P{i + 1}" for i in range(players)]
    state = game.new_game(players, seed=seed, options=dict(options or {}))
    chooser = random.Random(seed)
    suggest = hooks(game).suggest if computer and game.features.computer else None
    if each_state is not None:
        each_state(0, state)
    print(t(lang, "core.cli.header", title=game_title(game), count=players, seed=seed), file=out)
    step = 0
    while (outcome := game.outcome(state)) is None:
        step += 1
        if step > MAX_ACTIONS:
            print(t(lang, "core.cli.stopped"), file=out)
            return 1
        seat = chooser.choice(sorted(game.to_act(state)))
        if suggest is not None:
            action = suggest(state, seat, chooser)
        else:
            action = chooser.choice(game.legal_actions(state, seat))
        label = translate(game.describe(state, seat, action), lang, names)
        state, events = game.apply(state, seat, action)
        print(f"{step:4d}. {names[seat]}: {label}  [{action.encode()}]", file=out)
        for event in events:
            if event.seat is None:  # private events stay private even here
                print(f"      {translate(event.text, lang, names)}", file=out)
        if each_state is not None:
            each_state(step, state)
    print(t(lang, "core.cli.over", count=step, reason=translate(outcome.reason, lang, names)), file=out)
    for seat, score in enumerate(outcome.scores):
        marker = f"  ({t(lang, 'core.cli.winner')})" if seat in outcome.winners else ""
        print("  " + t(lang, "core.cli.score", player=names[seat], score=score_words(game, score)) + marker, file=out)
    return 0


def score_words(game: Game, score: int) -> Msg | int:
    """"12 points", "3 castles": a final score with what it counts, where the game says it."""
    unit = f"{game.name}.score"
    return msg(unit, count=score) if has_message(unit) else score


def _option(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name or not value:
        raise argparse.ArgumentTypeError(f"an option is name=value, not {text!r}")
    return name, value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    list_parser = sub.add_parser("list", help="list the games")
    list_parser.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the titles")
    play_parser = sub.add_parser("play", help="play a full game with computer-controlled seats")
    play_parser.add_argument("game", choices=sorted(REGISTRY))
    play_parser.add_argument("--players", type=int, help="number of seats (default: the fewest the game takes)")
    play_parser.add_argument("--seed", type=int, default=1)
    play_parser.add_argument("--computer", action="store_true",
                             help="every seat plays the game's computer player instead of random moves")
    play_parser.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the printed lines")
    play_parser.add_argument("--option", type=_option, action="append", default=[], metavar="NAME=VALUE",
                             help="a table option, e.g. area=8x8 for Raub Ritter (repeatable)")
    add_command(sub)  # `python -m games replay FILE`: see games/replay.py
    args = parser.parse_args(argv)
    if args.command == "replay":
        replayed: int = args.run_command(args)
        return replayed
    if args.command == "list":
        for name, game in sorted(REGISTRY.items()):
            print(t(args.lang, "core.cli.list_line", name=f"{name:12s}", title=game_title(game),
                    players=f"{game.min_players}–{game.max_players}"))
        return 0
    game = get_game(args.game)
    players = args.players if args.players is not None else game.min_players
    if not game.min_players <= players <= game.max_players:
        parser.error(f"{game.title} takes {game.min_players} to {game.max_players} players")
    options = dict(args.option)
    try:
        game.new_game(players, seed=args.seed, options=options)
    except GameError as exc:  # a bad option: say so the way argparse does
        parser.error(str(exc))
    return play(args.game, players, args.seed, computer=args.computer, lang=args.lang, options=options)


if __name__ == "__main__":
    sys.exit(main())
