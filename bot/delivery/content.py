"""What a delivery shows, built from the game as stored: the board message (its text, image,
alt text and buttons) and each seat's private view (a DM or 'My hand').

Nothing here talks to Discord; the worker sends what these build. Images are drawn off the event
loop by one thread, in turn: a board takes some 10-20 ms, so one thread draws 50 or more a
second, and more threads would not draw faster on a small VPS's one core, while each keeps
memory of its own (bench/memory.py: 1,000 games in some 146 MiB with one drawing thread, 152
with two, 156 with asyncio's default six).
"""
from __future__ import annotations

import asyncio
import io
import logging
import marshal
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import discord

from bot import presenter
from bot.choices import choices_offered, has_secrets, label_names, public_choices, seat_secrets, toggles_for
from bot.components import Choice, board_view, private_toggled, private_view
from bot.locale import table_language
from bot.records import running_scores
from bot.storage import GameRow
from bot.storage.database import Write
from bot.storage.games import languages_from
from bot.storage.rows import is_computer_user
from bot.store import Storage
from games.core import Game, msg
from i18n import game_title, join_list, t, translate
from renderers import hand_alone, private_shown

log = logging.getLogger(__name__)

DRAWING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="draw")

Renderer = Callable[..., bytes]
"""`(view, names[, lang]) -> PNG bytes`, optionally with `.many(views, names, lang)` for several
seats' views of one state (the board they share drawn once)."""

Images = dict[tuple[int | None, str], bytes]
"""Drawn PNGs by (seat, language); seat None is the public board."""

StandingOrders = Mapping[int, frozenset[str]]
"""Seat -> the kinds of decision the computer answers for it (bot.days.orders)."""


@dataclass(frozen=True)
class PrivatePayload:
    content: str
    file: discord.File | None
    view: discord.ui.View | None
    done: str = ""  # the same DM once its decision is over: no status, no call to move
    moves: bool = False  # it offers moves (not only standing orders' toggles)
    picture: int | None = None  # what its picture shows (`picture_key`: the seat's view); None: no picture
    picture_kept: bool = False  # the picture is the one the DM shows already: `file` is None, nothing drawn
    picture_left: bool = False  # not drawn: the caller sends its words alone (`with_picture`); `file` is None
    buttons: int = 0  # its components, the version left out (`buttons_key`)
    toggles: bool = False  # it offers toggles (items chosen by taps that live only in the message)
    alone: bool = False  # its picture (if any) shows none of the table: the seat's own things alone, or nothing

    def closed(self) -> dict[str, Any]:
        """What the edit of a DM whose decision is over changes besides its words: a table in its
        picture would go stale there, so the seat's own things alone take its place (or no
        picture, with nothing of its own to show), where its game draws them so (`private_payload`
        draws them even for a DM's done text, which it otherwise leaves undrawn)."""
        if not self.alone or self.picture_kept:
            return {}
        return {"attachments": [self.file] if self.file is not None else []}


def picture_key(view: dict[str, Any], public: dict[str, Any], lang: str, names: Sequence[str]) -> int | None:
    """What a seat's DM picture shows: the seat's view (its own part and the table around it, in
    its language), or None when its DM has no picture (nothing private to show). An edit of the
    DM draws its picture again only when this changed, so the table it shows (who is still
    choosing, who must discard) is never older than the DM's words.

    Worked out once for the same view objects (`PICTURE_KEYS_KEPT`): a delivery pass asks it of
    each seat's view when it draws the pictures and again when it builds the DMs, and views are
    never changed once made (a pass shares them: `bot.turns.Remembering`)."""
    names = tuple(names)
    kept = _picture_keys.get(id(view))
    if kept is not None and kept[0] is view and kept[1] is public and kept[2] == lang and kept[3] == names:
        return kept[4]
    key = value_key((view, lang, names)) if has_picture(view, public) else None
    # Held with the key, so that no other view takes its id while it is kept.
    _picture_keys[id(view)] = (view, public, lang, names, key)
    if len(_picture_keys) > PICTURE_KEYS_KEPT:
        del _picture_keys[next(iter(_picture_keys))]
    return key


