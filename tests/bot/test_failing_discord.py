"""A Discord that fails (tests/bot/hostile.py): 5xx and 429 answers, hangs, lost answers, a
moderator deleting the board, permissions revoked and restored, DMs closed and reopened, a
dropped gateway. Every move is stored once; every board and DM becomes current by itself,
without anybody clicking or typing; the next player is pinged once; no game waits for another
game's hanging request, or for its own."""
from __future__ import annotations

import logging
import random
import sqlite3

import pytest

from bot.delivery.requests import REQUEST_TIMEOUT
from bot.timing import Durations
from games import REGISTRY
from tests.bot.harness import (
    SketchRenderer,
    bot_factory,
    buttons,
    latest_dm_with_moves,
    reply,
    seat_order,
    start_table,
    take_turn,
    to_act,
)
from tests.bot.hostile import HostileDiscord
from tests.sampling import exhaustive


@pytest.fixture
def hostile(world, monkeypatch):
    return HostileDiscord(world, monkeypatch)


async def start_pips(world, *names: str, **kwargs):
    people = [world.player(name) for name in (names or ("alice", "bob"))]
    await start_table(world, *people, **kwargs)
    return seat_order(world, 1, people)


async def knatsch_with_a_die_to_roll_again(world):
    """A two-player Knatsch table whose first player has attacked and tapped one die: the
    player, their board and its "Roll again" button."""
    from tests.bot.harness import move_buttons, toggle_buttons

    people = [world.player(name) for name in ("anna", "bruno")]
    await start_table(world, *people, game="knatsch")
    first = to_act(world, seat_order(world, 1, people))[0]
    target = next(b for b in move_buttons(world.latest_board()) if ":target " in b["custom_id"])
    await world.click(first, world.latest_board(), custom_id=target["custom_id"])
    board = world.latest_board()
    await world.click(first, board, custom_id=toggle_buttons(board)[0]["custom_id"])  # a die to roll again
    board = world.fresh(board)
    return first, board, next(b for b in move_buttons(board) if ":reroll " in b["custom_id"])


def owed(world, game_id: int = 1) -> dict:
    """What the game still owes Discord, as stored."""
    with sqlite3.connect(world.database_path) as db:
        board = db.execute("SELECT board_owed FROM games WHERE id = ?", (game_id,)).fetchone()[0]
        dms = db.execute("SELECT seat FROM seat_dms WHERE game_id = ? AND owed IS NOT NULL", (game_id,)).fetchall()
        posts = db.execute("SELECT COUNT(*) FROM deliveries WHERE game_id = ?", (game_id,)).fetchone()[0]
    return {"board": bool(board), "dms": sorted(seat for (seat,) in dms), "posts": posts}


def nothing_owed(world, game_id: int = 1) -> bool:
    return owed(world, game_id) == {"board": False, "dms": [], "posts": 0}


async def delivered(world, game_id: int = 1, *, within: float = 120.0) -> bool:
    """Let the simulated clock run (Discord's hangs time out, pauses before a retry pass) until
    the game owes Discord nothing, for at most `within` seconds of it. Nobody clicks meanwhile."""
    waited = 0.0
    while not nothing_owed(world, game_id) and waited < within:
        await world.env.advance_time(2.0)
        waited += 2.0
    return nothing_owed(world, game_id)


def board_version(world) -> int | None:
    """The version the channel's newest board was drawn for (read off its buttons), if it has any."""
    ids = [b["custom_id"] for b in buttons(world.latest_board()) if b["custom_id"].startswith(("rk:move:", "rk:tog:"))]
    return int(ids[0].split(":")[3]) if ids else None


def boards_in_channel(world) -> list:
    return [m for m in world.bot_messages() if m.attachments]


# ------------------------------------------------------------------------------ a hang


