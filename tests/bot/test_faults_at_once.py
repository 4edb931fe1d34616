"""Six ways a board or a notice went wrong in a long run under overlapping faults, each on its
own, through the simulated Discord that fails (tests/bot/hostile.py):

1. a retried post of a new turn that Discord answers with the first message as it was;
2. channel notices whose nonce repeated (their store ids are reused);
3. a turn message left with live buttons (a move began the next turn while it was being posted);
4. a board deleted while the bot could not hear it (stopped, or a new gateway session);
5. a new `/move` taken for a retry of an older one;
6. an edit that lands after a newer one.
"""
from __future__ import annotations

import logging

import pytest

from bot.delivery.requests import REQUEST_TIMEOUT
from tests.bot.harness import buttons, reply, seat_order, start_table, to_act
from tests.bot.hostile import HostileDiscord
from tests.bot.test_failing_discord import (
    boards_in_channel,
    delivered,
    knatsch_with_a_die_to_roll_again,
    nothing_owed,
    owed,
    start_pips,
)


@pytest.fixture
def hostile(world, monkeypatch):
    return HostileDiscord(world, monkeypatch)


def versions_shown(world, message) -> set[int]:
    """The versions a message's move buttons were made for."""
    return {int(b["custom_id"].split(":")[3]) for b in buttons(world.fresh(message))
            if b["custom_id"].startswith(("rk:move:", "rk:tog:"))}


def live_messages(world, channel=None) -> list:
    """The bot's channel messages that still offer a move (buttons of a version)."""
    return [m for m in world.bot_messages(channel) if versions_shown(world, m)]


def assert_only_the_newest_board_is_live(world) -> None:
    live = live_messages(world)
    assert len(live) <= 1 and all(m.id == world.latest_board().id for m in live), \
        [(m.id, versions_shown(world, m), m.content) for m in live]


# ----------------------------------------------------------- 1. a retried new turn post


async def test_a_retried_turn_post_answered_with_the_older_message_is_brought_up_to_date(world, hostile):
    alice, bob = await start_pips(world)
    # The new turn's post is made, but its answer is lost: the bot tries it again later.
    hostile.hang("POST", f"/channels/{world.channel.id}/messages", seconds=12.0, lost_answer=True)
    await world.click(alice, world.latest_board(), label="High cards win")
    card = world.stored_state(1)["hands"][1][0]
    assert reply(await world.slash(bob, "move", action=f"play {card}")).content.startswith("✅")
    await world.env.advance_time(REQUEST_TIMEOUT + 1)
    assert await delivered(world)
    # Discord answered the retry with the first message as it was: it is edited to the newest.
    board = world.fresh(world.latest_board())
    assert len(boards_in_channel(world)) == 2
    assert "**Bob** has chosen a card" in board.content, board.content
    assert world.query("SELECT board_message_id, board_version FROM games WHERE id = 1") == [(board.id, 2)]


# ---------------------------------------------------------------- 2. notices swallowed


async def test_every_channel_notice_is_posted_though_their_store_ids_repeat(world, hostile):
    alice, bob = await start_pips(world)
    for text in ("Anna is away.", "Bert is away."):  # each delivered before the next is stored
        with world.env._bot_scope():
            await world.parts.moves.notify(1, text)
        await world.env.settle()
    texts = [m.content for m in world.bot_messages()]
    assert "Anna is away." in texts and "Bert is away." in texts


# ----------------------------------------------------- 3. live buttons left behind


async def round_one_but_its_last_card(world, alice, bob):
    """Round 1 of Pips, high cards winning, to its last card, played by the player who loses the
    round: the next post is then a new turn for the winner, who picks high or low on its buttons.
    Returns (the loser and their card, the winner)."""
    await world.click(alice, world.latest_board(), label="High cards win")
    hands = world.stored_state(1)["hands"]
    (winner, best), (loser, card) = sorted(((p, max(hands[world.seats(1)[p.id]])) for p in (alice, bob)),
                                           key=lambda pair: -pair[1])
    assert reply(await world.slash(winner, "move", action=f"play {best}")).content.startswith("✅")
    return loser, card, winner


async def test_a_turn_message_posted_while_the_next_turn_began_loses_its_buttons(world, hostile):
    alice, bob = await start_pips(world)
    loser, card, winner = await round_one_but_its_last_card(world, alice, bob)
    # Round 2's message (the winner's pick, on buttons) is made, but its answer is slow to come;
    # meanwhile the winner picks by /move, and the turn after it begins.
    hostile.hang("POST", f"/channels/{world.channel.id}/messages", seconds=12.0, lost_answer=True)
    assert reply(await world.slash(loser, "move", action=f"play {card}")).content.startswith("✅")
    assert reply(await world.slash(winner, "move", action="trump high")).content.startswith("✅")
    await world.env.advance_time(REQUEST_TIMEOUT + 1)
    assert await delivered(world)
    assert_only_the_newest_board_is_live(world)


