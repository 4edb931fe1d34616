"""The tables: every request on a game goes through here, whatever button or command it came from.

Data flows one way: (user, request) -> seat and action -> engine -> store (one transaction) ->
announcer. A per-game `asyncio.Lock` serialises everything done to one game (so two clicks
cannot both apply to the same version); different games never wait for each other.
Refusals raise `Refusal` (or the engine's `GameError`) before anything is stored.
"""
from __future__ import annotations

import asyncio
import logging
import random
from collections import defaultdict
from typing import TYPE_CHECKING, Any, Mapping

import discord

from i18n import translate
from games.core import Action, Game

from bot import presenter
from bot.announce import (Announcer, PrivatePayload, choices_for, has_secrets, label_names, outcome_record,
                          public_choices, toggles_for)
from bot.locale import table_language
from bot.components import Choice, board_view, lobby_view, private_view
from bot.days import split_options as days_options
from bot.errors import Refusal
from bot.replay import decision_still_open, replay
from bot.storage import ChannelBusy, GameRow, StaleVersion, Storage

if TYPE_CHECKING:
    from bot.app import GameBot

log = logging.getLogger(__name__)

AUTOCOMPLETE_LIMIT = 25
LOG_LINES = 15


def rank_matches(choices: list[Choice], typed: str) -> list[Choice]:
    """Choices whose label or action text contains every typed word; those naming a typed word
    exactly ("c1" the square, not C10-C18) come first, otherwise in the engine's order."""
    words = typed.lower().split()
    matches = [c for c in choices if all(w in c.label.lower() or w in c.action.lower() for w in words)]

    def exact_words(choice: Choice) -> int:
        tokens = set(choice.label.lower().replace(",", " ").split()) | set(choice.action.lower().split())
        return sum(word in tokens for word in words)

    return sorted(matches, key=exact_words, reverse=True)  # stable: ties keep the engine's order


