"""Persistent buttons and selects.

Every interactive component is a `discord.ui.DynamicItem` whose custom_id carries what it needs
(game id, state version, action text), and all classes are given at start-up to the bot's
`ClickRouter`, which answers a click by its custom_id alone. So a click works after a restart,
in a DM, or on an ephemeral reply, and the bot decides from the database alone what it means.
Callbacks are thin: they read the click and hand it to `clicks` (bot.clicks), given to the
classes registered at start-up (`answering`); errors go to the central `report_error`.

custom_id formats (Discord allows 100 characters):
  rk:lobby:<game>:<join|leave|start>   rk:hand:<game>
  rk:move:<game>:<version>:<action>    rk:pick:<game>:<version>:<n>  (select; values = actions)
  rk:tog:<game>:<version>:<mask>:<i>   (toggle item i of a SubsetChoice; mask = items chosen)
  rk:order:<game>:<kind>:<on>          (a standing order for the i-th kind of decision outside one's turn)
"""
from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

import discord
from discord.ui import Button, DynamicItem, Select

from bot.errors import report_error
from bot.presenter import clip
from games.core import SubsetChoice
from i18n import t

log = logging.getLogger(__name__)

CUSTOM_ID_LIMIT = 100
BUTTON_LABEL_LIMIT = 80
OPTION_LABEL_LIMIT = 100
PLACEHOLDER_LIMIT = 150
ROW_WIDTH = 5
ROWS = 5
SELECT_LIMIT = 25
MAX_BUTTONS = 10  # more choices than this read better as a select menu
TOGGLE_ROW_WIDTH = 3  # dice toggles three to a row, as the board image shows them
DICE_VERBS = {"reroll"}  # toggles that are dice: "Die 3: 5", and ↻ on those to roll again


@dataclass(frozen=True)
class Choice:
    """One legal action as the interface shows it."""

    action: str  # Action.encode()
    label: str   # game.describe(...)


@dataclass(frozen=True)
class Toggles(SubsetChoice):
    """A family of toggles as the interface shows it (`bot.choices.toggles_for`): the engine's
    SubsetChoice with every text in the player's words."""

    items: tuple[tuple[str, str], ...]
    prompt: str
    confirm: str


def _clip(text: str, limit: int) -> str:
    return clip(text, limit)