def value_key(value: Any) -> int:
    """A hash of a view-like value (dicts, lists, tuples, strings, numbers) by its types and
    contents, as `hash(repr(value))` is, in a third of its time: marshal's format 2 writes each
    value whole (no references to objects written before, no mark of an interned string), so
    equal values give the same bytes however they share their parts. A value marshal cannot
    write is keyed by its repr."""
    try:
        return hash(marshal.dumps(value, 2))
    except ValueError:
        return hash(repr(value))


PICTURE_KEYS_KEPT = 64
"""Views whose `picture_key` is kept: those of the last few passes (a table's seats each)."""
_picture_keys: dict[int, tuple[dict[str, Any], dict[str, Any], str, tuple[str, ...], int | None]] = {}


def has_picture(view: dict[str, Any], public: dict[str, Any]) -> bool:
    """Whether a seat's DM carries a picture: only when it shows something of the seat's own
    (the public board is in the channel)."""
    return bool(seat_secrets(view, public)) and private_shown(view)


def buttons_key(view: discord.ui.View | None) -> int:
    """A DM's components, the version in their custom_ids left out: equal keys offer the same
    decision (what is chosen by taps aside)."""
    if view is None:
        return 0
    return hash(tuple((row, _unversioned(item.get("custom_id", "")), item.get("label"), item.get("style"),
                       item.get("disabled"), item.get("placeholder"),
                       tuple((option["value"], option["label"]) for option in item.get("options", ())))
                      for row, components in enumerate(view.to_components()) for item in components["components"]))


def _unversioned(custom_id: str) -> str:
    """A custom_id with the game's version left out, where it names one (moves, menus, toggles)."""
    if custom_id.startswith(VERSIONED):
        kind, game, _version, rest = custom_id[3:].split(":", 3)
        return f"rk:{kind}:{game}:{rest}"
    return custom_id


VERSIONED = ("rk:move:", "rk:pick:", "rk:tog:")  # custom_ids whose third part is the game's version


def channel_url(table: GameRow) -> str:
    return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}"


def board_url(table: GameRow) -> str | None:
    if table.board_message_id is None:
        return None
    return f"{channel_url(table)}/{table.board_message_id}"


def status_line(table: GameRow, game: Game, state: Any) -> str:
    return presenter.status_in_message(game.view(state, None)["status"], table, table_language(table))


@dataclass(frozen=True)
class BoardFacts:
    """What a board's message asks of the store besides the game (bot.days), read with it."""

    deadline_line: str  # the waiting seats' deadlines for its footer (empty without)
    hint: bool  # it carries a Hint button (a practice table's)


