"""A whole four-player game of Raub Ritter, played by simulated users through Discord.

The players do what people do: the secret keep choice at the start all at once from their DMs,
then tiles laid and knights placed from the menus in their DMs, from the board (the knights step
is public), from `/move` with its autocomplete, and, for the one player whose DMs are closed,
from the 'My hand' reply and `/game hand`. Halfway through the bot restarts on the same
database. After every move we check that nothing public gives a hand away: channel text,
component labels and values, board images, and `/game log`; and that every DM carries only its
reader's own hand.

Most images come from a quick sketch renderer that remembers the view each one was drawn
from; the real renderer draws the first boards, the boards around the restart and the last ones.
"""
from __future__ import annotations

import io
import random
import re
import threading

import pytest
from PIL import Image
from PIL.PngImagePlugin import PngInfo

from bot.components import ROWS
from bot.info import split_versioned
from games import REGISTRY
from games.core import Action
from i18n import translate
from tests.bot import pg
from tests.bot.harness import (
    bot_factory,
    buttons,
    latest_dm_with_moves,
    move_buttons,
    offers_moves,
    reply,
    seat_order,
    selects,
    to_act,
)

GAME = REGISTRY["raubritter"]
BOT_SEED = 5       # seat order and game seed, through create_bot(seed_source=...)
CHOOSER_SEED = 3   # which of the offered moves the simulated players pick
RESTART_AFTER = 60
MAX_MOVES = 400
TITLE = "Raub Ritter (Robber Knights)"

# Describe labels and action texts that name a tile in someone's hand: they belong in DMs only.
HAND_LABEL = re.compile(r"\b(Lay [a-z+]+ at [A-Z]\d+|Keep the castle and [a-z+]+)")
HAND_ACTION = re.compile(r"\b(lay [A-Z][a-z]? [A-Z]\d+|keep [A-Z][a-z]?)\b")
PRIVATE_LINE = re.compile(r"You (draw|keep)\b")


class SketchRenderer:
    """Remembers the view behind every image. Draws a tiny unique PNG unless `real` is set, in
    which case the real Raub Ritter renderer draws it (about 60 ms an image)."""

    def __init__(self) -> None:
        self.view_of: dict[bytes, dict] = {}
        self.real = False
        self.real_images = 0
        self._lock = threading.Lock()

    def __call__(self, view: dict, names: list[str], lang: str = "en") -> bytes:
        if self.real:
            from renderers import render_png

            png = render_png(view, names)
        else:
            info = PngInfo()
            with self._lock:
                info.add_text("sketch", str(len(self.view_of)))
            buffer = io.BytesIO()
            Image.new("P", (16, 9)).save(buffer, format="PNG", pnginfo=info)
            png = buffer.getvalue()
        with self._lock:
            assert png not in self.view_of, "two images alike: cannot tell their views apart"
            self.view_of[png] = view
            self.real_images += self.real
        return png


@pytest.fixture
def renderer() -> SketchRenderer:
    return SketchRenderer()


@pytest.fixture
def make_bot(database_path, renderer):
    return bot_factory(database_path, games={"raubritter": GAME}, seed=BOT_SEED, render=renderer)


# ------------------------------------------------------------------------------ reading


def component_texts(message) -> list[str]:
    """Every label, value and placeholder of a message's buttons and menus."""
    texts = []
    for item in buttons(message):
        texts += [item.get("label") or "", item["custom_id"]]
    for menu in selects(message):
        texts.append(menu.get("placeholder") or "")
        for option in menu["options"]:
            texts += [option["label"], option["value"], option.get("description") or ""]
    return texts


def offered_actions(message) -> list[str]:
    """The moves a message offers: button actions and menu values, in order."""
    found = [b["custom_id"].split(":", 4)[4] for b in move_buttons(message)]
    return found + [option["value"] for menu in selects(message) for option in menu["options"]]


def offered_versions(message) -> set[int]:
    ids = [b["custom_id"] for b in move_buttons(message)] + [m["custom_id"] for m in selects(message)]
    return {int(custom_id.split(":")[3]) for custom_id in ids}


