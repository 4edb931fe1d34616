"""Catching up (bot.league.recap): the turn message that calls a player opens with the public
moves since their own last move; `/game recap` gives the same on demand, only to them, in their
language. Exactly the public moves, nothing private, nothing when nobody moved."""
from __future__ import annotations

import random
import re

import pytest

from bot.league.recap import ASKED_LINES, TURN_LINE_LIMIT, TURN_LINES, turn_recap_text
from bot.presenter import PHONE_TEXT_LINES, phone_lines
from tests.bot.harness import reply, seat_order, start_table, take_turn, to_act

pytestmark = pytest.mark.usefixtures("client_languages")  # tests/bot/conftest.py

LOG_LINE = re.compile(r"`#(\d+)` <t:\d+:R> (.*)")


async def public_lines(world, player) -> dict[int, str]:
    """Each move's line as `/game log` shows it (what the channel saw), by version."""
    text = reply(await world.slash(player, "game log")).content
    return {int(match[1]): match[2] for line in text.splitlines() if (match := LOG_LINE.fullmatch(line))}


def recap_of(content: str) -> tuple[str | None, list[str]]:
    """The recap atop a turn message: its heading and its lines (None when there is none)."""
    lines = content.splitlines()
    if not lines or not lines[0].startswith("🕑"):
        return None, []
    body = []
    for line in lines[1:]:
        if not line.startswith("› "):
            break
        body.append(line[2:])
    return lines[0], body


def last_action(world, game_id: int, seats, before: int) -> int:
    marks = ", ".join("?" * len(seats))
    (last,), = world.query(f"SELECT COALESCE(MAX(version), 0) FROM actions WHERE game_id = ? AND seat IN ({marks}) "
                           f"AND version < ?", (game_id, *seats, before))
    return last


async def test_the_turn_message_says_exactly_the_public_moves_since_the_players_last_move(world):
    players = [world.player(name) for name in ("alice", "bob", "carol")]
    game_id = await start_table(world, *players, options="rounds=3")
    ordered = seat_order(world, game_id, players)
    rng = random.Random(3)
    checked = quiet = full = 0
    for _ in range(40):
        if world.stored(game_id).status != "active":
            break
        await take_turn(world, to_act(world, players)[0], rng)
        board = world.latest_board()
        pinged = world.pinged(board)
        if not pinged or world.stored(game_id).status != "active":
            continue
        seats = sorted(world.seats(game_id)[user] for user in pinged)
        (start,), = world.query("SELECT version FROM league_turns WHERE game_id = ?", (game_id,))
        since = min(last_action(world, game_id, [seat], start) for seat in seats)
        heading, lines = recap_of(board.content)
        if since + 1 >= start:  # nobody moved in between: no recap at all
            assert heading is None and "🕑" not in board.content
            quiet += 1
            continue
        log = await public_lines(world, ordered[0])
        expected = [log[version] for version in range(since + 1, start)]
        if heading is None:  # not even a heading and one move fit what the phone shows above the board
            newest = min(phone_lines("› " + expected[-1]), 2)
            assert "🕑" not in board.content and phone_lines(board.content) + 1 + newest > PHONE_TEXT_LINES
            full += 1
            continue
        names = [ordered[seat].name.capitalize() for seat in seats]
        others = [player.name.capitalize() for seat, player in enumerate(ordered) if seat not in seats]
        # Addressed to whom the message calls, and naming only them.
        assert all(f"**{name}**" in heading for name in names)
        assert not any(f"**{name}**" in heading for name in others), heading
        # The newest moves, as many as the phone lines the rest of the message leaves; when some
        # are left out the heading counts them all. Every line says something.
        shown = len(lines)
        assert 1 <= shown <= TURN_LINES and lines == expected[len(expected) - shown:]
        assert all(line.strip(" …›•.") for line in board.content.splitlines())
        if shown == len(expected):
            assert heading.startswith("🕑 Since your last move" if len(seats) == 1 else "🕑 Since you moved")
        else:
            assert heading.startswith(f"🕑 {len(expected)} moves since yours" if len(seats) == 1
                                      else f"🕑 Last {len(expected)} moves")
        assert phone_lines(heading) == 1
        assert phone_lines(board.content) <= PHONE_TEXT_LINES
        assert all(len(line) <= TURN_LINE_LIMIT + 2 for line in board.content.splitlines()[1:shown + 1])
        # Only public things: never what a seat drew, never which card it chose in secret.
        assert not any("drew" in line or "Play your" in line for line in lines)
        checked += 1
    # Pips' simultaneous turns call all three players in long lines: some leave no room.
    assert checked >= 1 and checked + full >= 3 and quiet >= 1, (checked, quiet, full)


