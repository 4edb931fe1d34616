"""Bad input gets a short ephemeral answer saying what is wrong, and the stored game stays as it was."""
from __future__ import annotations

import pytest

from tests.bot.harness import latest_dm_with_moves, move_buttons, play_to_end, reply, seat_order, start_table


@pytest.fixture
async def table(world):
    """A started 2-player game of Pips; returns (starter, other) in seat order."""
    players = [world.player("alice"), world.player("bob")]
    await start_table(world, *players)
    return seat_order(world, 1, players)


def assert_refused(result, *phrases):
    # A click on an ephemeral reply: its `response` is that reply; the refusal is a followup.
    answer = next((m for m in result.followups if m.ephemeral), None) or reply(result)
    assert answer is not None and answer.ephemeral, "expected an ephemeral refusal"
    assert answer.content.startswith("⚠️ ") and len(answer.content) < 300
    for phrase in phrases:
        assert phrase in answer.content


async def test_a_non_player_is_refused(world, table):
    before = world.stored(1)
    outsider = world.player("zoe")

    assert_refused(await world.slash(outsider, "move", action="trump high"), "not playing in this game")
    assert_refused(await world.click(outsider, world.latest_board(), label="High cards win"), "not playing")
    assert_refused(await world.click(outsider, world.latest_board(), label="My hand"), "not playing")
    assert_refused(await world.slash(outsider, "game resign"), "not playing")

    assert world.stored(1) == before


async def test_out_of_turn_is_refused_with_who_is_to_act(world, table):
    starter, other = table
    before = world.stored(1)

    result = await world.slash(other, "move", action="trump high")
    assert_refused(result, "not your turn", f"**{starter.name.capitalize()}**")
    assert_refused(await world.click(other, world.latest_board(), label="Low cards win"), "not your turn")

    assert world.stored(1) == before


@pytest.mark.parametrize("junk", ["trump sideways", "xyzzy", "play 999", "   ", "a" * 90])
async def test_junk_move_text_is_refused(world, table, junk):
    starter, _ = table
    before = world.stored(1)

    result = await world.slash(starter, "move", action=junk)

    answer = reply(result)
    assert answer.ephemeral and answer.content.startswith("⚠️ ")
    assert any(hint in answer.content for hint in ("not a legal move", "empty", "too long"))
    assert world.stored(1) == before


async def test_a_stale_button_is_refused_politely(world, table):
    starter, other = table
    start_dm = reply(await world.slash(starter, "game hand"))  # trump buttons made at version 0
    await world.click(starter, world.latest_board(), label="High cards win")
    before = world.stored(1)

    result = await world.click(starter, start_dm, label="Low cards win")

    assert_refused(result, "That board is out of date — use the latest one",
                   f"/channels/{world.guild.id}/{world.channel.id}/{world.latest_board().id}")
    assert world.stored(1) == before


async def test_your_own_older_choice_is_stale_once_you_moved(world, table):
    starter, other = table
    await world.click(starter, world.latest_board(), label="High cards win")
    dm = latest_dm_with_moves(world, other)
    hand = reply(await world.slash(other, "game hand"))  # the same choices, in a reply that is never edited
    await world.click(other, dm, custom_id=move_buttons(dm)[0]["custom_id"])
    before = world.stored(1)

    result = await world.click(other, hand, custom_id=move_buttons(hand)[1]["custom_id"])

    assert_refused(result, "out of date")
    assert world.stored(1) == before


async def test_a_finished_game_refuses_everything(world, table):
    starter, other = table
    old_dm = reply(await world.slash(starter, "game hand"))
    await play_to_end(world, [starter, other])
    before = world.stored(1)
    assert before.status == "finished"

    assert_refused(await world.click(starter, old_dm, custom_id=move_buttons(old_dm)[0]["custom_id"]),
                   "This game is over")
    assert_refused(await world.slash(starter, "move", action="trump high"), "is over (finished)", "/game new")
    assert_refused(await world.slash(other, "game hand"), "/game new")
    assert_refused(await world.slash(other, "game resign"), "/game new")

    assert world.stored(1) == before


async def test_commands_without_a_game_say_how_to_start_one(world):
    alice = world.player("alice")

    for command in ("move", "game hand", "game status", "game board", "game resign", "game abandon"):
        options = {"action": "x"} if command == "move" else {}
        assert_refused(await world.slash(alice, command, **options), "/game new")
    assert_refused(await world.slash(alice, "game rules"), "/game rules game:")


async def test_moves_before_the_start_are_refused(world):
    alice, bob = world.player("alice"), world.player("bob")
    await world.slash(alice, "game new", game="pips")
    await world.click(bob, world.latest(), label="Join")

    assert_refused(await world.slash(alice, "move", action="trump high"), "not started")
    assert world.stored(1).status == "lobby"


async def test_unexpected_errors_are_logged_and_answered_with_an_apology(world, table, caplog):
    starter, _ = table
    before = world.stored(1)

    def explode(*args, **kwargs):
        raise RuntimeError("engine bug")

    engine = world.parts.moves.games["pips"]
    original = engine.apply
    engine.apply = explode
    try:
        cursor = world.env.error_cursor
        result = await _raw_slash(world, starter)
    finally:
        engine.apply = original

    assert "Sorry, something went wrong" in reply(result).content
    assert [type(e.original) for e in world.env.errors_since(cursor)] == [RuntimeError]
    _ = world.env.errors  # reading them acknowledges them: this error was the point of the test
    assert "engine bug" in caplog.text
    assert world.stored(1) == before


async def _raw_slash(world, member):
    """A slash command without the harness's fail-fast on unexpected errors."""
    return await member.slash(world.channel, "move", action="trump high")
