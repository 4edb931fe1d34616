"""Die Glücksritter by Klaus Kreowski: secret action cards, documents and Black Knights.

`GAME` is the engine the registry picks up; see `engine.py` for the action vocabulary,
`data.py` for the components.
"""
from games.gluecksritter.engine import Gluecksritter
from games.gluecksritter.state import GluecksritterState

GAME = Gluecksritter()

__all__ = ["GAME", "Gluecksritter", "GluecksritterState"]
