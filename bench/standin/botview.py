"""What the stand-in's players know about this bot's messages: its components' custom_ids
(bot.components) name the game, the state version and the move, and its turn messages
mention who must act. Everything else about the bot is learnt from its messages."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

MOVE_ID = re.compile(r"^rk:(?:move|pick|tog):(?P<game>\d+):(?P<version>\d+):")
GAME_ID = re.compile(r"^rk:[a-z]+:(?P<game>\d+)(?::|$)")
MENTION = re.compile(r"<@!?(\d+)>")
BUTTON, SELECT = 2, 3
LINK_STYLE = 5


@dataclass(frozen=True)
class Control:
    """One component a user can use: a button, or one option of a select menu."""

    custom_id: str
    kind: int                 # BUTTON or SELECT
    label: str
    value: str | None = None  # the select option's value

    @property
    def game_id(self) -> int | None:
        match = GAME_ID.match(self.custom_id)
        return int(match["game"]) if match else None

    @property
    def version(self) -> int | None:
        match = MOVE_ID.match(self.custom_id)
        return int(match["version"]) if match else None

    @property
    def is_move(self) -> bool:
        return MOVE_ID.match(self.custom_id) is not None

    @property
    def is_toggle(self) -> bool:
        return self.custom_id.startswith("rk:tog:")

    @property
    def is_lobby(self) -> bool:
        return self.custom_id.startswith("rk:lobby:")

    @property
    def op(self) -> str:
        """The last part of a custom_id: 'join', 'start', ... for lobby buttons."""
        return self.custom_id.rsplit(":", 1)[-1]


def _leaves(components: Iterable[dict]) -> Iterable[dict]:
    for component in components or ():
        if component.get("type") == 1 or "components" in component:
            yield from _leaves(component.get("components", ()))
        else:
            yield component


def controls(message: dict | None) -> list[Control]:
    """The usable components of a message (disabled ones and links left out)."""
    if not message:
        return []
    found = []
    for component in _leaves(message.get("components", ())):
        if component.get("disabled") or "custom_id" not in component:
            continue
        if component.get("type") == BUTTON and component.get("style") != LINK_STYLE:
            found.append(Control(component["custom_id"], BUTTON, component.get("label") or ""))
        elif component.get("type") == SELECT:
            for option in component.get("options", ()):
                found.append(Control(component["custom_id"], SELECT, option.get("label", ""), option["value"]))
    return found


def versions(components: list | None) -> tuple[int, ...]:
    """The state versions the move components of a message were made for."""
    found = set()
    for component in _leaves(components or ()):
        match = MOVE_ID.match(component.get("custom_id", ""))
        if match:
            found.add(int(match["version"]))
    return tuple(sorted(found))


def mentioned(message: dict | None) -> list[int]:
    return [int(user_id) for user_id in MENTION.findall((message or {}).get("content", ""))]