async def test_a_turn_post_that_lands_after_the_bot_gave_up_loses_its_buttons(world, hostile):
    alice, bob = await start_pips(world)
    loser, card, winner = await round_one_but_its_last_card(world, alice, bob)
    # Discord makes round 2's message only long after the bot stopped waiting for it; meanwhile
    # the winner picks by /move and the game goes on.
    hostile.hang("POST", f"/channels/{world.channel.id}/messages", seconds=REQUEST_TIMEOUT + 30, lands_late=True)
    hostile.fail("POST", f"/channels/{world.channel.id}/messages", 503, times=2)  # and the retries fail
    assert reply(await world.slash(loser, "move", action=f"play {card}")).content.startswith("✅")
    assert reply(await world.slash(winner, "move", action="trump high")).content.startswith("✅")
    await world.env.advance_time(60)
    assert await delivered(world)
    assert_only_the_newest_board_is_live(world)


# ----------------------------------------- 4. deleted while the bot could not hear it


async def test_a_board_deleted_while_the_bot_was_stopped_is_posted_again_at_the_start(world, hostile):
    alice, bob = await start_pips(world)
    await world.click(alice, world.latest_board(), label="High cards win")
    board = world.latest_board()
    await world.bot.close_storage()  # stopped: it hears nothing
    hostile.delete_unheard(board)
    await world.env.restart_bot(world.factory())
    await world.env.advance_time(5)
    again = world.latest_board()
    assert again.id != board.id and buttons(again) and nothing_owed(world)


async def test_a_board_deleted_during_a_gateway_outage_that_ends_in_a_new_session_is_posted_again(world, hostile):
    alice, bob = await start_pips(world)
    await world.click(alice, world.latest_board(), label="High cards win")
    board = world.latest_board()
    hostile.delete_unheard(board)  # during the outage: Discord does not tell the bot
    with world.env._bot_scope():
        await world.parts.deliveries.new_session()  # READY after the outage: nothing is replayed
    await world.env.advance_time(5)
    again = world.latest_board()
    assert again.id != board.id and buttons(again) and nothing_owed(world)


# ------------------------------------------------------ 5. a new /move is not a retry


async def test_a_typed_move_offered_at_a_newer_version_is_a_new_move_not_a_retry(tmp_path, monkeypatch):
    from games import REGISTRY
    from tests.bot.harness import SketchRenderer, simulated_discord

    async with simulated_discord(tmp_path / "bot.sqlite3", games={"knatsch": REGISTRY["knatsch"]}, seed=3,
                                 render=SketchRenderer()) as world:
        hostile = HostileDiscord(world, monkeypatch)
        people = [world.player(name) for name in ("anna", "bruno")]
        await start_table(world, *people, game="knatsch")
        first = to_act(world, seat_order(world, 1, people))[0]
        game = REGISTRY["knatsch"]

        def offered(text: str) -> str:
            state = game.from_dict(world.stored_state(1))
            seat = world.seats(1)[first.id]
            assert text in [a.encode() for a in game.legal_actions(state, seat)], text
            return f"@{world.stored(1).version} {text}"

        legal = game.legal_actions(game.from_dict(world.stored_state(1)), world.seats(1)[first.id])
        target = next(a.encode() for a in legal if a.encode().startswith("target"))
        assert reply(await world.slash(first, "move", action=offered(target))).content.startswith("✅")
        # The re-roll is stored, but its answer never reaches the player.
        hostile.fail("POST", "/webhooks/*", 500, times=None)
        await world.slash(first, "move", action=offered("reroll 1"))
        hostile.clear()
        version = world.stored(1).version
        assert world.query("SELECT answered FROM actions WHERE game_id = 1 AND version = ?", (version,)) == [(0,)]
        # The same words offered at the newer version: a new re-roll, not the old one again.
        answer = reply(await world.slash(first, "move", action=offered("reroll 1"))).content
        assert answer.startswith("✅") and world.stored(1).version == version + 1, answer
        # The retry of the same offer is still "already done".
        again = reply(await world.slash(first, "move", action=f"@{version} reroll 1")).content
        assert world.stored(1).version == version + 1, again


# --------------------------------------------------------- 6. a late edit


async def play_a_card(world, player) -> None:
    card = world.stored_state(1)["hands"][world.seats(1)[player.id]][0]
    await world.slash(player, "move", action=f"play {card}")


async def a_card_whose_board_edit_lands_late(world, hostile, *, seconds: float):
    """Three at Pips, high cards winning: the second player's card, whose board edit hangs
    `seconds` and is carried out by Discord only then, long after the bot gave up on it."""
    first, second, third = await start_pips(world, "alice", "bob", "carl")
    await world.click(first, world.latest_board(), label="High cards win")
    board = world.latest_board()
    hostile.hang("PATCH", f"/channels/{world.channel.id}/messages/{board.id}", seconds=seconds, lands_late=True)
    await play_a_card(world, second)
    await world.env.advance_time(REQUEST_TIMEOUT + 2)
    return first, second, third, board


