"""Mac Robber by Ralf Burkert: Highland clans, action cubes from a bag, and raids with hidden cards.

`GAME` is the engine the registry picks up; see `engine.py` for the action vocabulary,
`data.py` for the components.
"""
from games.macrobber.engine import MacRobber
from games.macrobber.state import MacRobberState

GAME = MacRobber()

__all__ = ["GAME", "MacRobber", "MacRobberState"]