def faces(tiles) -> list[str]:
    return [tile[1:] for tile in tiles]


def label_of(face: str) -> str:
    """A face as players read it: "Fv" -> "forest+village"."""
    from games.raubritter.tiles import face_label

    return face_label(face)


class Watcher:
    """Checks every new public message and DM against the state stored when it appeared."""

    def __init__(self, world, players, renderer: SketchRenderer) -> None:
        self.world = world
        self.players = players
        self.renderer = renderer
        self.seen: dict[int, int] = {}  # channel id -> newest message id checked
        self.public_boards = 0
        self.dm_images = 0
        self.dm_menus_checked = 0

    def new_messages(self, channel_id: int) -> list:
        from simcord.results import to_discord_message

        env = self.world.env
        stored = env.backend.messages.get(channel_id, {})
        newest = self.seen.get(channel_id, 0)
        fresh = sorted((m for m in stored.values() if m.id > newest and not m.is_ephemeral), key=lambda m: m.id)
        if fresh:
            self.seen[channel_id] = fresh[-1].id
        return [to_discord_message(env, m) for m in fresh]

    def check(self, state: dict) -> None:
        self.check_public(state, self.new_messages(self.world.channel.id))
        for seat, player in enumerate(self.players):
            for dm in self.new_messages(player.user.dm_channel.id):
                self.check_dm(state, seat, dm)

    def check_public(self, state: dict, messages) -> None:
        for message in messages:
            text = message.content
            assert not PRIVATE_LINE.search(text), text
            assert not HAND_LABEL.search(text) and not HAND_ACTION.search(text), text
            values = offered_actions(message)
            assert not [value for value in values if value.startswith(("lay ", "keep "))], \
                "the public board offers moves from a secret hand"
            for piece in component_texts(message):
                assert not HAND_LABEL.search(piece) and not HAND_ACTION.search(piece), piece
            for attachment in message.attachments:
                if attachment.filename == "scores.png":
                    continue  # the end-of-game score chart (bot.records), drawn from the scores only
                view = self.renderer.view_of[self.world.png(message)]
                assert view["viewer"] is None and "private" not in view, "a public image drawn from a seat's view"
                self.public_boards += 1

    def check_dm(self, state: dict, seat: int, dm) -> None:
        world = self.world
        channel_url = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}"
        assert dm.content.startswith(f"**{TITLE}** (game #1) in **Ritterrunde** › [#spieltisch]({channel_url})")
        hand = state["hands"][seat]
        own_hand = ", ".join(f"{label_of(tile[1:])} ({tile[0]})" for tile in hand) or "empty"
        assert f"Your hand: {own_hand}." in dm.content, "every DM names its reader's own hand in words"
        for label, letter in re.findall(r"You draw ([a-z+]+) \(([A-E])\)", dm.content):
            assert any(tile[0] == letter and label_of(tile[1:]) == label for tile in hand), dm.content
        png = world.png(dm)
        if png is not None:
            view = self.renderer.view_of[png]
            assert view["viewer"] == seat
            assert [h["letter"] + h["code"] for h in view["private"]["hand"]] == hand
            self.dm_images += 1
        if offers_moves(dm):
            game_state = GAME.from_dict(state)
            legal = [a.encode() for a in GAME.legal_actions(game_state, seat)]
            assert offered_versions(dm) == {world.stored(1).version}
            assert offered_actions(dm) and set(offered_actions(dm)) <= set(legal)
            check_menus(dm, game_state, seat, rows=ROWS)
            self.dm_menus_checked += 1


