"""Knatsch (Knights) by Michael Schacht: capture castles, tournaments and special cards with dice.

`GAME` is the engine the registry picks up; see `engine.py` for the rules decisions and the
action vocabulary, `cards.py` for the card data.
"""
from games.knatsch.engine import KnatschGame

GAME = KnatschGame()

__all__ = ["GAME", "KnatschGame"]
