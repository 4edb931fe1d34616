"""Carcassonne (base game) with The Robbers and the crop circle: the rules engine. `GAME` is
what the registry reads."""
from __future__ import annotations

from games.carcassonne.engine import Carcassonne
from games.carcassonne.state import CarcassonneState

GAME = Carcassonne()

__all__ = ["GAME", "Carcassonne", "CarcassonneState"]
