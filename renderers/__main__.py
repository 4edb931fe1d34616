"""Drawing whole games on the command line: every public board, as PNG files.

    python -m renderers play knatsch --players 3 --seed 7 [--computer] [--lang de] --out boards/
    python -m renderers replay game-12.json --out boards/ [--lang de]

`play` plays the game `python -m games play` plays with the same arguments, `replay` replays an
exported game (`/game export`); both print what `python -m games` prints and write the public
board at the start and after every move into the folder. The engines draw nothing themselves.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from games import REGISTRY, get_game
from games.__main__ import play
from games.core import Game
from games.replay import run
from i18n import LANGUAGES
from renderers import render_png


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m renderers", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    play_parser = sub.add_parser("play", help="play a whole game with computer-controlled seats and draw it")
    play_parser.add_argument("game", choices=sorted(REGISTRY))
    play_parser.add_argument("--players", type=int, help="number of seats (default: the fewest the game takes)")
    play_parser.add_argument("--seed", type=int, default=1)
    play_parser.add_argument("--computer", action="store_true", help="every seat plays the game's computer player")
    play_parser.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the lines and boards")
    play_parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="where the boards go")
    replay_parser = sub.add_parser("replay", help="replay an exported game and draw every board")
    replay_parser.add_argument("file", type=Path)
    replay_parser.add_argument("--lang", choices=LANGUAGES, help="language of the lines and boards")
    replay_parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="where the boards go")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.command == "replay":
        def draw_replayed(game: Game, step: int, state: Any, names: list[str], lang: str) -> None:
            (args.out / f"{game.name}-{step:04d}.png").write_bytes(render_png(game.view(state, None), names, lang))

        return run(args.file, lang=args.lang, each_state=draw_replayed)
    game = get_game(args.game)
    players = args.players if args.players is not None else game.min_players
    if not game.min_players <= players <= game.max_players:
        parser.error(f"{game.title} takes {game.min_players} to {game.max_players} players")
    names = [f"P{i + 1}" for i in range(players)]

    def draw(step: int, state: Any) -> None:
        png = render_png(game.view(state, None), names, args.lang)
        (args.out / f"{args.game}-{args.seed}-{step:04d}.png").write_bytes(png)

    return play(args.game, players, args.seed, computer=args.computer, lang=args.lang, each_state=draw)


if __name__ == "__main__":
    sys.exit(main())
