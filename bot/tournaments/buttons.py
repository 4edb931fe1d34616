"""Join and Leave on a tournament's sign-up message, and the confirmation of a cancellation:
persistent buttons whose custom_id carries the tournament (`rk:tour:<id>:<join|leave>`,
`rk:tour:<id>:<cancel|keep>:<rule|abandon>`), so a click works after a restart. A click is
answered only to the one who clicked; the tournament's message is edited by its worker
(bot.tournaments.message).
"""
from __future__ import annotations

import re
from typing import Any, ClassVar, Protocol

import discord
from discord.ui import Button, DynamicItem

import i18n
from bot.components import Handled, ShownView
from bot.errors import Refusal, reply_ephemeral
from bot.locale import user_language
from bot.store import Storage
from bot.tournaments.storage import TournamentRow


class Signups(Protocol):
    """What the buttons ask of the tournaments (bot.tournaments.runner.Tournaments), given to the
    classes registered at start-up (`bot.components.answering(..., tournaments=...)`)."""

    storage: Storage

    async def join(self, tournament_id: int, user: discord.abc.User) -> TournamentRow: ...

    async def leave(self, tournament_id: int, user: discord.abc.User) -> TournamentRow: ...

    async def may_run(self, guild_id: int, member: Any, permissions: discord.Permissions | None) -> bool: ...

    async def cancel(self, tournament_id: int, by: int, tables: str) -> TournamentRow: ...

BUTTONS = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary}


class SignupButton(Handled, DynamicItem[Button[Any]], template=r"rk:tour:(?P<tournament>\d+):(?P<op>join|leave)"):
    tournaments: ClassVar[Signups]

    def __init__(self, tournament_id: int, op: str, lang: str = "en") -> None:
        super().__init__(Button(label=i18n.t(lang, f"bot.tournaments.button.{op}"), style=BUTTONS[op],
                                custom_id=f"rk:tour:{tournament_id}:{op}"))
        self.tournament_id = tournament_id
        self.op = op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
                             ) -> SignupButton:
        return cls(int(match["tournament"]), match["op"])

    async def handle(self, interaction: discord.Interaction) -> None:
        tournaments = self.tournaments
        lang = user_language(interaction)
        if self.op == "join":
            tournament = await tournaments.join(self.tournament_id, interaction.user)
            text = i18n.t(lang, "bot.tournaments.joined", id=tournament.id)
        else:
            tournament = await tournaments.leave(self.tournament_id, interaction.user)
            text = i18n.t(lang, "bot.tournaments.left", id=tournament.id)
        await reply_ephemeral(interaction, text)


def signup_view(tournament_id: int, lang: str) -> discord.ui.View:
    view = ShownView()
    for op in BUTTONS:
        view.add_item(SignupButton(tournament_id, op, lang))
    return view


class CancelButton(Handled, DynamicItem[Button[Any]],
                   template=r"rk:tour:(?P<tournament>\d+):(?P<op>cancel|keep):(?P<tables>rule|abandon)"):
    """The confirmation `/game tournament cancel` asks for (only to the organiser): cancel it, with
    what becomes of its tables still being played, or keep it."""

    tournaments: ClassVar[Signups]

    def __init__(self, tournament_id: int, op: str, tables: str, lang: str = "en") -> None:
        style = discord.ButtonStyle.danger if op == "cancel" else discord.ButtonStyle.secondary
        super().__init__(Button(label=i18n.t(lang, f"bot.tournaments.button.{op}", id=tournament_id), style=style,
                                custom_id=f"rk:tour:{tournament_id}:{op}:{tables}"))
        self.tournament_id = tournament_id
        self.op = op
        self.tables = tables

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
                             ) -> CancelButton:
        return cls(int(match["tournament"]), match["op"], match["tables"])

    async def handle(self, interaction: discord.Interaction) -> None:
        tournaments = self.tournaments
        lang = user_language(interaction)
        if self.op == "keep":
            await interaction.response.edit_message(
                content=i18n.t(lang, "bot.tournaments.cancel_kept", id=self.tournament_id), view=None)
            return
        tournament = await tournaments.storage.tournaments.get(self.tournament_id)
        if tournament is None or interaction.guild_id != tournament.guild_id:
            raise Refusal.of("bot.tournaments.no_such", id=self.tournament_id)
        if interaction.user.id != tournament.host_id and not await tournaments.may_run(
                tournament.guild_id, interaction.user, interaction.permissions):
            raise Refusal.of("bot.tournaments.cancel_not_allowed", id=tournament.id, host=f"<@{tournament.host_id}>")
        await interaction.response.defer()  # ending its tables may take a moment
        cancelled = await tournaments.cancel(tournament.id, interaction.user.id, self.tables)
        await interaction.edit_original_response(
            content=i18n.t(lang, "bot.tournaments.cancel_done", id=cancelled.id), view=None)


def cancel_view(tournament_id: int, tables: str, lang: str) -> discord.ui.View:
    view = ShownView()
    for op in ("cancel", "keep"):
        view.add_item(CancelButton(tournament_id, op, tables, lang))
    return view