async def test_an_edit_that_may_still_land_is_followed_by_the_newest_board_only_once_it_has(world, hostile):
    first, second, third, board = await a_card_whose_board_edit_lands_late(world, hostile, seconds=15.0)
    # The third player's card in the same turn: its edit waits for the hung one, which would
    # land over it and take the board back.
    await play_a_card(world, third)
    assert "has chosen a card" not in world.fresh(board).content
    await world.env.advance_time(60)
    assert await delivered(world)
    assert world.latest_board().id == board.id
    assert world.fresh(board).content.count("has chosen a card") == 2
    shown = hostile.versions_shown(board)
    assert shown == sorted(shown), f"the board went back: {shown}"


# ------------------------------------------------------------------------- smaller


async def test_an_answer_discord_refuses_is_a_warning_not_an_unhandled_error(world, hostile, caplog):
    alice, bob = await start_pips(world)
    hostile.fail("POST", "/interactions/*/callback", 503, times=1)  # /move's "thinking…"
    with caplog.at_level(logging.INFO):
        await world.slash(alice, "move", action="trump high")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    warned = [r for r in caplog.records if r.getMessage().startswith("Discord did not take an answer")]
    assert len(warned) == 1 and warned[0].levelno == logging.WARNING and warned[0].exc_info is None


async def test_an_autocomplete_answer_discord_refuses_is_one_warning_line(world, hostile, caplog):
    alice, bob = await start_pips(world)
    hostile.fail("POST", "/interactions/*/callback", 503, times=2)
    with caplog.at_level(logging.INFO):
        await world.autocomplete(alice, "move", "action", "")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r for r in caplog.records if "Discord did not take the answer" in r.getMessage()
            and r.levelno == logging.WARNING and r.exc_info is None]


async def test_a_game_backing_off_after_discord_s_trouble_is_woken_when_discord_answers_again(world, hostile):
    alice, bob = await start_pips(world)
    other_channel = world.guild.create_text_channel("nebentisch")
    carl, dora = world.player("carl"), world.player("dora")
    await start_table(world, carl, dora, channel=other_channel)
    # A storm of 503s on this channel: the board's post backs off, at last for a minute (the
    # tests' backoff, tests/bot/conftest.py).
    hostile.fail("POST", f"/channels/{world.channel.id}/messages", 503, times=4)
    await world.click(alice, world.latest_board(), label="High cards win")
    await world.env.advance_time(5)
    assert owed(world)["board"]
    # Discord answers again (another table's move goes through): the board follows at once,
    # not after the rest of its pause.
    first = to_act(world, seat_order(world, 2, [carl, dora]), other_channel)[0]
    await world.click(first, world.latest_board(other_channel), label="High cards win")
    assert nothing_owed(world, 2) and nothing_owed(world), (owed(world, 2), owed(world))


async def test_an_edit_that_lands_late_on_a_message_made_history_meanwhile_is_undone_after_a_restart(world, hostile):
    first, second, third, board = await a_card_whose_board_edit_lands_late(world, hostile, seconds=20.0)
    for player in (first, third):  # the round ends: its message becomes history (once the hung edit landed)
        await play_a_card(world, player)
    assert world.latest_board().id != board.id
    await world.restart()  # the bot is killed before the hung edit lands, and starts again
    await world.env.advance_time(60)
    assert await delivered(world)
    history = world.fresh(board).content
    assert "waiting for" not in history and "has chosen a card" in history, history
    assert not buttons(world.fresh(board)) or not versions_shown(world, board)


async def test_the_same_button_clicked_again_before_its_board_is_redrawn_counts_once(tmp_path, monkeypatch):
    """A re-roll clicked twice on the same board (its answer and its redraw failed, so the
    player tries again): Knatsch allows the same re-roll again, but the second click is the
    first one repeated, not a new move."""
    from games import REGISTRY
    from tests.bot.harness import SketchRenderer, simulated_discord

    async with simulated_discord(tmp_path / "bot.sqlite3", games={"knatsch": REGISTRY["knatsch"]}, seed=3,
                                 render=SketchRenderer()) as world:
        hostile = HostileDiscord(world, monkeypatch)
        first, board, reroll = await knatsch_with_a_die_to_roll_again(world)
        hostile.fail("POST", "/interactions/*/callback", 500, times=None)
        hostile.fail("PATCH", f"/channels/{world.channel.id}/messages/*", 500, times=None)
        version = world.stored(1).version
        await world.click(first, board, custom_id=reroll["custom_id"])
        assert world.stored(1).version == version + 1
        await world.click(first, world.fresh(board), custom_id=reroll["custom_id"])  # again
        assert world.stored(1).version == version + 1
        hostile.clear()
        assert await delivered(world)
