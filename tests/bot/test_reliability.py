"""Issue 7, in the simulated Discord: nothing lost, nothing doubled, always an answer.

(The same bot killed for real with SIGKILL and SIGTERM: tests/bot/test_reliability_crash.py.)
"""
from __future__ import annotations

import logging
import sqlite3

import discord
import pytest

import i18n
from bot.__main__ import main
from bot.errors import Refusal, missing_permissions
from bot.info import split_versioned, versioned_value
from bot.storage import restore_file
from bot.store import Storage
from tests.bot.harness import buttons, reply, seat_order, start_table

LONG = "x" * 6000


async def start_pips(world, **kwargs):
    alice, bob = world.player("alice"), world.player("bob")
    await start_table(world, alice, bob, **kwargs)
    return seat_order(world, 1, [alice, bob])


def owed(world, game_id=1) -> bool:
    with sqlite3.connect(world.database_path) as db:
        return bool(db.execute("SELECT board_owed FROM games WHERE id = ?", (game_id,)).fetchone()[0])


def board_version(world) -> int:
    """The version the newest channel board was drawn for, read off its move buttons' custom_ids."""
    ids = [b["custom_id"] for b in buttons(world.latest_board()) if b["custom_id"].startswith(("rk:move:", "rk:tog:"))]
    return int(ids[0].split(":")[3])


# ------------------------------------------------------------------------ exactly once


def test_suggestion_values_carry_their_version():
    assert versioned_value(12, "trump high") == "@12 trump high"
    assert split_versioned("@12 trump high") == (12, "trump high")
    assert split_versioned("trump high") == (None, "trump high")
    assert split_versioned("@x trump") == (None, "@x trump")
    assert versioned_value(3, "a" * 99) == "a" * 99  # too long for a value: plain


async def test_a_retried_move_whose_answer_was_lost_is_already_done_not_applied_again(world):
    starter, other = await start_pips(world)
    value = (await world.autocomplete(starter, "move", "action", "high"))[0]["value"]
    assert value == "@0 trump high"
    # The bot stores the /move and dies before answering: stored, never answered.
    await world.parts.moves.play(starter, game_id=1, action_text="trump high", seen_version=0, typed=True)
    assert world.stored(1).version == 1
    await world.restart()

    retry = reply(await world.slash(starter, "move", action=value))
    assert "Already done" in retry.content and "move #1" in retry.content
    assert world.stored(1).version == 1 and world.stored(1).actions == 1
    # Seen now: the same suggestion again is judged against the new position, like an old button.
    again = reply(await world.slash(starter, "move", action=value))
    assert "offered at move #0" in again.content and "`/move`" in again.content
    assert world.stored(1).version == 1


async def test_a_typed_repeat_after_the_answer_was_seen_is_a_new_move(world):
    starter, other = await start_pips(world)
    answer = reply(await world.slash(starter, "move", action="trump high"))
    assert answer.content.startswith("✅")
    with sqlite3.connect(world.database_path) as db:
        assert db.execute("SELECT answered FROM actions WHERE game_id = 1").fetchall() == [(1,)]
    # Not "already done": judged as a new move (here no longer legal, so refused, not stored).
    again = reply(await world.slash(starter, "move", action="trump high"))
    assert "Already done" not in again.content and world.stored(1).version == 1


async def test_a_stale_suggestion_is_refused_when_the_decision_changed(world):
    starter, other = await start_pips(world)
    await world.slash(starter, "move", action="trump low")
    answer = reply(await world.slash(starter, "move", action="@0 trump high"))
    assert "offered at move #0" in answer.content
    assert world.stored(1).version == 1


# ------------------------------------------------------------------ the board catches up