def check_menus(message, state, seat: int, rows: int) -> None:
    """What a phone shows: at most `rows` rows; at the lay step one tile per menu, its placeholder
    naming the tile and the first and last square, and 'End the turn' as a button when allowed."""
    menus = selects(message)
    assert len(menus) + bool(move_buttons(message)) <= rows
    assert all(len(menu["options"]) <= 25 for menu in menus)
    legal = [a.encode() for a in GAME.legal_actions(state, seat)]
    assert sorted(offered_actions(message)) == sorted(legal)  # every legal move, none other
    if state.phase == "lay" and len(legal) > 10:
        for menu in menus:
            tiles = {option["value"].split()[1] for option in menu["options"]}
            # In a DM or 'My hand' reply every menu holds one tile (the board has a row less).
            assert len(tiles) == 1 or (len(menus) == 1 or rows < ROWS), menu["placeholder"]
            if len(tiles) == 1:
                squares = [option["value"].split()[2] for option in menu["options"]]
                assert menu["placeholder"] == f"Lay {label_of(tiles.pop())} at {squares[0]} … {squares[-1]}"
            else:
                assert len(menus) > 1 or menu["placeholder"] == "Choose your move…"
        assert [b["label"] for b in move_buttons(message)] == (["End the turn"] if "end" in legal else [])


# ------------------------------------------------------------------------------ playing


class Table:
    def __init__(self, world, players, closed, renderer, rng) -> None:
        self.world = world
        self.players = players
        self.closed = closed
        self.renderer = renderer
        self.rng = rng
        self.autocompletes = 0
        self.narrowed = 0
        self.by = {"dm": 0, "board": 0, "my hand": 0, "/game hand": 0, "/move": 0}

    async def pick_from(self, player, source, seat) -> None:
        """Choose among what a message offers: sometimes end the turn when allowed, else any move."""
        ends = [b for b in move_buttons(source) if b["label"] == "End the turn"]
        if ends and self.rng.random() < 0.3:
            await self.world.click(player, source, custom_id=ends[0]["custom_id"])
            return
        choices = [(b["custom_id"], None) for b in move_buttons(source) if b not in ends]
        choices += [(menu["custom_id"], option["value"]) for menu in selects(source) for option in menu["options"]]
        custom_id, value = self.rng.choice(choices)
        if value is None:
            await self.world.click(player, source, custom_id=custom_id)
        else:
            await self.world.select(player, source, value, custom_id=custom_id)

    async def my_hand(self, player, seat, *, by_command: bool):
        world = self.world
        if by_command:
            result = await world.slash(player, "game hand")
            self.by["/game hand"] += 1
        else:
            result = await world.click(player, world.latest_board(), label="My hand")
            self.by["my hand"] += 1
        answer = reply(result)
        assert answer.ephemeral and "(game #1)" in answer.content
        view = self.renderer.view_of[world.png(answer)]
        assert view["viewer"] == seat
        assert [h["letter"] + h["code"] for h in view["private"]["hand"]] == world.stored_state(1)["hands"][seat]
        check_menus(answer, GAME.from_dict(world.stored_state(1)), seat, rows=ROWS)
        return answer

    async def by_move_command(self, player, seat) -> None:
        """`/move` as a person uses it: type a square (or a direction), read the list, pick."""
        world = self.world
        state = GAME.from_dict(world.stored_state(1))
        legal = [a.encode() for a in GAME.legal_actions(state, seat)]
        everything = await world.autocomplete(player, "move", "action", "")
        # Values carry the version they were offered at ("@6 lay P G8"; issue 7).
        assert [split_versioned(c["value"]) for c in everything] == [(state_version(world), a) for a in legal[:25]]
        labels = [translate(GAME.describe(state, seat, Action.parse(v)), "en") for v in legal[:25]]
        assert [c["name"] for c in everything] == labels
        if state.phase == "lay":
            square = self.rng.choice(GAME.view(state, None)["open_squares"])  # read off the board
            typed = square.lower()
        else:
            square, typed = None, self.rng.choice(["north", "east", "south", "west", "stay"])
        offered = await world.autocomplete(player, "move", "action", typed)
        self.autocompletes += 1
        matching = [a for a in legal
                    if typed in a.lower()
                    or typed in translate(GAME.describe(state, seat, Action.parse(a)), "en").lower()]
        assert [split_versioned(c["value"])[1] for c in offered] == matching[:25]
        assert all(typed in c["name"].lower() for c in offered)
        if square is not None:  # typing "d5" lists laying each tile in hand there (and D5x squares)
            here = {f"lay {face} {square}" for face in faces(state.hands[seat])}
            assert here and here <= {split_versioned(c["value"])[1] for c in offered}
            self.narrowed += len(offered) < len(everything)
        pick = self.rng.choice(offered or everything)
        result = await world.slash(player, "move", action=pick["value"])
        assert reply(result).content == f"✅ {pick['name']}"
        self.by["/move"] += 1

    async def move(self, player, number: int) -> None:
        world = self.world
        seat = self.players.index(player)
        board = world.latest_board()
        if player is self.closed:
            answer = await self.my_hand(player, seat, by_command=number % 2 == 0)
            await self.pick_from(player, answer, seat)
        elif number % 6 == 0:
            await self.by_move_command(player, seat)
        else:
            dm = latest_dm_with_moves(world, player)
            fresh = dm is not None and offered_versions(dm) == {world.stored(1).version}
            if offers_moves(board) and (number % 2 == 0 or not fresh):
                # Public moves (the knights, or a hand everyone can work out): on the board.
                check_menus(board, GAME.from_dict(world.stored_state(1)), seat, rows=ROWS - 1)
                await self.pick_from(player, board, seat)
                self.by["board"] += 1
            else:
                assert fresh, "the player to act has neither board moves nor a fresh DM"
                await self.pick_from(player, dm, seat)
                self.by["dm"] += 1


