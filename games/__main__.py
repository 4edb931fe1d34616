"""Command-line runner: play a whole game with computer-controlled seats.

    python -m games play knatsch --players 3 --seed 7 [--computer] [--lang de] [--render out/]
    python -m games list

Each seat picks uniformly among its legal actions with a generator seeded from --seed, so the
same seed plays the same game every time; with --computer every seat is the game's computer
player (`suggest`) instead. Text is printed in English, or in German with --lang de. With --render, the public board image is written
after every move (renderers/ is imported only then, keeping the engines free of drawing).
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from games import REGISTRY, get_game

MAX_ACTIONS = 50_000


def play(game_name: str, players: int, seed: int, render_dir: Path | None, out=sys.stdout, *,
         computer: bool = False, lang: str = "en") -> int:
    from i18n import translate

    def words(text) -> str:
        return translate(text, lang, names)

    game = get_game(game_name)
    names = [f"P{i + 1}" for i in range(players)]
    state = game.new_game(players, seed=seed)
    chooser = random.Random(seed)
    if render_dir is not None:
        from renderers import render_png

        render_dir.mkdir(parents=True, exist_ok=True)

        def render(step: int) -> None:
            png = render_png(game.view(state, None), names, lang)
            (render_dir / f"{game_name}-{seed}-{step:04d}.png").write_bytes(png)

        render(0)
    print(f"{game.title}: {players} players, seed {seed}", file=out)
    step = 0
    while game.outcome(state) is None:
        step += 1
        if step > MAX_ACTIONS:
            print("Stopped: the game did not end within the action limit.", file=out)
            return 1
        seat = chooser.choice(sorted(game.to_act(state)))
        if computer and getattr(game, "suggest", None) is not None:
            action = game.suggest(state, seat, chooser)
        else:
            action = chooser.choice(game.legal_actions(state, seat))
        label = words(game.describe(state, seat, action))
        state, events = game.apply(state, seat, action)
        print(f"{step:4d}. {names[seat]}: {label}  [{action.encode()}]", file=out)
        for event in events:
            if event.seat is None:  # private events stay private even here
                print(f"      {words(event.text)}", file=out)
        if render_dir is not None:
            render(step)
    outcome = game.outcome(state)
    print(f"Game over after {step} actions: {words(outcome.reason)}", file=out)
    for seat, score in enumerate(outcome.scores):
        marker = "  (winner)" if seat in outcome.winners else ""
        print(f"  {names[seat]}: {score}{marker}", file=out)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the games")
    play_parser = sub.add_parser("play", help="play a full game with computer-controlled seats")
    play_parser.add_argument("game", choices=sorted(REGISTRY))
    play_parser.add_argument("--players", type=int, required=True)
    play_parser.add_argument("--seed", type=int, default=1)
    play_parser.add_argument("--computer", action="store_true",
                             help="every seat plays the game's computer player instead of random moves")
    play_parser.add_argument("--lang", choices=("en", "de"), default="en", help="the language of the text")
    play_parser.add_argument("--render", type=Path, metavar="DIR",
                             help="write the public board image after each move into DIR")
    from games.replay import add_command  # `python -m games replay FILE`: see games/replay.py
    add_command(sub)
    args = parser.parse_args(argv)
    if args.command == "replay":
        return args.run_command(args)
    if args.command == "list":
        for name, game in sorted(REGISTRY.items()):
            print(f"{name:12s} {game.title} ({game.min_players}-{game.max_players} players)")
        return 0
    game = get_game(args.game)
    if not game.min_players <= args.players <= game.max_players:
        parser.error(f"{game.title} takes {game.min_players} to {game.max_players} players")
    return play(args.game, args.players, args.seed, args.render, computer=args.computer, lang=args.lang)


if __name__ == "__main__":
    sys.exit(main())
