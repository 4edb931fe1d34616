"""Reminders: a DM when a game has waited for a player for the table's reminder time (and again
every reminder time while the turn lasts), or a mention in the channel if their DMs are closed.
`/game reminders off` stops them; nobody is reminded while away or while the computer plays.

A reminder of a decision outside the player's own turn (a defence, a raid card, a robber) offers
the standing order for its kind on a button: where a game has no DMs of its own (Knatsch,
Carcassonne) this is the toggle on a DM the player otherwise lacks, at the moment it helps. It
is in the DM alone; the channel's reminder never mentions orders."""
from __future__ import annotations

import discord

from bot import presenter
from bot.components import OrderButton, ShownView
from bot.days.computer import is_computer
from bot.days.options import words
from bot.delivery.content import board_url, channel_url
from bot.delivery.requests import Failure, attempt
from bot.delivery.worker import Deliveries
from bot.locale import table_language
from bot.moves import Moves
from bot.storage import GameRow
from bot.store import Storage
from bot.timing import Durations
from games.core import Game, msg, reaction_kind
from i18n import game_title, translate


class Reminders:
    def __init__(self, client: discord.Client, storage: Storage, moves: Moves, deliveries: Deliveries,
                 now, durations: Durations = Durations()) -> None:
        self.client = client
        self.storage = storage
        self.moves = moves
        self.deliveries = deliveries
        self.now = now  # the scheduler's clock: () -> Unix seconds
        self.durations = durations

    async def remind(self, table: GameRow, seat: int, due_at: int) -> None:
        game = self.moves.engine(table.game)
        state = game.from_dict(table.started_state)
        if seat not in game.to_act(state):
            return
        settings = await self.storage.days.table(table.id)
        player = table.player_at(seat)
        row = (await self.storage.days.seats(table.id)).get(seat, {})
        # The next reminder at most every reminder time, whatever happens to this one.
        await self.storage.days.move_timer(table.id, seat, "reminder", was=due_at,
                                           due_at=max(self.now(), due_at) + self.durations.game(settings["reminder"]))
        user = await self.storage.days.user(player.user_id)
        away = user["away_until"] is not None and user["away_until"] > self.now()
        if is_computer(player.user_id, row) or not user["reminders"] or away:
            return
        since = row.get("since") or due_at
        lang = await self.storage.games.language_of_user(player.user_id, table_language(table))
        text = words(lang, "reminder", game=game_title(game), id=table.id, since=presenter.timestamp(since),
                     link=board_url(table) or channel_url(table))
        deadline = (await self.storage.days.deadlines(table.id)).get(seat)
        if deadline is not None:
            text += "\n" + words(lang, "deadline_at", when=presenter.timestamp(deadline))
        if player.dm_ok is not False:
            offer = await self.order_offer(table, game, state, seat, lang)
            if offer is not None:
                text += "\n" + words(lang, "reminder_order_offer")
            view = discord.utils.MISSING if offer is None else offer
            dm = await self.deliveries.dms.channels.open(player.user_id)  # paced with the DMs' (bot.delivery.dms)
            sent = dm if isinstance(dm, Failure) else await attempt(lambda: dm.send(text, view=view))
            if not isinstance(sent, Failure):
                return
            if sent.kind != "closed":
                return  # Discord had a problem: the next reminder comes at the next reminder time
            await self.storage.games.set_dm_ok(table.id, player.user_id, False)
        await self.moves.notify(table.id, words(table_language(table), "reminder_channel",
                                                who=presenter.mention(player.user_id),
                                                since=presenter.timestamp(since)), [player.user_id])

    async def order_offer(self, table: GameRow, game: Game, state, seat: int, lang: str) -> discord.ui.View | None:
        """The standing order for the kind of decision the seat is reminded of, on a button, when
        it waits outside its own turn and has no such order yet; None otherwise."""
        kind = reaction_kind(game, state, seat)
        if kind is None or kind in (await self.storage.days.standing_orders(table.id)).get(seat, frozenset()):
            return None
        view = ShownView()
        view.add_item(OrderButton(table.id, game.features.reactions.index(kind), False,
                                  words(lang, "order_button_offer", kind=translate(msg(kind), lang))))
        return view
