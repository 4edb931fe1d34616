"""Looking at a game: a player's own view (`/game hand`, 'My hand'), their moves for `/move`'s
autocomplete, toggles flipped before a move, the board again (`/game board`), `/game status`,
`/game log` and `/game rules`. Nothing here changes a game."""
from __future__ import annotations

import re
import time
from typing import Any

import discord

import i18n
from bot import presenter
from bot.changes import Change, Repost
from bot.choices import (
    choices_for,
    choices_offered,
    has_secrets,
    label_names,
    public_choices,
    stored_state,
    toggles_for,
)
from bot.components import Choice, board_view, private_toggled, private_view
from bot.days.seats import ComputerSeats
from bot.days.timers import Timers
from bot.delivery.content import Content, PrivatePayload, board_url, status_line
from bot.delivery.storage import new_turn_write, strip_write
from bot.delivery.worker import Deliveries
from bot.errors import Refusal
from bot.locale import table_language
from bot.moves import Moves, seat_of
from bot.replay import replay
from bot.storage import GameRow
from bot.storage.games import language_from, language_read
from bot.store import Storage
from bot.tables import Tables
from bot.turns import Remembering
from games.core import Action, Game
from games.replay import move_is_invisible
from i18n import game_title, translate

AUTOCOMPLETE_LIMIT = 25
LOG_LINES = 15
VALUE_LIMIT = 100            # Discord's limit for an autocomplete value
MAX_TOGGLES = 25             # items one SubsetChoice may offer (a custom_id's mask has that many bits)
BOARD_INTERVAL = 60          # seconds between `/game board` posts in one channel

# An autocomplete value names the version it was offered at: "@12 trump high".
_VERSIONED = re.compile(r"@(\d{1,18}) (.+)", re.S)


def versioned_value(version: int, action: str) -> str:
    """The /move autocomplete value for `action` offered at `version` (plain if it would not fit)."""
    value = f"@{version} {action}"
    return value if len(value) <= VALUE_LIMIT else action


def split_versioned(text: str) -> tuple[int | None, str]:
    """"@12 trump high" -> (12, "trump high"); typed text without a version -> (None, text)."""
    match = _VERSIONED.fullmatch(text.strip())
    if match is None:
        return None, text
    return int(match[1]), match[2]


def rank_matches(choices: list[Choice], typed: str) -> list[Choice]:
    """Choices whose label or action text contains every typed word; those naming a typed word
    exactly ("c1" the square, not C10-C18) come first, otherwise in the engine's order."""
    words = typed.lower().split()
    matches = [c for c in choices if all(w in c.label.lower() or w in c.action.lower() for w in words)]

    def exact_words(choice: Choice) -> int:
        tokens = set(choice.label.lower().replace(",", " ").split()) | set(choice.action.lower().split())
        return sum(word in tokens for word in words)

    return sorted(matches, key=exact_words, reverse=True)  # stable: ties keep the engine's order


