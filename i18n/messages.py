"""The words an engine wants said, as data: a message id with parameters (`Msg`), naming players
by seat (`SeatRef`). Engines build them (re-exported by `games.core`); `i18n` turns them into
German or English. Defined here, beneath both, so that neither imports the other's dependants.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Seat = int


@dataclass(frozen=True)
class SeatRef:
    """A player named in a message; the bot or renderer puts in the seat's display name."""

    seat: Seat

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True)
class Msg:
    """Words an engine wants said, as a message id with parameters, never as finished text.

    The bot and the renderers put it into German or English from the catalogues (`i18n`).
    Parameter values are str, int, float, `SeatRef` (a player's name), another `Msg` (a term
    that is itself translated, e.g. a terrain) or a list of those (joined as a list).
    The id's first part names the catalogue: ``"carcassonne.event.scored"`` lives in
    ``i18n/locales/<lang>/carcassonne.po``.
    """

    id: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        params = self.params
        if not params:  # most words of a view: a name, a terrain, a label
            return {"id": self.id, "params": {}}
        return {"id": self.id, "params": {key: _param_json(value) for key, value in params.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Msg:
        params = data.get("params") or {}
        made = _new_msg(cls)  # as `msg`: without the frozen dataclass's slower __init__
        made.__dict__.update(id=str(data["id"]), params={key: _param_from_json(value) for key, value in params.items()})
        return made

    def __hash__(self) -> int:  # params is a dict; hash on the id and a stable rendering
        return hash((self.id, repr(sorted(self.to_json()["params"].items(), key=lambda kv: kv[0]))))


def msg(message_id: str, **params: Any) -> Msg:
    """Shorthand: ``msg("raubritter.terrain.forest")``, ``msg("x.scored", player=SeatRef(1), points=4)``."""
    made = _new_msg(Msg)  # Msg(message_id, params) without the frozen dataclass's slower __init__
    made.__dict__.update(id=message_id, params=params)
    return made


_new_msg = object.__new__


_PLAIN_PARAMS = frozenset((str, int, float, bool, type(None)))
"""Parameters that stand in JSON as they are (checked first: views hold thousands of them)."""


def _param_json(value: Any) -> Any:
    if type(value) in _PLAIN_PARAMS:
        return value
    if isinstance(value, (Msg, SeatRef)):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [_param_json(item) for item in value]
    return value


def _param_from_json(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"seat"}:
        return SeatRef(int(value["seat"]))
    if isinstance(value, dict) and "id" in value:
        return Msg.from_json(value)
    if isinstance(value, list):
        return [_param_from_json(item) for item in value]
    return value


def fill_seats(text: str, names: Sequence[str]) -> str:
    """A legacy engine string with seat placeholders `{s0}`, `{s1}`, ... filled with `names`."""
    for index, name in enumerate(names):
        text = text.replace(f"{{s{index}}}", name)
    return text