async def test_a_refused_board_post_counts_says_so_and_is_shown_without_anybody_clicking(world):
    starter, other = await start_pips(world)
    old_board = world.latest_board()
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=503,
                           message="Service Unavailable", times=1)
    result = await world.click(starter, old_board, label="High cards win")
    told = [m.content for m in (result.response, *result.followups) if m is not None and m.ephemeral]
    # Told once that it is not shown yet (and why), and again once it is: nobody clicked meanwhile.
    assert len(told) == 2 and "move #1" in told[0] and "503" in told[0] and "try again" not in told[0].lower()
    board = world.latest_board()
    assert board.id != old_board.id and str(board.id) in told[1] and "#1" in told[1]
    assert not owed(world) and world.stored(1).version == 1
    assert world.pinged(board) == [other.id]  # the next player is called, once
    assert buttons(world.fresh(old_board)) == []  # the old board is history
    # The game goes on.
    await world.slash(other, "move", action=f"play {world.stored_state(1)['hands'][1][0]}")
    assert world.stored(1).version == 2


async def test_boards_owed_when_the_bot_stopped_are_posted_at_start_up(world):
    starter, other = await start_pips(world)
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=500, times=None)
    await world.click(starter, world.latest_board(), label="High cards win")
    assert owed(world)
    before = world.latest_board().id
    world.env.backend.faults.clear()  # Discord is well again while the bot is down

    await world.restart()
    assert world.latest_board().id != before and not owed(world)
    assert "Revealed" not in world.latest_board().content
    assert world.pinged(world.latest_board()) == [other.id]  # the owed board calls who must act
    boards = [m for m in world.bot_messages() if m.attachments]
    assert len(boards) == 2  # the start and this one: posted once


async def test_a_closed_dm_mid_move_still_lets_the_game_go_on(world):
    starter, other = await start_pips(world)
    world.close_dms(other)
    await world.click(starter, world.latest_board(), label="High cards win")
    assert world.stored(1).version == 1
    assert any("could not DM" in m.content for m in world.bot_messages())
    card = world.stored_state(1)["hands"][1][0]
    assert reply(await world.slash(other, "move", action=f"play {card}")).content.startswith("✅")
    assert world.stored(1).version == 2


def test_missing_permissions_are_named_in_both_languages():
    perms = discord.Permissions(view_channel=True, send_messages=True, embed_links=True, read_message_history=True)
    assert missing_permissions(perms) == ["attach_files"]
    assert missing_permissions(perms, in_thread=True) == ["send_messages_in_threads", "attach_files"]
    assert "Dateien anhängen" in i18n.t("de", "bot.errors.perm.attach_files")


async def test_game_new_names_the_permissions_the_bot_lacks(world):
    alice = world.player("alice")
    channel = world.guild.create_text_channel(
        "no-files", overwrites={world.bot.user: discord.PermissionOverwrite(attach_files=False, embed_links=False)})
    answer = reply(await world.slash(alice, "game new", channel=channel, game="pips"))
    assert "I need Attach Files and Embed Links" in answer.content
    with sqlite3.connect(world.database_path) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)


# ------------------------------------------------------------------------ every reply fits


@pytest.mark.parametrize("command, options", [
    ("game new", {"game": LONG}),
    ("game new", {"game": "pips", "options": LONG}),
    ("game new", {"game": "pips", "options": f"{'y' * 150}=1"}),
    ("game rules", {"game": LONG}),
    ("move", {"action": LONG}),
    ("move", {"action": "@1 " + LONG}),
])
async def test_every_command_with_a_6000_character_argument_is_answered(world, command, options):
    if command == "move":
        await start_pips(world)
    user = world.player("zed")
    answer = reply(await world.slash(user, command, **options))
    assert answer is not None and 0 < len(answer.content) <= 2000
    assert LONG[:100] not in answer.content


async def test_long_autocomplete_input_is_answered(world):
    starter, _ = await start_pips(world)
    assert await world.autocomplete(starter, "move", "action", LONG) == []


async def test_ids_out_of_range_are_refused_not_crashed(world):
    starter, _ = await start_pips(world)
    service = world.parts.info
    for game_id in (2**63, 2**64 + 5, 0, -1):
        with pytest.raises(Refusal):
            await service.hand(starter, game_id=game_id)
    with pytest.raises(Refusal):
        await service.toggled_view(starter, game_id=1, seen_version=0, mask=1 << 5000, on_board=True)