async def test_game_recap_on_demand_only_to_the_asker_in_their_language(world, client_languages):
    alice, bob, dora = world.player("alice"), world.player("bob"), world.player("dora")
    client_languages[dora.id] = "de"
    game_id = await start_table(world, alice, bob, dora, options="rounds=3")
    ordered = seat_order(world, game_id, [alice, bob, dora])
    rng = random.Random(8)
    # Nobody moved since the start: nothing to tell.
    nothing = reply(await world.slash(alice, "game recap"))
    assert nothing.ephemeral and "Nobody has moved in **Pips (test game)** #1 since your last move." in nothing.content

    for _ in range(7):
        await take_turn(world, to_act(world, ordered)[0], rng)
    log = await public_lines(world, alice)
    for player in ordered:
        seat = world.seats(game_id)[player.id]
        last = last_action(world, game_id, [seat], 10 ** 9)
        expected = [log[version] for version in sorted(log) if version > last]
        answer = reply(await world.slash(player, "game recap"))
        assert answer.ephemeral
        lines = answer.content.splitlines()
        if not expected:
            said = "seit deinem letzten Zug niemand gezogen" if player is dora else "Nobody has moved"
            assert said in answer.content
            continue
        count = len(expected)
        if player is dora:
            word = "Zug" if count == 1 else "Züge"
            assert lines[0] == f"🕑 **Pips (test game)** #1: {count} {word} seit deinem letzten"
        else:
            word = "move" if count == 1 else "moves"
            assert lines[0] == f"🕑 **Pips (test game)** #1: {count} {word} since your last one"
        assert [line[2:] for line in lines if line.startswith("› ") and "…" not in line] == expected[-ASKED_LINES:]
        board = world.latest_board()
        link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{board.id}"
        assert lines[-1] in (f"The board: {link}", f"Das Brett: {link}")
        assert not any("drew" in line or "Play your" in line for line in lines)

    stranger = world.player("erik")
    refused = reply(await world.slash(stranger, "game recap"))
    assert "not playing" in refused.content or "spielst" in refused.content


async def test_a_german_table_says_its_recap_in_german(world):
    players = [world.player(name) for name in ("alice", "bob", "carol")]
    await world.slash(players[0], "game new", game="pips", language="de", options="rounds=3")
    for player in players[1:]:
        await world.click(player, world.latest(), label="Mitspielen")
    await world.click(players[0], world.latest(), label="Starten")
    rng = random.Random(3)
    headings = []
    for _ in range(12):
        await take_turn(world, to_act(world, players)[0], rng)
        heading, _ = recap_of(world.latest_board().content)
        headings.append(heading)
    assert any(heading and heading.startswith("🕑 Seit") for heading in headings)
    assert not any(heading and "Since" in heading for heading in headings)


def test_a_secret_preparation_leaves_no_trace_and_a_secret_choice_no_label():
    """What the recap keeps of a move, decided as `/game log` decides it."""
    from types import SimpleNamespace

    from bot.league.recap import public_texts
    from games.core import Action, Event
    from tests.bot import fakegame

    game = fakegame.GAME
    state = game.new_game(2, seed=1)
    trump, _ = game.apply(state, 0, Action("trump", ("high",)))
    # A move that said nothing in public and changed nothing the public sees: no line at all.
    hidden = SimpleNamespace(seat=1, before=trump, after=trump, action=Action("play", ("5",)),
                             events=[Event("You armed a document.", seat=1)])
    assert public_texts(game, hidden) is None
    # A secret choice that said nothing in public: "made a move", never which card.
    played, _ = game.apply(trump, 1, Action("play", (str(trump["hands"][1][0]),)))
    quiet = SimpleNamespace(seat=1, before=trump, after=played, action=Action("play", ("5",)),
                            events=[])
    assert public_texts(game, quiet) == [{"id": "bot.table.made_a_move", "params": {"player": {"seat": 1}}}]
    # A public choice: its label.
    call = SimpleNamespace(seat=0, before=state, after=trump, action=Action("trump", ("high",)),
                           events=[])
    assert public_texts(game, call) == [{"id": "bot.table.chose",
                                         "params": {"player": {"seat": 0}, "move": "High cards win"}}]