async def check_log(world, reader) -> str:
    """`/game log` as anyone may read it: the public events only, no hand, no private line."""
    log = reply(await world.slash(reader, "game log")).content
    assert "Recent moves" in log and not PRIVATE_LINE.search(log)
    assert not HAND_LABEL.search(log) and not HAND_ACTION.search(log), log
    return log


def check_png_is_real(world, message, renderer, viewer) -> None:
    """The message carries a real Raub Ritter drawing of `viewer`'s view (None: the public's)."""
    from renderers.raubritter import HEIGHT, WIDTH

    png = world.png(message)
    assert renderer.view_of[png]["viewer"] == viewer
    assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)


@pg.whole_game_on_both_stores
async def test_four_players_play_raub_ritter_to_the_end_with_hands_kept_secret(world, renderer, caplog):
    alice, bob, carol, dave = (world.player(name) for name in ("alice", "bob", "carol", "dave"))
    eve = world.player("eve")  # watches and reads the log
    world.close_dms(carol)
    renderer.real = True
    await world.slash(alice, "game new", game="raubritter")
    for player in (bob, carol, dave):
        await world.click(player, world.latest(), label="Join")
    await world.click(alice, world.latest(), label="Start")
    renderer.real = False
    players = seat_order(world, 1, [alice, bob, carol, dave])
    watcher = Watcher(world, players, renderer)
    table = Table(world, players, carol, renderer, random.Random(CHOOSER_SEED))

    # --- The start: one board for all, each open DM gets its own four A tiles, all at once.
    start = world.latest_board()
    check_png_is_real(world, start, renderer, None)
    assert [m.content for m in world.bot_messages() if "could not DM" in m.content] == [
        "📭 I could not DM **Carol** (DMs closed): use the **My hand** button or `/game hand` to see your view "
        "and moves."]
    assert sorted(world.pinged(start)) == sorted(p.id for p in players)
    assert [b["label"] for b in buttons(start)] == ["My hand"]
    watcher.check(world.stored_state(1))
    for seat, player in enumerate(players):
        if player is carol:
            assert world.dms(carol) == []
            continue
        (dm,) = world.dms(player)
        check_png_is_real(world, dm, renderer, seat)
        assert [b["label"] for b in move_buttons(dm)] == [
            "Keep the castle and plain", "Keep the castle and plain+village", "Keep the castle and mountain"]
        assert offered_versions(dm) == {0}

    # Everyone chooses at the same time, from the DM they were sent at the start.
    keep_dms = {p: world.dms(p)[0] for p in players if p is not carol}
    for number, player in enumerate(reversed(players)):
        seat = players.index(player)
        assert player in to_act(world, players)
        if player is carol:
            answer = await table.my_hand(carol, seat, by_command=False)
            await table.pick_from(carol, answer, seat)
        else:
            # The DM as it is now: edited while the decision is open, as others choose.
            await table.pick_from(player, world.fresh(keep_dms[player]), seat)
        stored = world.stored(1)
        assert stored.version == number + 1
        watcher.check(world.stored_state(1))
        await check_log(world, eve)
        if number < 3:
            board = world.latest_board()
            # in full where it fits a phone's line, else its short form (bot.presenter.account_line)
            assert any(f"**{player.name.capitalize()}** {words}" in board.content
                       for words in ("has chosen which A tiles to keep.", "has chosen their A tiles.")), board.content
            assert player not in to_act(world, players) and len(to_act(world, players)) == 3 - number
    state = world.stored_state(1)
    assert state["phase"] == "lay" and all(len(hand) == 2 for hand in state["hands"])
    assert len(state["board"]) == 8  # the starting area: two donated A tiles from each player

    # --- The game: one move at a time, checked after each.
    moves = 4
    while "Game over" not in world.latest_board().content:
        assert moves < MAX_MOVES, "the game did not end"
        state = world.stored_state(1)
        left = sum(map(len, state["hands"])) + sum(map(len, state["piles"]))
        renderer.real = moves in (4, RESTART_AFTER) or left <= 1
        (acting,) = to_act(world, players)
        assert players.index(acting) == state["turn"], (moves, world.latest_board().content, state["phase"])
        if moves == RESTART_AFTER:
            before = world.stored(1)
            old_board = world.latest_board()
            await world.restart()
            assert world.stored(1) == before
            # The first move after the restart uses what was sent before it.
            if acting is carol:
                answer = reply(await world.click(carol, old_board, label="My hand"))
                await table.pick_from(carol, answer, players.index(carol))
            else:
                await table.pick_from(acting, latest_dm_with_moves(world, acting), players.index(acting))
        else:
            # Someone else's list of moves is empty: autocomplete never shows another hand.
            if moves % 10 == 5:
                other = players[(players.index(acting) + 1) % len(players)]
                assert await world.autocomplete(other, "move", "action", "") == []
                assert await world.autocomplete(eve, "move", "action", "") == []
            await table.move(acting, moves)
        # An offered move is stored; a forced one after it (the only legal move) is made at once.
        assert world.stored(1).version >= moves + 1, "an offered move was refused"
        moves = world.stored(1).version
        watcher.check(world.stored_state(1))
        await check_log(world, eve)

    # --- The end: outcome and scores, stored as finished, one stored action per move.
    final = world.latest_board()
    state = GAME.from_dict(world.stored_state(1))
    outcome = GAME.outcome(state)
    names = {seat: f"**{p.name.capitalize()}**" for seat, p in enumerate(players)}
    winners = " and ".join(names[s] for s in outcome.winners)
    assert "🏁 **Game over**." in final.content and winners in final.content
    assert "Final scores: " + " · ".join(f"{names[s]}: {points} points" for s, points in enumerate(outcome.scores)) \
        in final.content
    said = final.content.split("-# ")[0]
    assert said.count("wins") + said.count(" win ") <= 1  # the win is said once
    assert translate(outcome.reason, "en").startswith("All tiles are laid")
    assert buttons(final) == [] and final.raw_mentions == []
    check_png_is_real(world, final, renderer, None)
    stored = world.stored(1)
    assert stored.status == "finished" and stored.version == stored.actions == moves
    assert "Game over" in await check_log(world, eve)

    # Every way in was used, and the checks had something to check.
    assert all(count > 0 for count in table.by.values()), table.by
    assert table.autocompletes >= 5 and table.narrowed >= 5
    # One message per turn, edited through the turn: far fewer boards than moves.
    assert 1 < watcher.public_boards < moves and watcher.dm_menus_checked > 10
    assert renderer.real_images >= 8
    assert not any(PRIVATE_LINE.search(r.getMessage()) or HAND_LABEL.search(r.getMessage())
                   for r in caplog.records)


