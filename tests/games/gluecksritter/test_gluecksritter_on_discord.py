"""A whole four-player game of Die Glücksritter through the real bot, offline in simcord.

Secret choices go by DM (one player has closed DMs and uses 'My hand'); the first round is
scripted so that two Black Knights haggle on the board; in round two the bot restarts after two
players have chosen and two have not. After every move we check that nothing public tells a
secret choice or a document before the reveal, and that channel images are public views.
"""
from __future__ import annotations

import io
import random
import re
import threading

from PIL import Image
from simcord.results import to_discord_message
from PIL.PngImagePlugin import PngInfo

from games import REGISTRY
from tests.bot import pg
from tests.bot.harness import (
    buttons, latest_dm_with_moves, reply, seat_order, selects, simulated_discord, start_table,
)

GAME = REGISTRY["gluecksritter"]


PLACEHOLDERS = [f"{{s{i}}}" for i in range(6)]


def legacy(text):
    """Engine words as the older bot reads them: English with `{s0}` seat placeholders."""
    from i18n import translate

    return translate(text, "en", PLACEHOLDERS, strict=True)


class EnglishLabels:
    """The engine with its words already in English (seat placeholders left for the bot), for a
    bot that does not yet put `Msg` texts into words itself. Rules, states and views are the
    engine's own; only labels, event lines, status, summary and the outcome's reason change form."""

    def __init__(self, game) -> None:
        self._game = game

    def __getattr__(self, name):
        return getattr(self._game, name)

    def describe(self, state, seat, action):
        return legacy(self._game.describe(state, seat, action))

    def apply(self, state, seat, action):
        from games.core import Event

        new, events = self._game.apply(state, seat, action)
        return new, [Event(legacy(e.text), seat=e.seat, kind=e.kind) for e in events]

    def view(self, state, seat):
        view = self._game.view(state, seat)
        view["status"] = legacy(view["status"])
        if "private" in view:
            view["private"]["summary"] = legacy(view["private"]["summary"])
        return view

    def outcome(self, state):
        from dataclasses import replace

        outcome = self._game.outcome(state)
        return None if outcome is None else replace(outcome, reason=legacy(outcome.reason))


def engine_for_the_bot():
    from bot.announce import choices_for

    label = choices_for(GAME, GAME.new_game(3, seed=1), 0)[0].label
    return GAME if isinstance(label, str) else EnglishLabels(GAME)
SECRET = re.compile(r"(You play|Play \d|\bplay \d,\d|Your documents|You receive|Monk's Favour: you)")


class SketchRenderer:
    """Remembers the view behind every image; draws a tiny unique PNG (the real renderer has its
    own tests), except for a few real boards."""

    def __init__(self) -> None:
        self.view_of: dict[bytes, dict] = {}
        self.real_left = 4
        self._lock = threading.Lock()

    def __call__(self, view: dict, names: list[str], lang: str = "en") -> bytes:
        with self._lock:
            if self.real_left > 0:
                self.real_left -= 1
                from renderers import render_png

                png = render_png(view, names, lang)
            else:
                info = PngInfo()
                info.add_text("sketch", str(len(self.view_of)))
                buffer = io.BytesIO()
                Image.new("P", (8, 10)).save(buffer, format="PNG", pnginfo=info)
                png = buffer.getvalue()
            self.view_of[png] = view
        return png


def find(message, action: str):
    """(custom_id, value) of the component offering `action` in a message, or None."""
    for button in buttons(message):
        if button["custom_id"].startswith("rk:move:") and button["custom_id"].split(":", 4)[4] == action \
                and not button.get("disabled"):
            return button["custom_id"], None
    for menu in selects(message):
        for option in menu["options"]:
            if option["value"] == action:
                return menu["custom_id"], action
    return None


