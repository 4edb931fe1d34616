"""Pure rule engines, one package per game, plus the contract they share (`games.core`).

`REGISTRY` maps a game's short name to its engine object. Engines register here so the bot,
the command-line runner and the conformance suite all see the same list.
"""
from __future__ import annotations

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


def _register_builtin_games() -> None:
    from games import knatsch, raubritter

    for module in (knatsch, raubritter):
        register(module.GAME)


_register_builtin_games()