def test_the_turn_recap_names_only_whom_it_calls_and_every_line_says_something():
    """Dave and Erin are called: the recap names them, not the others; a recap with no room for
    a move adds nothing at all (never a heading alone, never a line of "…")."""
    from types import SimpleNamespace

    names = ["Alice", "Bob", "Carol", "Dave", "Erin"]
    table = SimpleNamespace(lang="en", names=names)
    moves = [(v, 0, [f"**{names[v % 3]}** played card {v}."]) for v in range(1, 8)]
    text = turn_recap_text(moves, table, [3, 4], room=PHONE_TEXT_LINES)
    heading, *lines = text.splitlines()
    assert heading == "🕑 Last 7 moves, **Dave** and **Erin**:"
    assert lines == ["› **Alice** played card 6.", "› **Bob** played card 7."]
    assert not any(name in heading for name in names[:3])
    assert turn_recap_text(moves, table, [3, 4], room=2).splitlines()[1:] == ["› **Bob** played card 7."]
    assert turn_recap_text(moves, table, [3, 4], room=1) == ""
    assert (turn_recap_text(moves[-1:], table, [3], room=2)
            == "🕑 Since your last move, **Dave**:\n› **Bob** played card 7.")
    german = turn_recap_text(moves, SimpleNamespace(lang="de", names=names), [3], room=3)
    assert german.splitlines()[0] == "🕑 7 Züge seit deinem letzten, **Dave**:"
    for line in text.splitlines():
        assert line.strip(" …›•.") and phone_lines(line) <= 3


@pytest.mark.parametrize("lang,picked,failed", [
    ("en", "› **Carol** picks the Green castle.", "› **Kunibert** fails, **Alice** keeps it."),
    ("de", "› **Carol** wählt die Grüne Burg.", "› **Kunibert** scheitert, **Alice** behält sie.")])
def test_a_knatsch_move_in_the_recap_says_what_it_did_in_one_line(lang, picked, failed):
    """A pick and its first roll: the pick (the roll's dice were that turn's, and a rolled result
    with it takes two lines); a roll that failed: what failing did. A roll alone: its result."""
    from types import SimpleNamespace

    from games.core import SeatRef, msg
    from games.knatsch.cards import CARDS, card_label
    from games.knatsch.dice import dice_text, evaluate, result_msg

    names = ["Alice", "Kunibert", "Carol"]  # the failed roll and what failing did: too long for one line
    table = SimpleNamespace(lang=lang, names=names)
    green = next(card for card in CARDS.values() if card.arms == "green")

    def roll(seat, dice):
        return msg("knatsch.event.rolled", player=SeatRef(seat), dice=dice_text(dice), used=1, allowed=3,
                   result=result_msg(evaluate(dice, ()))).to_json()

    pick = [msg("knatsch.event.target_stack", player=SeatRef(2), card=card_label(green), stack=1, count=3).to_json(),
            roll(2, [6, 4, 1, 2, 5, 4])]
    fail = [roll(1, [5, 5, 6, 6, 6, 6]),
            msg("knatsch.event.fail_owned", player=SeatRef(1), owner=SeatRef(0), result=result_msg((2, 5, 0)),
                card=card_label(green)).to_json()]
    text = turn_recap_text([(4, 2, pick), (5, 1, fail)], table, [0])
    assert text.splitlines()[1:] == [picked, failed]
    assert all(phone_lines(line) == 1 for line in text.splitlines())
    alone = turn_recap_text([(5, 1, [roll(1, [5, 5, 6, 6, 6, 6])])], table, [0]).splitlines()[1]
    assert alone == {"en": "› **Kunibert** rolls two 5s.", "de": "› **Kunibert** würfelt zwei 5er."}[lang]
