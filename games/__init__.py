"""Pure rule engines, one package per game, plus the contract they share (`games.core`).

`REGISTRY` maps a game's short name to its engine object. Engines register here so the bot,
the command-line runner and the conformance suite all see the same list.
"""
from __future__ import annotations

import importlib
from pathlib import Path

from games.core import Game

REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    REGISTRY[game.name] = game
    return game


def get_game(name: str) -> Game:
    try:
        return REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(REGISTRY)) or "none"
        raise KeyError(f"Unknown game {name!r}. Known games: {known}.") from None


BUILTIN_GAMES = ("knatsch", "raubritter", "carcassonne", "macrobber", "gluecksritter")


def _register_builtin_games() -> None:
    """Every built-in game whose package exists (a game under construction has no package
    `__init__.py` yet). An engine that exists but fails to import is an error, never skipped."""
    here = Path(__file__).parent
    for name in BUILTIN_GAMES:
        if (here / name / "__init__.py").exists():
            register(importlib.import_module(f"games.{name}").GAME)


_register_builtin_games()