async def test_a_hanging_board_post_holds_neither_its_game_nor_another(world, hostile):
    alice, bob = await start_pips(world)
    other_channel = world.guild.create_text_channel("nebentisch")
    carl, dora = world.player("carl"), world.player("dora")
    await start_table(world, carl, dora, channel=other_channel)
    hostile.hang("POST", f"/channels/{world.channel.id}/messages", seconds=12.0, lost_answer=True)
    await world.click(alice, world.latest_board(), label="High cards win")  # answered at once: stored
    assert world.stored(1).version == 1 and owed(world)["board"]
    # The game's lock is not held by the hanging post: the next move is taken at once.
    card = world.stored_state(1)["hands"][1][0]
    assert reply(await world.slash(bob, "move", action=f"play {card}")).content.startswith("✅")
    assert world.stored(1).version == 2
    # Another game goes on meanwhile, board and all.
    first = to_act(world, seat_order(world, 2, [carl, dora]), other_channel)[0]
    start_board = world.latest_board(other_channel)
    await world.click(first, start_board, label="High cards win")
    assert world.stored(2).version == 1 and nothing_owed(world, 2)
    assert world.latest_board(other_channel).id != start_board.id
    # The hang runs out: the newest board is shown, once (Discord made the hung post already:
    # the retry with the same nonce gets that message back, not a second one).
    await world.env.advance_time(REQUEST_TIMEOUT + 1)
    assert nothing_owed(world)
    assert len(boards_in_channel(world)) == 2  # the start's and one for both moves
    assert world.query("SELECT board_version FROM games WHERE id = 1") == [(2,)]


async def test_a_click_s_answer_that_lands_late_never_takes_the_board_back(tmp_path, monkeypatch):
    """The soak's board going back: a click's answer (its board edited) reached Discord in time
    but is carried out only 20 s later, after the bot gave up waiting for it; a newer move in the
    same turn meanwhile must not be shown before it lands, or the late answer takes the board back
    to the older version. Once it has landed the newest board follows, by itself."""
    from tests.bot.harness import simulated_discord

    async with simulated_discord(tmp_path / "bot.sqlite3", games={"knatsch": REGISTRY["knatsch"]}, seed=3,
                                 render=SketchRenderer()) as world:
        hostile = HostileDiscord(world, monkeypatch)
        first, board, reroll = await knatsch_with_a_die_to_roll_again(world)
        hostile.hang("POST", "/interactions/*/callback", seconds=20.0, lands_late=True)
        await world.click(first, world.fresh(board), custom_id=reroll["custom_id"])
        rolled = world.stored(1).version
        await world.env.advance_time(REQUEST_TIMEOUT + 2)  # the answer is given up on; it lands at 20 s
        # The same player rolls again (a newer version of the same turn's board).
        answer = reply(await world.slash(first, "move", action=f"@{rolled} reroll 1")).content
        assert answer.startswith("✅") and world.stored(1).version == rolled + 1, answer
        assert await delivered(world)
        assert world.latest_board().id == board.id
        shown = hostile.versions_shown(board)
        assert rolled in shown and shown[-1] == rolled + 1, shown
        assert shown == sorted(shown), f"the board went back: {shown}"


# ------------------------------------------------------------------- permissions


async def test_a_revoked_permission_tells_the_host_once_and_the_game_comes_back_when_it_is_restored(world, hostile):
    alice, bob = await start_pips(world)
    hostile.revoke(world.channel, "send_messages")
    await world.click(alice, world.latest_board(), label="High cards win")
    assert world.stored(1).version == 1 and owed(world)["board"]
    host_dms = [m.content for dms in (world.dms(alice), world.dms(bob)) for m in dms if "is waiting" in m.content]
    assert len(host_dms) == 1 and "Send Messages" in host_dms[0]
    # Moves go on by /move and DMs; the host is not told again.
    card = world.stored_state(1)["hands"][1][0]
    assert reply(await world.slash(bob, "move", action=f"play {card}")).content.startswith("✅")
    assert len([m for dms in (world.dms(alice), world.dms(bob)) for m in dms if "is waiting" in m.content]) == 1
    before = len(boards_in_channel(world))
    hostile.restore(world.channel)  # Discord tells the bot the channel changed: nobody clicks
    await world.env.settle()
    assert nothing_owed(world) and len(boards_in_channel(world)) == before + 1
    assert board_version(world) in (None, world.stored(1).version)


# --------------------------------------------------------------------- deletion