class Handled:
    """Routes every component callback through the central error handler."""

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.handle(interaction)
        except Exception as error:  # noqa: BLE001 - the one place component errors end up
            await report_error(interaction, error)

    async def handle(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


class Clicks(Protocol):
    """What a click on a persistent component does (bot.clicks.ClickAnswers, built with the
    parts it uses): one method per kind of component."""

    async def lobby(self, interaction: discord.Interaction, game_id: int, op: str) -> None: ...

    async def hand(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def hint(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def move(self, interaction: discord.Interaction, game_id: int, action: str, version: int) -> None: ...

    async def toggle(self, interaction: discord.Interaction, game_id: int, version: int, mask: int) -> None: ...

    async def order(self, interaction: discord.Interaction, game_id: int, index: int, on: bool) -> None: ...


class Answered(Handled):
    """A component whose clicks `clicks` answers: set on the classes `answering` registers."""

    clicks: ClassVar[Clicks]


Persistent = type[DynamicItem[Any]]


class ShownView(discord.ui.View):
    """A message's persistent components. Their clicks are answered by the classes registered at
    start-up (`answering`), which carry the parts that answer them; so discord.py is told the view
    is finished when a message is sent with it: a view it keeps would register its items' own
    classes, which carry no parts, in place of those (discord.ui.view.ViewStore.add_view)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_finished(self) -> bool:
        return True


class Part(discord.ui.Item[Any]):
    """One button or select of `Components`, as Discord takes it (its JSON): what a test or a caller
    reads of a message's components (`custom_id`, `label`, `to_component_dict()`)."""

    def __init__(self, data: dict[str, Any], row: int) -> None:
        super().__init__()
        self.data = data
        self._row = row

    @property
    def type(self) -> discord.ComponentType:
        return discord.ComponentType(self.data["type"])

    @property
    def item(self) -> Part:
        """The button or select itself (as a DynamicItem's `item` is)."""
        return self

    @property
    def custom_id(self) -> str:
        return self.data["custom_id"]

    @property
    def label(self) -> str | None:
        return self.data.get("label")

    def is_dispatchable(self) -> bool:
        return True

    def to_component_dict(self) -> dict[str, Any]:
        return dict(self.data)


class Components(discord.ui.View):
    """A board's or DM's buttons and selects, built straight as the JSON Discord takes (rows of
    component dicts), for discord.py to send like any view (`to_components`).

    A move builds these for its board, every DM it edits and every toggle tapped (some ten a
    Glücksritter move): discord.ui's View and its items (an id from the OS, a future, a weights
    table, a Button and a DynamicItem per component) cost some 0.1 ms a message, for a payload
    built here in a quarter of that. The JSON is the same to the byte
    (tests/bot/test_component_payloads.py holds it to discord.ui's). Finished from the start like
    `ShownView`: discord.py keeps no callback for it, and a click is answered by the classes
    registered at start-up (`answering`), by its custom_id alone, as before."""

    def __init__(self) -> None:
        # None of discord.ui.View's own state (an id, a future, its weights): it never dispatches.
        self._rows: dict[int, list[dict[str, Any]]] = {}
        self._widths: dict[int, int] = {}
        self._count = 0
        self._timeout: float | None = None

    def put(self, row: int, component: dict[str, Any], width: int = 1) -> None:
        """`component` at the end of `row`; as discord.ui.View.add_item, ValueError when it does
        not fit (25 components, 5 rows of width 5: a select fills its row)."""
        if not 0 <= row < ROWS:
            raise ValueError(f"row cannot be negative or greater than or equal to {ROWS}")
        if self._count >= 25:
            raise ValueError("maximum number of children exceeded")
        if self._widths.get(row, 0) + width > ROW_WIDTH:
            raise ValueError(f"could not find open space for item in row {row}")
        self._rows.setdefault(row, []).append(component)
        self._widths[row] = self._widths.get(row, 0) + width
        self._count += 1

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": [dict(component) for component in self._rows[row]]}
                for row in sorted(self._rows)]

    @property
    def children(self) -> list[discord.ui.Item[Any]]:
        return [Part(component, row) for row in sorted(self._rows) for component in self._rows[row]]

    def custom_ids(self) -> list[str]:
        return [component["custom_id"] for row in sorted(self._rows) for component in self._rows[row]]

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return True  # a view, even empty, as discord.ui's (discord.py tests `if view`)

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return self._count > 0

    def has_components_v2(self) -> bool:
        return False

    @property
    def timeout(self) -> float | None:
        return self._timeout

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        self._timeout = value  # set by discord.py on an ephemeral follow-up; nothing times out


def button(style: discord.ButtonStyle, label: str, custom_id: str, *, disabled: bool = False,
           emoji: str | None = None) -> dict[str, Any]:
    """A button's JSON as discord.ui.Button makes it (its keys in that order; no empty label)."""
    component: dict[str, Any] = {"type": 2, "style": style.value, "disabled": disabled}
    if label:
        component["label"] = label
    component["custom_id"] = custom_id
    if emoji:
        component["emoji"] = {"id": None, "name": emoji}
    return component


def select(custom_id: str, options: Sequence[tuple[str, str]], placeholder: str | None) -> dict[str, Any]:
    """A one-choice select menu's JSON as discord.ui.Select makes it; `options`: (label, value)."""
    component: dict[str, Any] = {"type": 3, "custom_id": custom_id, "min_values": 1, "max_values": 1,
                                 "disabled": False, "required": True}
    if placeholder:
        component["placeholder"] = placeholder
    if options:
        component["options"] = [{"label": label, "value": value, "default": False} for label, value in options]
    return component


def answering(items: Sequence[Persistent], **given: Any) -> tuple[Persistent, ...]:
    """`items` as registered with discord.py at start-up: subclasses with the same custom_id
    template that carry what their clicks need (`clicks=...`), so no click looks for the bot."""
    return tuple(type(item.__name__, (item,), dict(given), template=item.__discord_ui_compiled_template__)
                 for item in items)


class ClickRouter:
    """Answers a click on a persistent component from its custom_id, as discord.py's routing of
    dynamic items (`Client.add_dynamic_items`) does, without what that routing costs a click:
    discord.py rebuilds a discord.ui.View of every component of the clicked message
    (`View.from_message`, some 0.12 ms a click) to find the clicked one and put the item in its
    place, in a task of its own. The bot's items need only their custom_id, the clicked
    component (a button's label, a select's options) and a select's values, all in the
    interaction; so the router finds the class whose template matches, makes the item from the
    clicked component (`from_custom_id`) and calls it, in the task of the bot's `on_interaction`."""

    def __init__(self, items: Sequence[Persistent]) -> None:
        self.items = tuple(items)
        self._templates = tuple((item.__discord_ui_compiled_template__, item) for item in self.items)

    def answering(self, custom_id: str) -> tuple[Persistent, re.Match[str]] | None:
        """The class that answers `custom_id`, with its template's match; None for another's."""
        for template, item in self._templates:
            match = template.fullmatch(custom_id)
            if match is not None:
                return item, match
        return None

    async def route(self, interaction: discord.Interaction) -> None:
        """Answer `interaction` if it is a click on one of the items; anything else is left alone
        (commands, modals, and a view discord.py keeps go their own way)."""
        if interaction.type is not discord.InteractionType.component or interaction.message is None:
            return
        data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
        custom_id = data.get("custom_id")
        if not isinstance(custom_id, str):
            return
        found = self.answering(custom_id)
        if found is None:
            return
        factory, match = found
        clicked = _clicked(interaction.message.components, data.get("component_type"), custom_id)
        if clicked is None:  # as discord.py: a component no longer on the message is not answered
            return
        try:
            item = await factory.from_custom_id(interaction, clicked, match)
        except Exception:  # as discord.py: a custom_id the class cannot read is logged, not answered
            log.exception("A click with custom_id %r could not be read by %s", custom_id, factory.__name__)
            return
        item._refresh_state(interaction, data)  # a select's values, for its callback
        if await item.interaction_check(interaction):
            await item.callback(interaction)


def _clicked(components: Sequence[Any], component_type: Any, custom_id: str) -> Any | None:
    """The component of a message (its rows walked) with this type and custom_id."""
    for component in components:
        if getattr(component, "custom_id", None) == custom_id and component.type.value == component_type:
            return component
        found = _clicked(getattr(component, "children", ()), component_type, custom_id)
        if found is not None:
            return found
    return None


# ------------------------------------------------------------------------------ lobby


LOBBY_BUTTONS = {
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.primary,
    "computer": discord.ButtonStyle.secondary,  # the host adds a computer seat
    "uncomputer": discord.ButtonStyle.secondary,  # the host removes the last computer seat added
}


class LobbyButton(Answered, DynamicItem[Button],
                  template=r"rk:lobby:(?P<game_id>\d+):(?P<op>join|leave|start|computer|uncomputer)"):
    def __init__(self, game_id: int, op: str, lang: str = "en") -> None:
        super().__init__(Button(label=t(lang, f"bot.lobby.button.{op}"), style=LOBBY_BUTTONS[op],
                                custom_id=f"rk:lobby:{game_id}:{op}"))
        self.game_id = game_id
        self.op = op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /):
        return cls(int(match["game_id"]), match["op"])

    async def handle(self, interaction: discord.Interaction) -> None:
        await self.clicks.lobby(interaction, self.game_id, self.op)


def lobby_view(table, game) -> discord.ui.View:
    """Join, Leave and Start; Add computer for a game with a computer player, and Remove
    computer while one is seated."""
    can_add = game.features.computer
    seated = any(player.computer for player in table.players)
    view = ShownView()
    for op in LOBBY_BUTTONS:
        if (op == "computer" and not can_add) or (op == "uncomputer" and not seated):
            continue
        view.add_item(LobbyButton(table.id, op, table.lang))
    return view


# ------------------------------------------------------------------------- private view


class HandButton(Answered, DynamicItem[Button], template=r"rk:hand:(?P<game_id>\d+)"):
    """'My hand' on the board: your private view and moves, as an ephemeral reply.

    The fallback for players whose DMs are closed, and a way back to your hand for everyone."""

    def __init__(self, game_id: int, label: str = "My hand") -> None:
        super().__init__(Button(label=label, emoji="🂠", style=discord.ButtonStyle.secondary,
                                custom_id=f"rk:hand:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /):
        return cls(int(match["game_id"]), item.label or "My hand")

    async def handle(self, interaction: discord.Interaction) -> None:
        await self.clicks.hand(interaction, self.game_id)


class HintButton(Answered, DynamicItem[Button], template=r"rk:hint:(?P<game_id>\d+)"):
    """'Hint' on a practice table's board: the computer's move for your seat and why, only for you."""

    def __init__(self, game_id: int, label: str = "Hint") -> None:
        super().__init__(Button(label=label, emoji="💡", style=discord.ButtonStyle.secondary,
                                custom_id=f"rk:hint:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /):
        return cls(int(match["game_id"]), item.label or "Hint")

    async def handle(self, interaction: discord.Interaction) -> None:
        await self.clicks.hint(interaction, self.game_id)


# ------------------------------------------------------------------------------ moves


class MoveButton(Answered, DynamicItem[Button],
                 template=r"rk:move:(?P<game_id>\d+):(?P<version>\d+):(?P<action>.+)"):
    def __init__(self, game_id: int, version: int, action: str, label: str) -> None:
        super().__init__(Button(label=_clip(label, BUTTON_LABEL_LIMIT), style=discord.ButtonStyle.primary,
                                custom_id=move_custom_id(game_id, version, action)))
        self.game_id = game_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /):
        return cls(int(match["game_id"]), int(match["version"]), match["action"], item.label or match["action"])

    async def handle(self, interaction: discord.Interaction) -> None:
        await self.clicks.move(interaction, self.game_id, self.action, self.version)


class MoveSelect(Answered, DynamicItem[Select], template=r"rk:pick:(?P<game_id>\d+):(?P<version>\d+):(?P<part>\d+)"):
    def __init__(self, game_id: int, version: int, part: int, options: Sequence[discord.SelectOption],
                 placeholder: str | None = None) -> None:
        super().__init__(Select(custom_id=f"rk:pick:{game_id}:{version}:{part}", options=list(options),
                                placeholder=placeholder or "Choose your move…", min_values=1, max_values=1))
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /):
        return cls(int(match["game_id"]), int(match["version"]), int(match["part"]), item.options, item.placeholder)

    async def handle(self, interaction: discord.Interaction) -> None:
        await self.clicks.move(interaction, self.game_id, self.item.values[0], self.version)


class ToggleButton(Answered, DynamicItem[Button],
                   template=r"rk:tog:(?P<game_id>\d+):(?P<version>\d+):(?P<mask>\d+):(?P<index>\d+)"):
    """One item of a SubsetChoice (say, a die): a click flips it and redraws the buttons.

    Nothing is stored: the chosen items live in the custom_ids, so the choice survives a
    restart, and only the confirm button makes a move."""

    def __init__(self, game_id: int, version: int, mask: int, index: int, label: str, *, chosen: bool,
                 mark: str = "↻") -> None:
        super().__init__(Button(label=_clip(f"{label} {mark}" if chosen else label, BUTTON_LABEL_LIMIT),
                                style=discord.ButtonStyle.primary if chosen else discord.ButtonStyle.secondary,
                                custom_id=f"rk:tog:{game_id}:{version}:{mask}:{index}"))
        self.game_id = game_id
        self.version = version
        self.mask = mask
        self.index = index

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /):
        return cls(int(match["game_id"]), int(match["version"]), int(match["mask"]), int(match["index"]),
                   item.label or "", chosen=False)

    async def handle(self, interaction: discord.Interaction) -> None:
        await self.clicks.toggle(interaction, self.game_id, self.version, self.mask ^ (1 << self.index))


class OrderButton(Answered, DynamicItem[Button], template=r"rk:order:(?P<game_id>\d+):(?P<index>\d+):(?P<on>[01])"):
    """On a player's DM: a standing order for one kind of decision outside their turn, flipped
    by a click (bot.days.orders). Only its player ever sees it."""

    def __init__(self, game_id: int, index: int, on: bool, label: str) -> None:
        super().__init__(Button(label=_clip(label, BUTTON_LABEL_LIMIT),
                                style=discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
                                custom_id=f"rk:order:{game_id}:{index}:{int(on)}"))
        self.game_id = game_id
        self.index = index
        self.on = on

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /):
        return cls(int(match["game_id"]), int(match["index"]), match["on"] == "1", item.label or "")

    async def handle(self, interaction: discord.Interaction) -> None:
        await self.clicks.order(interaction, self.game_id, self.index, self.on)


def move_custom_id(game_id: int, version: int, action: str) -> str:
    return f"rk:move:{game_id}:{version}:{action}"


def hand_button(game_id: int, label: str) -> dict[str, Any]:
    """`HandButton`'s JSON."""
    return button(discord.ButtonStyle.secondary, label, f"rk:hand:{game_id}", emoji="🂠")


def hint_button(game_id: int, label: str) -> dict[str, Any]:
    """`HintButton`'s JSON."""
    return button(discord.ButtonStyle.secondary, label, f"rk:hint:{game_id}", emoji="💡")


def move_button(game_id: int, version: int, action: str, label: str, *,
                style: discord.ButtonStyle = discord.ButtonStyle.primary, disabled: bool = False) -> dict[str, Any]:
    """`MoveButton`'s JSON (a family's confirm button: another style, maybe disabled)."""
    return button(style, _clip(label, BUTTON_LABEL_LIMIT), move_custom_id(game_id, version, action), disabled=disabled)


def move_select(game_id: int, version: int, part: int, chunk: Sequence[Choice],
                placeholder: str | None) -> dict[str, Any]:
    """`MoveSelect`'s JSON: a menu of `chunk`."""
    return select(f"rk:pick:{game_id}:{version}:{part}",
                  [(_clip(c.label, OPTION_LABEL_LIMIT), c.action) for c in chunk], placeholder or "Choose your move…")


def toggle_button(game_id: int, version: int, mask: int, index: int, label: str, *, chosen: bool,
                  mark: str = "↻") -> dict[str, Any]:
    """`ToggleButton`'s JSON."""
    return button(discord.ButtonStyle.primary if chosen else discord.ButtonStyle.secondary,
                  _clip(f"{label} {mark}" if chosen else label, BUTTON_LABEL_LIMIT),
                  f"rk:tog:{game_id}:{version}:{mask}:{index}")


def order_button(game_id: int, index: int, on: bool, label: str) -> dict[str, Any]:
    """`OrderButton`'s JSON."""
    return button(discord.ButtonStyle.success if on else discord.ButtonStyle.secondary,
                  _clip(label, BUTTON_LABEL_LIMIT), f"rk:order:{game_id}:{index}:{int(on)}")


def add_move_components(view: Components, game_id: int, version: int, choices: Sequence[Choice],
                        rows: int, toggles: Sequence[Toggles] = (), mask: int | None = None,
                        menu_prompt: str = "Choose your move…") -> int:
    """Add components for `choices` using at most `rows` rows; returns how many choices fit.

    A family of actions described as a SubsetChoice (e.g. which dice to roll again) becomes one
    toggle button per item (three to a row, like dice on the board) plus a confirm button on the
    row under them; `mask` says which items are chosen now (None: those the family pre-selects).
    A family of an exact size (two action cards) enables its confirm button only when exactly
    that many are chosen, and says how many are so far. Of the other choices, a few become
    buttons (5 to a row); more become select menus of 25, grouped as `menu_layout` says.
    Anything that does not fit stays reachable through `/move` and its autocomplete.
    """
    row = 0
    toggled_verbs = shown_as_toggles(toggles, rows)
    if toggled_verbs:
        row = add_toggles(view, game_id, version, toggles[0], mask)
    choices = [c for c in choices if c.action.split(" ", 1)[0] not in toggled_verbs]
    first_row = row + 1 if toggled_verbs else 0
    rows -= first_row
    fits_as_buttons = (
        len(choices) <= min(MAX_BUTTONS, rows * ROW_WIDTH)
        and all(len(move_custom_id(game_id, version, c.action)) <= CUSTOM_ID_LIMIT for c in choices)
    )
    if fits_as_buttons:
        for index, choice in enumerate(choices):
            view.put(first_row + index // ROW_WIDTH, move_button(game_id, version, choice.action, choice.label))
        return len(choices)
    fits = all(len(move_custom_id(game_id, version, c.action)) <= CUSTOM_ID_LIMIT for c in choices)
    menus, lone = menu_layout(choices, rows, lone_allowed=fits)
    for part, chunk in enumerate(menus):
        one_kind = len({_group_key(c) for c in chunk}) == 1
        placeholder = menu_placeholder(chunk) if len(menus) > 1 or one_kind else menu_prompt
        view.put(first_row + part, move_select(game_id, version, part, chunk, placeholder), width=ROW_WIDTH)
    for choice in lone:
        view.put(first_row + len(menus), move_button(game_id, version, choice.action, choice.label))
    return sum(map(len, menus)) + len(lone)


def shown_as_toggles(toggles: Sequence[Toggles], rows: int) -> frozenset[str]:
    """The verb whose actions `add_move_components` shows as toggles in `rows` rows, none of them
    as a button or menu: the first family's, if its toggles and confirm button fit (one family at
    a time fits a message; the rest stay in menus)."""
    for family in toggles[:1]:
        if -(-len(family.items) // TOGGLE_ROW_WIDTH) + 1 <= rows - 1:
            return frozenset((family.verb,))
    return frozenset()


def private_toggled(toggles: Sequence[Toggles], *, orders: bool) -> frozenset[str]:
    """`shown_as_toggles` of a `private_view` (with standing orders' toggles or without): its
    choices of these verbs need no labels."""
    return shown_as_toggles(toggles, ROWS - 1 if orders else ROWS)


def add_toggles(view: Components, game_id: int, version: int, family: Toggles, mask: int | None) -> int:
    """One toggle button per item of `family` (three to a row) from the first row, and its confirm
    button on the row under them, which it returns; `mask`: the items chosen (None: those the
    family pre-selects)."""
    if mask is None:
        mask = sum(1 << index for index, (value, _) in enumerate(family.items) if value in family.chosen)
    mark = "↻" if family.verb in DICE_VERBS else "✓"
    for index, (_value, label) in enumerate(family.items):
        view.put(index // TOGGLE_ROW_WIDTH,
                 toggle_button(game_id, version, mask, index, label, chosen=bool(mask >> index & 1), mark=mark))
    row = -(-len(family.items) // TOGGLE_ROW_WIDTH)
    chosen = [value for index, (value, _) in enumerate(family.items) if mask >> index & 1]
    if family.size is None:
        label = f"{family.confirm} ({len(chosen)})" if chosen else family.prompt
    else:
        label = family.confirm if family.complete(len(chosen)) else f"{family.prompt} ({len(chosen)}/{family.size})"
    view.put(row, move_button(game_id, version, family.action(chosen).encode() if chosen else family.verb, label,
                              style=discord.ButtonStyle.success, disabled=not family.complete(len(chosen))))
    return row


def menu_layout(choices: Sequence[Choice], rows: int, *, lone_allowed: bool = True
                ) -> tuple[list[list[Choice]], list[Choice]]:
    """Too many choices for buttons: select menus (at most `rows`, 25 options each) and maybe one
    row of buttons, so that each menu holds moves that belong together.

    Moves group by their verb and first argument ("lay Fv …": one tile, every square). A move
    alone in its group (say "end") becomes a button under the menus, if there are at most five.
    The rest get one menu per group (a group over 25 split evenly) unless one menu holds them
    and the groups are small (under five moves on average); if there are too many groups for
    the rows, groups share menus in order; failing that, menus of 25 in the engine's order
    (still with the lone buttons if there is room), and what does not fit stays reachable
    through `/move`.
    """
    if rows < 1:
        return [], []
    groups: dict[tuple[str, ...], list[Choice]] = {}
    for choice in choices:
        groups.setdefault(_group_key(choice), []).append(choice)
    lone = [group[0] for group in groups.values() if len(group) == 1]
    bundles = [group for group in groups.values() if len(group) > 1]
    if not (lone_allowed and bundles and len(lone) <= ROW_WIDTH and len(bundles) + 1 <= rows):
        lone, bundles = [], list(groups.values())
    menu_rows = rows - (1 if lone else 0)
    rest = [c for group in bundles for c in group]
    if len(rest) <= SELECT_LIMIT and (len(bundles) == 1 or len(rest) < 5 * len(bundles)):
        return [rest], lone
    pieces = [piece for group in bundles for piece in _split_evenly(group, SELECT_LIMIT)]
    if len(pieces) <= menu_rows:
        return pieces, lone
    packed: list[list[Choice]] = []
    for piece in pieces:
        if packed and len(packed[-1]) + len(piece) <= SELECT_LIMIT:
            packed[-1] = packed[-1] + piece
        else:
            packed.append(list(piece))
    if len(packed) <= menu_rows:
        return packed, lone
    plain = _chunks(rest, SELECT_LIMIT)
    if len(plain) <= menu_rows:
        return plain, lone
    return _chunks(choices, SELECT_LIMIT)[:rows], []


def _group_key(choice: Choice) -> tuple[str, ...]:
    """Moves that belong together share a verb and a first argument: "lay Fv D5", "lay Fv E5"."""
    return tuple(choice.action.split(" ")[:2])


def _chunks(choices: Sequence[Choice], size: int) -> list[list[Choice]]:
    return [list(choices[start:start + size]) for start in range(0, len(choices), size)]


def _split_evenly(group: Sequence[Choice], size: int) -> list[list[Choice]]:
    count = -(-len(group) // size)
    step = -(-len(group) // count)
    return [list(group[start:start + step]) for start in range(0, len(group), step)]


def menu_placeholder(chunk: Sequence[Choice]) -> str:
    """What a menu holds, from its first and last labels: "Lay plain+castle at G8 … K12"."""
    first, last = chunk[0].label.split(" "), chunk[-1].label.split(" ")
    same = 0
    while same < min(len(first), len(last)) - 1 and first[same] == last[same]:
        same += 1
    if len(chunk) == 1 or first == last:
        return _clip(chunk[0].label, PLACEHOLDER_LIMIT)
    return _clip(f"{' '.join(first)} … {' '.join(last[same:])}", PLACEHOLDER_LIMIT)


def board_view(game_id: int, version: int, public_choices: Sequence[Choice],
               toggles: Sequence[Toggles] = (), mask: int | None = None, *, hand: bool = True,
               hint: bool = False, lang: str = "en") -> Components | None:
    """The channel board: public move buttons (when safe to show) and, on the last row, 'My hand'
    in a game with secrets and 'Hint' at a practice table. None when there is nothing to press."""
    view = Components()
    last_row = hand or hint
    add_move_components(view, game_id, version, public_choices, rows=ROWS - 1 if last_row else ROWS,
                        toggles=toggles, mask=mask, menu_prompt=t(lang, "bot.table.choose_move"))
    if hand:
        view.put(ROWS - 1, hand_button(game_id, t(lang, "bot.table.my_hand")))
    if hint:
        view.put(ROWS - 1, hint_button(game_id, t(lang, "bot.table.hint_button")))
    return view if len(view) else None


def private_view(game_id: int, version: int, choices: Sequence[Choice],
                 toggles: Sequence[Toggles] = (), mask: int | None = None, *,
                 lang: str = "en", orders: Sequence[tuple[str, bool]] = (), offers: bool | None = None
                 ) -> Components | None:
    """A seat's private choices; `orders`: (label, on) of each kind of decision outside its turn
    the computer may answer (its standing orders), on the last row. `offers`: whether the seat
    has any move, where `choices` leaves out those its toggles show (`private_toggled`); None:
    whether `choices` holds any. None when it has neither a move nor an order."""
    if not (bool(choices) if offers is None else offers) and not orders:
        return None
    view = Components()
    add_move_components(view, game_id, version, choices, rows=ROWS - 1 if orders else ROWS, toggles=toggles,
                        mask=mask, menu_prompt=t(lang, "bot.table.choose_move"))
    for index, (label, on) in enumerate(orders):
        view.put(ROWS - 1, order_button(game_id, index, on, label))
    return view


ALL_DYNAMIC_ITEMS = (LobbyButton, HandButton, HintButton, MoveButton, MoveSelect, ToggleButton, OrderButton)