class GameService:
    def __init__(self, bot: "GameBot", storage: Storage, games: Mapping[str, Game],
                 seed_source: random.Random, announcer: Announcer) -> None:
        self.bot = bot
        self.storage = storage
        self.games = games
        self.seed_source = seed_source
        self.announcer = announcer
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks[game_id]

    # ------------------------------------------------------------------------ lookups

    def engine(self, name: str) -> Game:
        try:
            return self.games[name]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "none"
            raise Refusal(f"I do not know a game called `{name}`. Games I can host: {known}.") from None

    async def table(self, game_id: int) -> GameRow:
        table = await self.storage.get_game(game_id)
        if table is None:
            raise Refusal("I cannot find that game any more.")
        return table

    async def open_table_in(self, channel_id: int) -> GameRow:
        table = await self.storage.open_game_in(channel_id)
        if table is not None:
            return table
        last = await self.storage.latest_game_in(channel_id)
        if last is None:
            raise Refusal("There is no game in this channel. Start one with `/game new`.")
        raise Refusal(f"The last game here (game #{last.id}) is {last.status}; start a new one with `/game new`.")

    async def active_table_in(self, channel_id: int) -> GameRow:
        table = await self.open_table_in(channel_id)
        if table.status == "lobby":
            raise Refusal("The game here has not started yet: the host presses **Start** in the lobby.")
        return table

    def game_titles(self) -> list[tuple[str, str]]:
        return sorted((game.title, name) for name, game in self.games.items())

    # -------------------------------------------------------------------------- lobby

    def lobby_text(self, table: GameRow) -> str:
        return presenter.lobby_text(table, self.engine(table.game))

    async def open_lobby(self, channel: discord.abc.Messageable, *, guild_id: int, channel_id: int,
                         host: discord.abc.User, game_name: str, options_text: str | None,
                         lang: str = "en") -> GameRow:
        game = self.engine(game_name)
        options_text, day_options = days_options(options_text)  # bot.days: deadline=, timeout=, reminder=
        options = parse_options(game, options_text)
        existing = await self.storage.open_game_in(channel_id)
        if existing is not None:
            raise Refusal(
                f"This channel already has a game ({self.engine(existing.game).title}, game #{existing.id}, "
                f"{existing.status}). Finish or `/game abandon` it, or open a thread and start another there."
            )
        try:
            table = await self.storage.create_lobby(guild_id=guild_id, channel_id=channel_id, game=game.name,
                                                    host_id=host.id, host_name=host.display_name, options=options,
                                                    lang=lang)
        except ChannelBusy:
            raise Refusal("A game was just opened in this channel; join that one or open a thread.") from None
        await self.storage.days_set_table(table.id, **day_options)  # bot.days
        message = await channel.send(presenter.lobby_text(table, game), view=lobby_view(table.id, table.lang),
                                     allowed_mentions=discord.AllowedMentions.none())
        await self.storage.set_lobby_message(table.id, message.id)
        return table

    async def join(self, game_id: int, user: discord.abc.User) -> GameRow:
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            game = self.engine(table.game)
            if table.has_player(user.id):
                raise Refusal("You are already at this table. Wait for the host to press **Start**.")
            if len(table.players) >= game.max_players:
                raise Refusal(f"This table is full ({game.max_players} players). Open a thread and start another game.")
            await self.storage.add_player(game_id, user.id, user.display_name)
            return await self.table(game_id)

    async def leave(self, game_id: int, user: discord.abc.User) -> GameRow:
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            if not table.has_player(user.id):
                raise Refusal("You are not at this table; press **Join** to take a seat.")
            remaining = [p for p in table.players if p.user_id != user.id]
            if not remaining:
                await self.storage.end_game(game_id, status="abandoned", result={"reason": "Everyone left the lobby."})
            else:
                # The host leaving hands the table to the longest-waiting player.
                new_host = remaining[0].user_id if user.id == table.host_id else None
                await self.storage.remove_player(game_id, user.id, new_host_id=new_host)
            return await self.table(game_id)

    async def start(self, game_id: int, user: discord.abc.User) -> GameRow:
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            game = self.engine(table.game)
            if user.id != table.host_id:
                raise Refusal(f"Only the host ({presenter.mention(table.host_id)}) can start this game.")
            count = len(table.players)
            if count < game.min_players:
                raise Refusal(f"{game.title} needs at least {game.min_players} players; {count} seated so far. "
                              "Others join with the **Join** button.")
            if count > game.max_players:
                raise Refusal(f"{game.title} takes at most {game.max_players} players; {count} are seated.")
            # Seat order and seed are the bot's randomness (SystemRandom in production).
            order = [player.user_id for player in table.players]
            self.seed_source.shuffle(order)
            seed = self.seed_source.getrandbits(63)
            state = game.new_game(count, seed=seed, options=table.options)
            await self.storage.start_game(game_id, seat_order=order, seed=seed, state=game.to_dict(state))
            table = await self.table(game_id)
            await self.bot.days.after_change(table, game, state)  # bot.days: timers
            await self.announcer.game_started(table, game, state)
            return await self.table(game_id)

    async def _lobby(self, game_id: int) -> GameRow:
        table = await self.table(game_id)
        if table.status != "lobby":
            raise Refusal("This table is not open any more" +
                          (" — the game has started." if table.status == "active" else "."))
        return table

    # --------------------------------------------------------------------------- play

    async def play(self, user: discord.abc.User, *, game_id: int, action_text: str,
                   seen_version: int | None = None) -> Choice:
        """Apply one move for `user`. `seen_version` is the state version a button was made for."""
        async with self.lock(game_id):
            table = await self.table(game_id)
            game = self.engine(table.game)
            seat = self._seat(table, user)
            state = game.from_dict(table.state)
            if seen_version is not None and seen_version != table.version:
                if not await self._decision_unchanged(table, game, seat, seen_version):
                    raise Refusal(presenter.stale_text(table, self.announcer.board_url(table)))
            await self.bot.days.check_person(table, seat)  # bot.days: a resigned seat is the computer's
            action = resolve_action(game, state, seat, action_text, label_names(table), table_language(table))
            to_act = game.to_act(state)
            if seat not in to_act:
                raise Refusal(f"It is not your turn — waiting for {presenter.waiting_for(table, to_act)}.")
            if action not in game.legal_actions(state, seat):
                raise Refusal(f"`{discord.utils.escape_markdown(action_text.strip())[:80]}` is not a legal move now. "
                              "Pick one from `/move` (it lists your moves) or use the buttons.")
            choice = Choice(action.encode(), translate(game.describe(state, seat, action), table_language(table),
                                                       label_names(table)))
            after, events = game.apply(state, seat, action)
            outcome = game.outcome(after)
            try:
                await self.storage.record_move(
                    game_id, expected_version=table.version, seat=seat, action=action.encode(),
                    state=game.to_dict(after), finished_result=outcome_record(outcome) if outcome else None,
                )
            except StaleVersion:
                raise Refusal("Someone moved at the same moment; look at the latest board and try again.") from None
            table = await self.table(game_id)
            await self.bot.days.after_change(table, game, after, mover=seat, by_person=True)  # bot.days
            await self.announcer.move_made(table, game, state, after, seat, events)
            return choice

    async def _decision_unchanged(self, table: GameRow, game: Game, seat: int, since: int) -> bool:
        actions = await self.storage.actions(table.id)
        try:
            states, _ = replay(game, table, actions)
        except Exception:  # noqa: BLE001 - if the past cannot be rebuilt, the old board is stale
            log.exception("Replay failed for game %s", table.id)
            return False
        return decision_still_open(game, states, actions, seat, since)

    def _seat(self, table: GameRow, user: discord.abc.User) -> int:
        if table.status == "lobby":
            raise Refusal("This game has not started yet: the host presses **Start** in the lobby.")
        if table.status != "active":
            raise Refusal(f"This game is over ({table.status}); no more moves can be made. "
                          "Start a new one with `/game new`.")
        seat = table.seat_of(user.id)
        if seat is None:
            raise Refusal("You are not playing in this game. Watch along, or start your own with `/game new` "
                          "in a thread.")
        return seat

    async def toggled_view(self, user: discord.abc.User, *, game_id: int, seen_version: int, mask: int,
                           on_board: bool) -> discord.ui.View | None:
        """The same components with other items chosen (a die toggled); nothing is stored."""
        table = await self.table(game_id)
        seat = self._seat(table, user)
        game = self.engine(table.game)
        state = game.from_dict(table.state)
        if seen_version != table.version:
            raise Refusal(presenter.stale_text(table, self.announcer.board_url(table)))
        if seat not in game.to_act(state):
            raise Refusal("Only the player to act may choose here — waiting for "
                          f"{presenter.waiting_for(table, game.to_act(state))}.")
        lang, names = table_language(table), label_names(table)
        if on_board:
            return board_view(table.id, table.version, public_choices(game, state, len(table.players), names, lang),
                              toggles_for(game, state, seat, names, lang), mask,
                              hand=has_secrets(game, state, len(table.players)), lang=lang)
        return private_view(table.id, table.version, choices_for(game, state, seat, names, lang),
                            toggles_for(game, state, seat, names, lang), mask, lang=lang)

    async def hand(self, user: discord.abc.User, *, game_id: int) -> PrivatePayload:
        table = await self.table(game_id)
        seat = self._seat(table, user)
        game = self.engine(table.game)
        return await self.announcer.private_payload(table, game, game.from_dict(table.state), seat)

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
        table = await self.storage.open_game_in(channel_id)
        if table is None or table.status != "active":
            return []
        seat = table.seat_of(user_id)
        if seat is None:
            return []
        game = self.engine(table.game)
        state = game.from_dict(table.state)
        return rank_matches(choices_for(game, state, seat, label_names(table), table_language(table)),
                            typed)[:AUTOCOMPLETE_LIMIT]

    # --------------------------------------------------------------------------- info

    async def repost_board(self, channel_id: int) -> None:
        """Post the current board again (without pinging anyone)."""
        table = await self.active_table_in(channel_id)
        async with self.lock(table.id):
            table = await self.table(table.id)
            game = self.engine(table.game)
            state = game.from_dict(table.state)
            footer, _ = self.announcer.footer(table, game, state)
            content = presenter.board_text([], self.announcer.status_line(table, game, state), footer)
            await self.announcer.post_board(table, game, state, content)

    async def status_text(self, channel_id: int) -> str:
        table = await self.open_table_in(channel_id)
        game = self.engine(table.game)
        if table.status == "lobby":
            return presenter.lobby_text(table, game)
        state = game.from_dict(table.state)
        to_act = game.to_act(state)
        seats = []
        for player, name in zip(table.players, presenter.bold_names(table.names)):
            notes = []
            if player.seat in to_act:
                notes.append("to act")
            if player.dm_ok is False:
                notes.append("DMs closed")
            seats.append(f"{player.seat + 1}. {name}" + (f" ({', '.join(notes)})" if notes else ""))
        lines = [
            f"**{game.title}** — game #{table.id}, {table.version} moves so far, "
            f"last activity {presenter.timestamp(table.updated_at)}",
            "Seats: " + " · ".join(seats),
            self.announcer.status_line(table, game, state),
            *await self.bot.days.status_lines(table),  # bot.days: deadlines, absences, computer seats
        ]
        if (url := self.announcer.board_url(table)) is not None:
            lines.append(f"Latest board: {url}")
        return presenter.clip("\n".join(lines))

    async def log_text(self, channel_id: int) -> str:
        table = await self.storage.open_game_in(channel_id) or await self.storage.latest_game_in(channel_id)
        if table is None or table.state is None:
            raise Refusal("No moves yet: there is no started game in this channel.")
        game = self.engine(table.game)
        actions = await self.storage.actions(table.id)
        if not actions:
            return f"**{game.title}** (game #{table.id}): no moves yet."
        _, moves = replay(game, table, actions)
        names = presenter.bold_names(table.names)
        lines = [f"**Recent moves — {game.title} (game #{table.id})**"]
        for move in moves[-LOG_LINES:]:
            # Only public events, as the channel saw them: the log must not reveal what a seat
            # chose in secret (so no `describe` labels here).
            said = " ".join(presenter.public_event_lines(move.events, table)) or f"{names[move.row.seat]} made a move."
            lines.append(f"`#{move.row.version}` {presenter.timestamp(move.row.at)} {said}")
        return presenter.clip("\n".join(lines))

    async def rules_text(self, channel_id: int, game_name: str | None) -> str:
        if game_name is None:
            table = await self.storage.open_game_in(channel_id)
            if table is None:
                raise Refusal("There is no game in this channel; name one: `/game rules game:<name>`.")
            game_name = table.game
        game = self.engine(game_name)
        lines = [f"**{game.title}** ({game.min_players}–{game.max_players} players)", game.rules_summary]
        if game.options:
            lines.append("**Options** for `/game new options:`")
            lines += [f"• `{o.name}` — {o.description}: {', '.join(o.choices)} (default {o.default})"
                      for o in game.options]
        return presenter.clip("\n".join(lines))

    # ------------------------------------------------------------------------ endings

    async def resign(self, channel_id: int, user: discord.abc.User) -> None:
        """Resigning: with two players the other one wins; with more the computer takes the
        seat and the game goes on (bot.days)."""
        table = await self.active_table_in(channel_id)
        async with self.lock(table.id):
            table = await self.table(table.id)
            seat = self._seat(table, user)
            game = self.engine(table.game)
            names = presenter.bold_names(table.names)
            if len(table.players) == 2:
                winner = 1 - seat
                result = {"winners": [winner], "reason": f"{{s{seat}}} resigned.", "resigned": seat}
                status = "finished"
                text = f"🏳️ {names[seat]} resigned. 🏁 **Game over** — {names[winner]} wins!"
            else:  # bot.days: three or more players, the computer takes the seat
                return await self.bot.days.resign_to_computer(table, seat)
            await self.storage.end_game(table.id, status=status, result=result, expected_status="active")
            await self.announcer.game_ended(table, text)

    async def abandon(self, channel_id: int, user: discord.abc.User, *, may_manage_server: bool) -> GameRow:
        table = await self.open_table_in(channel_id)
        if user.id != table.host_id and not may_manage_server:
            raise Refusal(f"Only the host ({presenter.mention(table.host_id)}) or someone with Manage Server "
                          "can abandon this game. To leave it yourself, use `/game resign`.")
        async with self.lock(table.id):
            try:
                await self.storage.end_game(table.id, status="abandoned",
                                            result={"reason": f"Abandoned by {user.display_name}."})
            except StaleVersion:
                raise Refusal("This game has already ended.") from None
            table = await self.table(table.id)
            game = self.engine(table.game)
            if table.lobby_message_id is not None and table.board_message_id is None:
                await self.announcer.channel(table).get_partial_message(table.lobby_message_id).edit(
                    content=presenter.lobby_text(table, game), view=None,
                    allowed_mentions=discord.AllowedMentions.none())
            await self.announcer.game_ended(
                table, f"🗑️ {game.title} (game #{table.id}) was abandoned by "
                       f"**{discord.utils.escape_markdown(user.display_name)}**.")
            return table


# ------------------------------------------------------------------------------- parsing


def parse_options(game: Game, text: str | None) -> dict[str, str]:
    """`rounds=3 variant=x` (spaces or commas) -> a full option dict with defaults filled in."""
    chosen = {option.name: option.default for option in game.options}
    known = {option.name: option for option in game.options}
    for part in (text or "").replace(",", " ").split():
        name, _, value = part.partition("=")
        option = known.get(name.strip().lower())
        if option is None:
            names = ", ".join(known) or "none"
            raise Refusal(f"{game.title} has no option `{name}`. Its options: {names}.")
        if value not in option.choices:
            raise Refusal(f"`{name}` can be one of: {', '.join(option.choices)}.")
        chosen[option.name] = value
    return chosen


def resolve_action(game: Game, state: Any, seat: int, text: str, names=(), lang: str = "en") -> Action:
    """The action meant by `/move` text: its canonical form, or one of the offered labels."""
    action = Action.parse(text)
    legal = game.legal_actions(state, seat)
    if action in legal:
        return action
    wanted = text.strip().lower()
    for candidate in legal:
        if translate(game.describe(state, seat, candidate), lang, names).strip().lower() == wanted:
            return candidate
    return action