class Info:
    def __init__(self, storage: Storage, moves: Moves, tables: Tables, content: Content, deliveries: Deliveries,
                 seats: ComputerSeats, timers: Timers) -> None:
        self.storage = storage
        self.moves = moves
        self.tables = tables
        self.content = content
        self.deliveries = deliveries
        self.seats = seats
        self.timers = timers
        self.board_posted_at: dict[int, float] = {}  # channel id -> monotonic time of /game board

    # ---------------------------------------------------------------- private views

    async def hand(self, user: discord.abc.User, *, game_id: int) -> PrivatePayload:
        table = await self.moves.table(game_id)
        seat = seat_of(table, user)
        await self.seats.check_person(table, seat)  # a resigned player sees the seat no more
        game = self.moves.engine(table.game)
        return await self.content.private_payload(table, game, stored_state(game, table), seat)

    async def show_hand(self, interaction: discord.Interaction, *, game_id: int) -> None:
        """Answer (already deferred, ephemeral) with the user's private view and moves."""
        payload = await self.hand(interaction.user, game_id=game_id)
        kwargs: dict[str, Any] = {"ephemeral": True}
        if payload.file is not None:
            kwargs["file"] = payload.file
        if payload.view is not None:
            kwargs["view"] = payload.view
        await interaction.followup.send(payload.content, **kwargs)

    async def move_choices(self, channel_id: int, user_id: int, typed: str) -> list[Choice]:
        """The caller's legal moves matching what they typed (for autocomplete)."""
        table = await self.storage.games.open_game_in(channel_id)
        if table is None or table.status != "active":
            return []
        seat = table.seat_of(user_id)
        if seat is None:
            return []
        game = self.moves.engine(table.game)
        state = stored_state(game, table)
        return rank_matches(choices_for(game, state, seat, label_names(table), table_language(table)),
                            typed)[:AUTOCOMPLETE_LIMIT]

    async def move_suggestions(self, channel_id: int, user_id: int, typed: str) -> list[tuple[str, str]]:
        """(label, value) pairs for /move's autocomplete; each value names the version it was
        offered at, so a retry after the game moved on is judged like an old button."""
        table = await self.storage.games.open_game_in(channel_id)
        if table is None or table.status != "active":
            return []
        return [(c.label, versioned_value(table.version, c.action))
                for c in await self.move_choices(channel_id, user_id, typed[:VALUE_LIMIT])]

    async def toggled_view(self, user: discord.abc.User, *, game_id: int, seen_version: int, mask: int,
                           on_board: bool) -> discord.ui.View | None:
        """The same components with other items chosen (a die toggled); nothing is stored."""
        if not 0 <= mask < 2**MAX_TOGGLES:
            raise Refusal.of("bot.errors.bad_choice")
        # The game with its seats' rows and the tapper's language (a DM's words are in it): one read.
        snapshot, (language,) = await self.moves.snapshot_with(game_id, [language_read(user.id)])
        table = snapshot.table
        seat = seat_of(table, user)
        await self.seats.gate(snapshot, seat)  # a resigned player sees the seat no more
        game = self.moves.engine(table.game)
        state = stored_state(game, table)
        # Others' moves in a simultaneous choice bump the version but leave this seat's toggles
        # as they were: judged like a click on a move button.
        if seen_version != table.version and not await self.moves.decision_unchanged(table, game, seat, seen_version):
            raise presenter.stale_refusal(board_url(table))
        if seat not in game.to_act(state):
            raise Refusal.of("bot.errors.only_player_to_act", players=presenter.waiting_for(table, game.to_act(state)))
        names = label_names(table)
        # (`Content.private_language` of the seat: the tapper holds it, `seat_of`.)
        lang = table_language(table) if on_board else language_from(language, table_language(table))
        game = Remembering(game, (state,))  # its choices in words are kept by the state's stored form's digest
        game.known_fingerprint(state, table.state_digest)
        if on_board:
            return board_view(table.id, table.version, public_choices(game, state, len(table.players), names, lang),
                              toggles_for(game, state, seat, names, lang), mask,
                              hand=has_secrets(game, state, len(table.players)),
                              hint=await self.content.hint_offered(table), lang=lang)
        toggles = toggles_for(game, state, seat, names, lang)
        choices, offers = choices_offered(game, state, seat, names, lang, private_toggled(toggles, orders=False))
        return private_view(table.id, table.version, choices, toggles, mask, lang=lang, offers=offers)

    # ------------------------------------------------------------------------ boards

    async def repost_board(self, channel_id: int, user: discord.abc.User | None = None) -> bool:
        """Post the current board again (without pinging anyone), for a player at most once a
        minute per channel. False, with nothing posted, when `user` does not play here (they
        get the board ephemerally: `spectator_board`), so no one else can flood the channel."""
        table = await self.tables.active_table_in(channel_id)
        if user is not None and not table.has_player(user.id):
            return False
        now = time.monotonic()

        async def make(table: GameRow, game: Game) -> Change:
            last = self.board_posted_at.get(channel_id)
            if user is not None and last is not None and now - last < BOARD_INTERVAL and not table.board_owed:
                raise Refusal.of("bot.errors.board_too_soon", when=presenter.timestamp(int(time.time() - (now - last))),
                                 link=board_url(table) or "-", seconds=int(BOARD_INTERVAL - (now - last)) + 1)
            writes = [new_turn_write(table.id, lines=[], pings=[], whole=True)]
            if table.board_message_id is not None:
                writes.append(strip_write(table.id, table.board_message_id))
            return Repost(table=table, game=game, writes=tuple(writes))

        await self.moves.change(table.id, make)
        self.board_posted_at[channel_id] = now
        return True

    async def spectator_board(self, channel_id: int) -> tuple[str, discord.File | None]:
        """The current public board as an ephemeral answer: its text and image, no buttons."""
        table = await self.tables.active_table_in(channel_id)
        game = self.moves.engine(table.game)
        state = game.from_dict(table.started_state)
        footer, _ = self.content.footer(table, game, state, await self.timers.deadline_line(table))
        content = presenter.board_text([], status_line(table, game, state), footer)
        # The whole board, where a game shows only the part where the decision is.
        return content, await self.content.image(dict(game.view(state, None), landscape="whole"), table.names,
                                                 "board.png", table_language(table))

    # -------------------------------------------------------------------------- texts

    async def status_text(self, channel_id: int, lang: str = "en") -> str:
        """`/game status`, answered to one user in their language."""
        table = await self.tables.open_table_in(channel_id)
        game = self.moves.engine(table.game)
        if table.status == "lobby":
            return presenter.lobby_text(table, game)
        state = game.from_dict(table.started_state)
        to_act = game.to_act(state)
        moves, last_at = await self._public_moves(table, game)
        seats = []
        for player, name in zip(table.players, presenter.bold_names(table.names)):
            notes = []
            if player.seat in to_act:
                notes.append(i18n.t(lang, "bot.table.status_to_act"))
            if player.dm_ok is False:
                notes.append(i18n.t(lang, "bot.table.status_dms_closed"))
            seats.append(f"{player.seated + 1}. {name}" + (f" ({', '.join(notes)})" if notes else ""))
        lines = [
            i18n.t(lang, "bot.table.status_title", game=game_title(game), id=table.id, moves=moves,
                   when=presenter.timestamp(last_at or table.updated_at)),
            i18n.t(lang, "bot.table.status_seats", seats=" · ".join(seats)),
            presenter.named(game.view(state, None)["status"], table, lang),
            *await self.timers.status_lines(table, lang),  # deadlines, absences, computer seats
        ]
        if (url := board_url(table)) is not None:
            lines.append(i18n.t(lang, "bot.table.latest_board", link=url))
        return presenter.clip("\n".join(lines))

    async def _public_moves(self, table: GameRow, game) -> tuple[int, int | None]:
        """How many moves the channel has seen, and when the last of them was made: a secret
        preparation (a document armed during the secret choice) counts for neither."""
        actions = await self.storage.games.actions(table.id)
        states, moves = replay(game, table, actions)
        seen = [move for index, move in enumerate(moves)
                if not move_is_invisible(game, states[index], states[index + 1], move.events)]
        return len(seen), (seen[-1].row.at if seen else None)

    async def log_text(self, channel_id: int, lang: str = "en") -> str:
        """`/game log`: the channel's recent public events, answered to one user in their language."""
        table = await self.storage.games.open_game_in(channel_id) or await self.storage.games.latest_game_in(channel_id)
        if table is None or table.seed is None:  # (an archived game keeps its seed and log, not its state)
            raise Refusal.of("bot.errors.no_moves_yet")
        game = self.moves.engine(table.game)
        actions = await self.storage.games.actions(table.id)
        if not actions:
            return i18n.t(lang, "bot.table.log_empty", game=game_title(game), id=table.id)
        states, moves = replay(game, table, actions)
        # A secret preparation (a document armed during the secret choice) leaves no trace.
        seen = [move for index, move in enumerate(moves)
                if not move_is_invisible(game, states[index], states[index + 1], move.events)]
        lines = [i18n.t(lang, "bot.table.log_title", game=game_title(game), id=table.id)]
        index_of = {id(move): index for index, move in enumerate(moves)}
        for move in seen[-LOG_LINES:]:
            # Only public events, as the channel saw them: the log must not reveal what a seat
            # chose in secret (a `describe` label only for a choice made in public).
            index = index_of[id(move)]
            action = None if move.row.action.startswith("~") else Action.parse(move.row.action)
            said = presenter.sentences(presenter.public_event_lines(move.events, table, lang)) or \
                presenter.made_a_move(table, move.row.seat, lang, game, states[index], states[index + 1], action)
            lines.append(f"`#{move.row.version}` {presenter.timestamp(move.row.at)} {said}")
        return presenter.clip("\n".join(lines))

    async def rules_text(self, channel_id: int | None, game_name: str | None, lang: str = "en") -> str:
        """`/game rules`: a game's summary and table options, answered to one user in their language
        (by default of the game in the channel it was asked in, if any)."""
        if game_name is None:
            table = None if channel_id is None else await self.storage.games.open_game_in(channel_id)
            if table is None:
                raise Refusal.of("bot.errors.rules_which_game")
            game_name = table.game
        game = self.moves.engine(game_name)
        lines = [i18n.t(lang, "bot.table.rules_title", game=game_title(game), players=presenter.player_range(game)),
                 translate(game.rules_summary, lang)]
        if game.options:
            lines.append(i18n.t(lang, "bot.table.rules_options"))
            lines += [i18n.t(lang, "bot.table.rules_option", name=o.name, description=translate(o.description, lang),
                             choices=", ".join(o.choices), default=o.default)
                      for o in game.options]
        return presenter.clip("\n".join(lines))