async def test_a_raub_ritter_dm_says_which_server_channel_and_game(world):
    players = [world.player(name) for name in ("alice", "bob", "carol")]
    await world.slash(players[0], "game new", game="raubritter")
    for player in players[1:]:
        await world.click(player, world.latest(), label="Join")
    await world.click(players[0], world.latest(), label="Start")

    channel_url = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}"
    for player in players:
        (dm,) = world.dms(player)
        first_line = dm.content.splitlines()[0]
        assert first_line == f"**{TITLE}** (game #1) in **Ritterrunde** › [#spieltisch]({channel_url})"


# ------------------------------------------------------------------ without Discord


def random_states(seats: int, seed: int):
    """Every state of one game of random moves, with the seat to act."""
    rng = random.Random(seed)
    state = GAME.new_game(seats, seed=seed)
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        yield state, seat
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))


def test_the_board_never_offers_moves_from_a_secret_hand():
    from bot.choices import public_choices

    shown = {"lay": 0, "knights": 0, "keep": 0}
    for seats, seed in ((3, 1), (4, 2)):
        for state, _seat in random_states(seats, seed):
            public = public_choices(GAME, state, seats)
            if state.phase == "knights":
                assert public  # where the knights go depends only on the table: everyone may see it
            if state.phase in shown:
                shown[state.phase] += bool(public)
    # Laying and keeping depend on the hand: always chosen privately, even when the hand could be
    # worked out from the public tiles.
    assert shown["lay"] == shown["keep"] == 0 and shown["knights"]


