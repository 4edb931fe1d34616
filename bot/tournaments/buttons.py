"""Join and Leave on a tournament's sign-up message: persistent buttons whose custom_id carries
the tournament (`rk:tour:<id>:<join|leave>`), so a click works after a restart. The click is
answered only to the player; the message itself is edited by its worker (bot.tournaments.message).
"""
from __future__ import annotations

import re
from typing import Any

import discord
from discord.ui import Button, DynamicItem

import i18n
from bot.components import Handled, table_of
from bot.errors import reply_ephemeral
from bot.locale import user_language

BUTTONS = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary}


class SignupButton(Handled, DynamicItem[Button], template=r"rk:tour:(?P<tournament>\d+):(?P<op>join|leave)"):
    def __init__(self, tournament_id: int, op: str, lang: str = "en") -> None:
        super().__init__(Button(label=i18n.t(lang, f"bot.tournaments.button.{op}"), style=BUTTONS[op],
                                custom_id=f"rk:tour:{tournament_id}:{op}"))
        self.tournament_id = tournament_id
        self.op = op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /):
        return cls(int(match["tournament"]), match["op"])

    async def handle(self, interaction: discord.Interaction) -> None:
        tournaments = table_of(interaction).tournaments
        assert tournaments is not None
        lang = user_language(interaction)
        if self.op == "join":
            tournament = await tournaments.join(self.tournament_id, interaction.user)
            text = i18n.t(lang, "bot.tournaments.joined", id=tournament.id)
        else:
            tournament = await tournaments.leave(self.tournament_id, interaction.user)
            text = i18n.t(lang, "bot.tournaments.left", id=tournament.id)
        await reply_ephemeral(interaction, text)


def signup_view(tournament_id: int, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for op in BUTTONS:
        view.add_item(SignupButton(tournament_id, op, lang))
    return view
