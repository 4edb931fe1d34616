"""Raub Ritter (Robber Knights) by R. Dorn: the rules engine. `GAME` is what the registry reads."""
from __future__ import annotations

from games.raubritter.engine import RaubRitter
from games.raubritter.state import RaubRitterState

GAME = RaubRitter()

__all__ = ["GAME", "RaubRitter", "RaubRitterState"]