def layout(view) -> tuple[list[dict], list[dict]]:
    items = [item.to_component_dict() for item in view.children]
    return [i for i in items if i["type"] == 3], [i for i in items if i["type"] == 2]


def test_on_a_phone_the_lay_step_is_one_menu_per_tile_then_end_the_turn():
    from bot.choices import choices_for
    from bot.components import private_view

    state, seat = next((s, seat) for s, seat in random_states(4, 3)
                       if s.phase == "lay" and s.lays_this_turn and len({t[1:] for t in s.hands[seat]}) == 2
                       and len(GAME.legal_actions(s, seat)) > 25)
    menus, buttons_ = layout(private_view(1, 9, choices_for(GAME, state, seat)))

    hand = list(dict.fromkeys(faces(state.hands[seat])))
    squares = GAME.view(state, None)["open_squares"]
    by_face = {face: [m for m in menus if m["options"][0]["value"].split()[1] == face] for face in hand}
    for face, face_menus in by_face.items():
        values = [o["value"] for m in face_menus for o in m["options"]]
        assert values == [f"lay {face} {square}" for square in squares]  # every square, board order
        for menu in face_menus:
            first, last = menu["options"][0]["value"].split()[2], menu["options"][-1]["value"].split()[2]
            assert menu["placeholder"] == f"Lay {label_of(face)} at {first} … {last}"
    assert [b["label"] for b in buttons_] == ["End the turn"]
    assert len(menus) + 1 <= ROWS


def test_the_knights_step_fits_the_board_with_every_way_offered():
    from bot.choices import choices_for
    from bot.components import board_view

    state, seat = next((s, seat) for s, seat in random_states(4, 3)
                       if s.phase == "knights" and len(GAME.legal_actions(s, seat)) > 25)
    menus, buttons_ = layout(board_view(1, 9, choices_for(GAME, state, seat)))

    offered = [o["value"] for m in menus for o in m["options"]]
    assert sorted(offered) == sorted(a.encode() for a in GAME.legal_actions(state, seat))
    assert len(menus) <= ROWS - 1 and [b["label"] for b in buttons_] == ["My hand"]
    assert all(m["placeholder"] and len(m["placeholder"]) <= 150 for m in menus)


def state_version(world) -> int:
    return world.stored(1).version