async def test_a_board_deleted_by_a_moderator_is_posted_again_and_calls_the_player(world, hostile):
    alice, bob = await start_pips(world)
    await world.click(alice, world.latest_board(), label="High cards win")
    board = world.latest_board()
    await hostile.delete_as_moderator(board)
    again = world.latest_board()
    assert again.id != board.id and buttons(again) and nothing_owed(world)
    assert set(world.pinged(again)) == {alice.id, bob.id}  # both choose a card now


# -------------------------------------------------------------------------- DMs


async def test_closed_dms_are_tried_again_when_the_player_is_back_and_their_stale_buttons_go(world, hostile):
    alice, bob = await start_pips(world)
    hostile.close_dms(bob)
    await world.click(alice, world.latest_board(), label="High cards win")
    notices = [m for m in world.bot_messages() if "could not DM" in m.content]
    assert len(notices) == 1  # said once, not at every move
    assert owed(world)["dms"] == [world.seats(1)[bob.id]]
    hostile.reopen_dms(bob)
    world.parts.deliveries.dms.durations = Durations(dm_retry_on_return=0)  # as if Bob came back a while later
    await world.slash(bob, "game status")  # any interaction: Bob is back
    assert nothing_owed(world)
    assert latest_dm_with_moves(world, bob) is not None  # the card to play, by DM


async def test_closed_dms_are_tried_again_after_some_hours_without_anybody_doing_anything(tmp_path, monkeypatch):
    from bot.scheduler import FakeClock
    from tests.bot import fakegame
    from tests.bot.harness import simulated_discord

    clock = FakeClock()

    def render(view, names, lang="en"):
        return fakegame.render(view, names)

    factory = bot_factory(tmp_path / "bot.sqlite3", games={"pips": fakegame.GAME}, seed=7, render=render)

    def with_clock():
        bot = factory()
        bot.scheduler.clock = clock
        return bot

    async with simulated_discord(tmp_path / "bot.sqlite3", games={"pips": fakegame.GAME}, seed=7,
                                 render=render) as world:
        world.factory = with_clock
        await world.restart()
        hostile = HostileDiscord(world, monkeypatch)
        alice, bob = await start_pips(world)
        hostile.close_dms(bob)
        await world.click(alice, world.latest_board(), label="High cards win")
        assert owed(world)["dms"]
        hostile.reopen_dms(bob)
        clock.advance(5 * 3600)
        await world.run_timers()
        await world.env.settle()
        assert owed(world)["dms"]  # not yet
        clock.advance(2 * 3600)
        await world.run_timers()
        await world.env.settle()
        assert nothing_owed(world) and latest_dm_with_moves(world, bob) is not None


async def test_an_old_dm_whose_buttons_could_not_be_taken_off_loses_them_once_discord_answers(world, hostile):
    """A seat's new DM goes out only once its old one has lost its buttons: the seat's row then
    forgets the old DM, and nothing would take them off later (the soak's "stale live buttons")."""
    alice = world.player("alice", manage_server=True)
    bob, dora = world.player("bob"), world.player("dora")
    await start_table(world, alice, bob)
    await world.click(alice, world.latest_board(), label="High cards win")
    old = latest_dm_with_moves(world, bob)
    assert old is not None and nothing_owed(world)
    seat = world.seats(1)[bob.id]
    hostile.fail("PATCH", f"/channels/{old.channel.id}/messages/{old.id}", 500, times=None)
    await world.slash(alice, "game replace", old=bob, new=dora)
    assert seat in owed(world)["dms"]
    assert latest_dm_with_moves(world, dora) is None  # not before Bob's buttons are off
    hostile.clear()
    assert await delivered(world)
    assert all(not buttons(message) for message in world.dms(bob))
    assert latest_dm_with_moves(world, dora) is not None


# ----------------------------------------------------------------------- gateway


async def test_clicks_lost_to_a_gateway_outage_are_one_info_line_each_not_errors(world, hostile, caplog):
    alice, bob = await start_pips(world)
    hostile.gateway_down()
    with caplog.at_level(logging.INFO, logger="bot"):
        await world.click(alice, world.latest_board(), label="High cards win")
    lost = [r for r in caplog.records if r.getMessage().startswith("Click lost")]
    assert len(lost) == 1 and lost[0].levelno == logging.INFO
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert world.stored(1).version == 0  # Discord's rule: a click it gave up made no move
    hostile.gateway_up()
    await world.click(alice, world.latest_board(), label="High cards win")
    assert world.stored(1).version == 1