class Content:
    """Builds boards and private views (see the module's docstring).

    `deadline_line(table) -> str`: the waiting seats' deadlines for a board's footer (bot.days);
    `hint_offered(table) -> bool`: whether a board carries a Hint button (practice tables);
    `board_read(game id)`, `board_from(table, their rows)`: the same two (`BoardFacts`) as reads
    to read with the game at once (a delivery pass's);
    `seats_left(table) -> frozenset[int]`: the seats whose players resigned and hear nothing more
    (`left_read(game id)`, `left_from(its rows)`: the same read with others, a delivery pass's);
    `standing_orders(table, seat) -> frozenset[str]`: the kinds the computer answers for the seat
    (`orders_read(game id)`, `orders_from(its rows)`: every seat's, read with others, a delivery pass's);
    `turn_recap(table, people, lines) -> str`: what a turn message says first to whom it calls, in at
    most `lines` lines of a phone, its heading included (bot.league).
    """

    def __init__(self, client: discord.Client, storage: Storage, render: Renderer, *,
                 deadline_line: Callable[[GameRow], Awaitable[str]],
                 hint_offered: Callable[[GameRow], Awaitable[bool]],
                 board_read: Callable[[int], Sequence[Write]],
                 board_from: Callable[[GameRow, Sequence[list[Any]]], BoardFacts],
                 seats_left: Callable[[GameRow], Awaitable[frozenset[int]]],
                 left_read: Callable[[int], Write], left_from: Callable[[list[Any]], frozenset[int]],
                 standing_orders: Callable[[GameRow, int], Awaitable[frozenset[str]]],
                 orders_read: Callable[[int], Write],
                 orders_from: Callable[[list[Any]], StandingOrders],
                 turn_recap: Callable[[GameRow, Sequence[int], int], Awaitable[str]]) -> None:
        self.client = client
        self.storage = storage
        self.render = render
        self.deadline_line = deadline_line
        self.hint_offered = hint_offered
        self.board_read = board_read
        self.board_from = board_from
        self.seats_left = seats_left
        self.left_read = left_read
        self.left_from = left_from
        self.standing_orders = standing_orders
        self.orders_read = orders_read
        self.orders_from = orders_from
        self.turn_recap = turn_recap

    # ------------------------------------------------------------------------- images

    async def image(self, view: dict[str, Any], names: list[str], filename: str, lang: str = "en",
                    description: str | None = None, *, drawn: bytes | None = None) -> discord.File | None:
        """The rendered view, with its alt text, or None if the renderer fails: a move is never
        lost to a drawing bug. `drawn`: this very view's PNG, if already drawn (`images_of`)."""
        arguments = (view, names) if lang == "en" else (view, names, lang)
        try:
            png = drawn if drawn is not None else \
                await asyncio.get_running_loop().run_in_executor(DRAWING, self.render, *arguments)
        except Exception:
            log.exception("Rendering %s failed; posting without an image", view.get("game"))
            return None
        return discord.File(io.BytesIO(png), filename=filename, description=description)

    async def images_of(self, table: GameRow, game: Game, state: Any, seats: Sequence[int], *,
                        board: bool = False, shown: dict[int, int | None] | None = None,
                        langs: dict[int, str] | None = None) -> Images:
        """The DM images of `state` for `seats`, drawn together where the renderer can (`many`:
        the board they share is drawn and compressed once), by (seat, language). Each is drawn
        from that seat's own view and goes only into that seat's DM of this very state.
        `board`: the public board in the table's language is drawn with them, under (None, lang),
        when a DM image is drawn in that language (a renderer may share the board's drawing).
        `shown`: the `picture_key` each seat's open DM shows; a seat whose picture stays is not
        drawn. `langs`: the seats' languages read already, filled with those read here, by seat
        (for `private_payload`)."""
        many = getattr(self.render, "many", None)
        if many is None or len(seats) < (1 if board else 2):
            return {}
        public = game.view(state, None)
        by_language: dict[str, list[tuple[int | None, dict[str, Any]]]] = {}
        for seat in seats:
            view = game.view(state, seat)
            if seat_secrets(view, public) and private_shown(view):
                lang = langs[seat] if langs is not None and seat in langs else await self.private_language(table, seat)
                if langs is not None:
                    langs[seat] = lang
                if shown and seat in shown and shown[seat] == picture_key(view, public, lang, table.names):
                    continue
                by_language.setdefault(lang, []).append((seat, view))
        if board and table_language(table) in by_language:
            by_language[table_language(table)].insert(0, (None, public))
        images: Images = {}
        for lang, entries in by_language.items():
            if len(entries) < 2:
                continue
            try:
                pngs = await asyncio.get_running_loop().run_in_executor(
                    DRAWING, many, [view for _, view in entries], table.names, lang)
            except Exception:
                log.exception("Rendering %s's DM images failed; drawing them one by one", game.name)
                continue
            images.update({(seat, lang): png for (seat, _), png in zip(entries, pngs)})
        return images

    # -------------------------------------------------------------------------- board

    def footer(self, table: GameRow, game: Game, state: Any, deadlines: str = "") -> tuple[str, list[int]]:
        """'Your move' with mentions of who must act (and their deadlines), or the outcome; and
        the people it would ping."""
        outcome = game.outcome(state)
        if outcome is not None:
            return presenter.outcome_text(outcome, table, table_language(table), game), []
        to_act = sorted(game.to_act(state))
        lang = table_language(table)
        line = presenter.next_move_line(table, to_act, lang, presenter.dm_tasks(game, state, to_act, lang),
                                        game.view(state, None)["status"])
        line = "\n".join(part for part in (line, deadlines) if part)
        return line, [user for user in (table.player_at(seat).user_id for seat in to_act) if not is_computer_user(user)]

    def components(self, table: GameRow, game: Game, state: Any, *, hint: bool = False,
                   choices: Sequence[Choice] | None = None) -> discord.ui.View | None:
        if table.status != "active":
            return None
        lang = table_language(table)
        names = label_names(table)
        if choices is None:
            choices = public_choices(game, state, len(table.players), names, lang)
        # Public choices exist only when exactly one seat acts; its toggles go with them.
        toggles = toggles_for(game, state, min(game.to_act(state)), names, lang) if choices else []
        return board_view(table.id, table.version, choices, toggles,
                          hand=has_secrets(game, state, len(table.players)), hint=hint, lang=lang)

    @staticmethod
    def alt_text(table: GameRow, game: Game, state: Any, said: str) -> str:
        """The board's alt text, from public things only: the scores and what the message says."""
        try:
            scores = running_scores(game, state)
        except Exception:  # noqa: BLE001 - a description must never cost a board
            scores = None
        return presenter.alt_text(table, game, scores, said, table_language(table))

    # ------------------------------------------------------------------ private views

    async def private_language(self, table: GameRow, seat: int) -> str:
        return await self.storage.games.language_of_user(table.player_at(seat).user_id, table_language(table))

    async def private_languages(self, table: GameRow, seats: Sequence[int]) -> dict[int, str]:
        """`private_language` of each of `seats`, in one read."""
        users = {seat: table.player_at(seat).user_id for seat in seats}
        langs = await self.storage.games.languages_of_users(sorted(set(users.values())), table_language(table))
        return {seat: langs[user] for seat, user in users.items()}

    @staticmethod
    def private_languages_from(table: GameRow, seats: Sequence[int], rows: list[Any]) -> dict[int, str]:
        """`private_languages`, from the rows of `languages_read` read with the table (a delivery
        pass's DMs)."""
        users = {seat: table.player_at(seat).user_id for seat in seats}
        langs = languages_from(rows, set(users.values()), table_language(table))
        return {seat: langs[user] for seat, user in users.items()}

    async def private_payload(self, table: GameRow, game: Game, state: Any, seat: int,
                              lines: Sequence[Any] = (), *, drawn: Images | None = None,
                              shown: int | None = None, lang: str | None = None,
                              with_picture: bool = True,
                              orders: StandingOrders | None = None) -> PrivatePayload:
        """A seat's private view for a DM or 'My hand', in its player's language (that of their last
        interaction with the bot; the table's until then). `lines`: engine texts to add; `drawn`: DM images
        of this state already drawn (`images_of`); `shown`: the `picture_key` the DM shows now, if known:
        none is drawn while it stays (`picture_kept`); `lang`: the player's language, if read already;
        `with_picture` False: a view offering no move goes out as words alone (a DM's done text), undrawn;
        `orders`: the seats' standing orders, if read already (`orders_read`)."""
        lang = lang or await self.private_language(table, seat)
        lines = [presenter.named(text, table, lang) for text in lines]
        guild = self.client.get_guild(table.guild_id)
        channel = self.client.get_channel(table.channel_id)
        header = presenter.dm_header(
            table, game,
            guild_name=guild.name if guild else f"server {table.guild_id}",
            channel_name=getattr(channel, "name", None) or str(table.channel_id),
            jump_url=channel_url(table), lang=lang,
        )
        view = game.view(state, seat)
        may_act = table.status == "active" and seat in game.to_act(state)
        components, offers, toggles, given = await self._private_components(table, game, state, seat, lang, may_act,
                                                                            standing=orders)
        secrets = (view.get("private") or {}).get("summary")
        secrets_said = presenter.named(secrets, table, lang) if secrets else ""  # in its words and its picture's
        said = [*lines, *([secrets_said] if secrets else [])]
        if given:  # only this player sees their standing orders
            said.append(t(lang, "bot.days.orders_list", kinds=join_list(
                [translate(msg(kind), lang) for kind in game.features.reactions if kind in given], lang)))
        # The table's status only while the DM offers a move (bot.turns keeps it current until then);
        # otherwise the DM leaves the table to the channel, where it stays current.
        status = presenter.named(view["status"], table, lang) if offers else ""
        content = presenter.private_text(header, said, status, may_act, components is not None, lang)
        # An image only when it shows something private: the public board is in the channel.
        picture = picture_key(view, game.view(state, None), lang, table.names)
        kept = picture is not None and picture == shown
        left = picture is not None and not kept and not with_picture and not offers and not hand_alone(view)
        file = None
        if picture is not None and not kept and not left:
            # A picture of the seat's cards alone is described by them alone; one with the table
            # around them, by the table's status as the DM's words have it (while it is kept current).
            description = presenter.clip(" ".join(part for part in (
                t(lang, "bot.table.alt_title", game=game_title(game), id=table.id),
                secrets_said,
                "" if hand_alone(view) else status) if part).replace("**", ""), presenter.ALT_TEXT_LIMIT)
            file = await self.image(view, table.names, "hand.png", lang, description,
                                    drawn=(drawn or {}).get((seat, lang)))
            if file is None:
                picture = None  # not drawn (a drawing bug): drawn again next time
        done = presenter.private_text(header, said, t(lang, "bot.table.dm_done"), False, False, lang)
        return PrivatePayload(content, file, components, done, moves=offers, picture=picture, picture_kept=kept,
                              picture_left=left, buttons=buttons_key(components), toggles=toggles,
                              alone=picture is None or hand_alone(view))

    async def _private_components(self, table: GameRow, game: Game, state: Any, seat: int, lang: str,
                                  may_act: bool, standing: StandingOrders | None = None,
                                  ) -> tuple[discord.ui.View | None, bool, bool, frozenset[str]]:
        """A seat's private components in `lang`; whether it has any move, whether it has toggles
        (`may_act`: it must act now), and the kinds of decision its standing orders answer.

        A seat the game does not wait for may still have optional moves ("Change my choice"). The
        actions its toggles show are left out of its choices undescribed (never shown as buttons),
        not out of whether it has any."""
        active = table.status == "active"
        names = label_names(table)
        toggles = toggles_for(game, state, seat, names, lang) if may_act else []
        if not (active and game.features.reactions):
            given: frozenset[str] = frozenset()
        else:
            given = standing.get(seat, frozenset()) if standing is not None else await self.standing_orders(table, seat)
        orders = [(t(lang, "bot.days.order_button_on" if kind in given else "bot.days.order_button_off",
                     kind=translate(msg(kind), lang)), kind in given)
                  for kind in game.features.reactions] if active else []
        toggled = private_toggled(toggles, orders=bool(orders))
        choices, offers = choices_offered(game, state, seat, names, lang, toggled) if active else ([], False)
        components = private_view(table.id, table.version, choices, toggles, lang=lang, orders=orders, offers=offers)
        return components, offers, bool(toggles), given