# ------------------------------------------------------------------------- /game board


async def test_game_board_posts_once_a_minute_for_players_and_privately_for_others(world):
    starter, other = await start_pips(world)
    outsider = world.player("zoe")
    before = world.latest_board().id

    assert reply(await world.slash(other, "game board")).content == i18n.t("en", "bot.errors.board_posted")
    posted = world.latest_board().id
    assert posted != before
    too_soon = reply(await world.slash(starter, "game board"))
    assert "once a minute" in too_soon.content and str(posted) in too_soon.content
    for _ in range(3):
        private = reply(await world.slash(outsider, "game board"))
        assert private.ephemeral and world.png(private) is not None and "only you" in private.content
    assert world.latest_board().id == posted

    world.parts.info.board_posted_at.clear()  # a minute later
    await world.slash(starter, "game board")
    assert world.latest_board().id != posted


# ------------------------------------------------------------------------ log, durability


async def test_one_info_line_per_move_and_per_lobby_change(world, caplog):
    caplog.set_level(logging.INFO, logger="bot")
    starter, other = await start_pips(world)
    await world.click(starter, world.latest_board(), label="High cards win")
    moves = [r.getMessage() for r in caplog.records if r.getMessage().startswith("move ")]
    assert len(moves) == 1
    assert f"game=1 channel={world.channel.id} seat=0 action='trump high' version=1 took=" in moves[0]
    lobby = [r.getMessage() for r in caplog.records if r.getMessage().startswith("lobby ")]
    assert [line.split(" ", 4)[-1].split()[0] for line in lobby] == ["opened", "joined", "started"]


async def test_a_refused_board_is_logged_as_a_warning_with_game_channel_and_version(world, caplog):
    starter, other = await start_pips(world)
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=502, times=1)
    with caplog.at_level(logging.INFO, logger="bot"):
        await world.click(starter, world.latest_board(), label="High cards win")
    warning = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING][0]
    assert "board of game 1" in warning and f"channel {world.channel.id}" in warning and "version 1" in warning
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # Discord's trouble is no bug of ours


async def test_the_database_is_durable_on_power_loss(tmp_path):
    storage = await Storage.open(tmp_path / "x.sqlite3")
    try:
        assert (await storage.database.row("PRAGMA synchronous"))[0] == 2  # FULL
    finally:
        await storage.close()


# ---------------------------------------------------------------------------- back-ups


async def test_a_backup_restores_to_a_database_the_bot_starts_on_with_every_game_intact(world, tmp_path):
    starter, other = await start_pips(world)
    await world.click(starter, world.latest_board(), label="High cards win")
    bot = world.bot
    bot.backup_dir, bot.backup_keep = tmp_path / "backups", 2
    first = await bot.backup_now()
    kept = tmp_path / "kept.sqlite3"
    kept.write_bytes(first.read_bytes())
    saved = world.stored(1)
    card = world.stored_state(1)["hands"][1][0]
    await world.slash(other, "move", action=f"play {card}")  # after the back-up: lost by the restore
    assert world.stored(1).version == 2
    for _ in range(2):
        await bot.backup_now()
    assert first not in bot.backups() and len(bot.backups()) == 2  # only the newest kept

    await bot.close_storage()
    assert main({"DATABASE_PATH": str(world.database_path)}, ["restore", str(kept)]) == 0
    assert world.stored(1) == saved
    await world.restart()
    # Every game intact, and play goes on from the backed-up position.
    assert reply(await world.slash(other, "move", action=f"play {card}")).content.startswith("✅")
    assert world.stored(1).version == 2


def test_restore_refuses_a_file_that_is_not_a_database_of_this_bot(tmp_path):
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("not a database")
    with pytest.raises(ValueError):
        restore_file(junk, tmp_path / "bot.sqlite3")
    assert not (tmp_path / "bot.sqlite3").exists()