# -------------------------------------------------------------------- restarts


async def test_deliveries_owed_at_a_restart_are_made_once_after_it(world, hostile):
    alice, bob = await start_pips(world)
    hostile.fail("POST", "/channels/*/messages", 500, times=None)  # the channel and every DM
    await world.click(alice, world.latest_board(), label="High cards win")
    assert owed(world)["board"] and owed(world)["dms"]
    hostile.clear()
    dms_before = [len(world.dms(p)) for p in (alice, bob)]
    await world.restart()
    assert nothing_owed(world)
    assert len(boards_in_channel(world)) == 2
    # The mover's open DM is edited, the other player's new decision is a new DM: each once.
    assert [len(world.dms(p)) - n for p, n in zip((alice, bob), dms_before)] == [0, 1]
    assert all(latest_dm_with_moves(world, p) is not None for p in (alice, bob))
    await world.restart()
    assert len(boards_in_channel(world)) == 2  # nothing again


# ------------------------------------------------------------- whole games, every game


SAMPLE_MOVES = 60  # moves of each game by default; to the game's end with --exhaustive
GAMES = [("knatsch", 3), ("raubritter", 3), ("macrobber", 3), ("gluecksritter", 4), ("carcassonne", 2)]
FAULTS = [("POST", "/channels/{channel}/messages", 503), ("PATCH", "/channels/{channel}/messages/*", 502),
          ("POST", "/channels/{channel}/messages", 429), ("POST", "/channels/*/messages", 500),
          ("POST", "/users/@me/channels", 502)]


@pytest.mark.parametrize("name,players", GAMES, ids=[name for name, _ in GAMES])
async def test_whole_games_under_a_failing_discord_store_every_move_once_and_show_it(tmp_path, monkeypatch,
                                                                                     name, players):
    from tests.bot.harness import simulated_discord

    game = REGISTRY[name]
    async with simulated_discord(tmp_path / "bot.sqlite3", games={name: game}, seed=3,
                                 render=SketchRenderer()) as world:
        hostile = HostileDiscord(world, monkeypatch)
        people = [world.player(n) for n in ("anna", "bruno", "clara", "dora")[:players]]
        await start_table(world, *people, game=name)
        people = seat_order(world, 1, people)
        rng = random.Random(11)
        moves = handovers = 0
        while world.stored(1).status == "active":
            assert moves < 800
            if moves >= SAMPLE_MOVES and not exhaustive():  # the default sample (tests/sampling.py)
                break
            # Discord fails now and then: one fault at a time, each for one request.
            if rng.random() < 0.3 and not world.env.backend.faults:
                method, path, status = rng.choice(FAULTS)
                hostile.fail(method, path.format(channel=world.channel.id), status, times=1)
            if rng.random() < 0.05 and not hostile.hangs:
                hostile.hang("POST", f"/channels/{world.channel.id}/messages", lost_answer=rng.random() < 0.5)
            version = world.stored(1).version
            waiting_before = game.to_act(game.from_dict(world.stored_state(1)))
            await take_turn(world, to_act(world, people)[0], rng)
            moves += 1
            stored = world.stored(1)
            # Stored once (a move only one can make may follow it at once: stored once too).
            assert stored.version >= version + 1 and stored.actions == stored.version
            # Shown without anybody clicking: nothing owed any more once Discord answers again.
            assert await delivered(world), (moves, owed(world))
            if stored.status != "active":
                break
            waiting = game.to_act(game.from_dict(world.stored_state(1)))
            newcomers = waiting - waiting_before
            if newcomers:
                handovers += 1
                board = world.latest_board()
                # once, them alone
                assert sorted(world.pinged(board)) == sorted(people[s].id for s in newcomers), (
                    waiting_before, waiting, board.content)
        assert moves > 10
        # No request reads a message back: the bot keeps what it needs.
        assert not [r for r in hostile.requests if r[0] == "GET" and "/messages" in r[1]]