@pg.on_both_stores
async def test_a_whole_four_player_game_through_the_bot(database_path):
    renderer = SketchRenderer()
    database = database_path
    async with simulated_discord(database, games={"gluecksritter": engine_for_the_bot()}, seed=4, render=renderer) as world:
        people = [world.player(name) for name in ("anna", "bernd", "clara", "dieter")]
        closed = people[2]
        world.close_dms(closed)
        game_id = await start_table(world, *people, game="gluecksritter")
        players = seat_order(world, game_id, people)
        rng = random.Random(3)
        seen = {"images": set()}
        used = {"dm": 0, "my hand": 0, "board": 0, "/move": 0}
        haggled = restarted = False

        def state():
            return GAME.from_dict(world.stored_state(game_id))

        def check_public():
            stored = world.env.backend.messages.get(world.channel.id, {})
            # Every message every time: a turn's message is edited in place, so an old one may
            # have new words and a new image.
            for message in sorted(stored.values(), key=lambda m: m.id):
                if message.is_ephemeral:
                    continue
                message = to_discord_message(world.env, message)
                assert not SECRET.search(message.content or ""), message.content
                for item in buttons(message) + [o for menu in selects(message) for o in menu["options"]]:
                    assert not SECRET.search(str(item.get("label"))) and not SECRET.search(str(item.get("value")))
                png = world.png(message)
                if png is not None:
                    view = renderer.view_of[png]
                    assert view["viewer"] is None and "private" not in view
                    seen["images"].add(png)

        async def move(player, action: str):
            seat = players.index(player)
            board = world.latest_board()
            spot = find(board, action)
            source = board if spot else None
            if spot is None and player is closed:
                source = reply(await world.click(player, board, label="My hand"))
                assert source is not None and source.ephemeral
                spot = find(source, action)
                used["my hand"] += 1
            elif spot is None:
                source = latest_dm_with_moves(world, player)
                spot = find(source, action) if source is not None else None
                used["dm"] += spot is not None
            else:
                used["board"] += 1
            if spot is None:
                await world.slash(player, "move", action=action)
                used["/move"] += 1
            else:
                custom_id, value = spot
                if value is None:
                    await world.click(player, source, custom_id=custom_id)
                else:
                    await world.select(player, source, value, custom_id=custom_id)
            check_public()
            return seat

        for number in range(600):
            current = state()
            if GAME.outcome(current) is not None:
                break
            acting = sorted(GAME.to_act(current))
            if current.round == 1 and current.phase == "choose":
                # Scripted: seats 0 and 1 send their Black Knights, 2 and 3 go for coins.
                plan = {0: "4,5", 1: "4,6", 2: "1,5", 3: "1,6"}
                seat = acting[0]
                before = world.stored_state(game_id)["choices"]
                await move(players[seat], "play " + plan[seat])
                after = state()
                if not all(c["ready"] for c in after.choices):
                    # The chosen pair is secret: nobody else's view has changed for it.
                    assert GAME.view(after, None)["players"][seat]["cards"] is None
                    assert [c["ready"] for c in before] != [c["ready"] for c in after.choices]
                continue
            if current.phase == "haggle":
                haggled = True
                h = current.haggle
                seat = h["chooser"] if h["opener"] is None else h["turn"]
                legal = [a.encode() for a in GAME.legal_actions(current, seat)]
                if h["opener"] is None:
                    action = legal[0]
                elif h["offer"] is None:
                    action = legal[0]             # offer 1
                elif h["offer"][1] < 2 and "offer 2" in legal:
                    action = "offer 2"
                else:
                    action = "accept"
                await move(players[seat], action)
                continue
            if current.round == 2 and current.phase == "choose" and not restarted \
                    and sum(c["ready"] for c in current.choices) == 2:
                chosen = [list(c["cards"]) for c in current.choices]
                await world.restart()
                restarted = True
                again = state()
                assert [list(c["cards"]) for c in again.choices] == chosen
                assert sorted(GAME.to_act(again)) == [s for s in range(4) if not current.choices[s]["ready"]]
                continue
            seat = rng.choice(acting)
            action = GAME.suggest(current, seat, rng).encode()
            await move(players[seat], action)
        final = state()
        assert GAME.outcome(final) is not None, "the game did not end"
        assert haggled and restarted
        assert used["dm"] and used["my hand"] and used["board"]
        assert "Game over" in world.latest_board().content or world.stored(game_id).status != "active"
        assert len(seen["images"]) >= number // 2, "a fresh board image after (nearly) every move"
        assert renderer.real_left == 0, "the first boards were drawn by the real renderer"
        assert any("has chosen" in (m.content or "") for m in world.messages()), "who has chosen is public"
