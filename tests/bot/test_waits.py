"""Games that wait only for real decisions (bot.days.orders), through the real bot in simcord:
publicly forced decisions make themselves, standing orders answer decisions outside one's own
turn for a seat (and nobody else learns of them), and the reaction window makes a decision that
waited too long, without counting it as a timed-out turn."""
from __future__ import annotations

import json
import random
import sqlite3

import pytest

from bot.app import create_bot
from bot.scheduler import FakeClock
from games import REGISTRY
from games.core import Action, forced_decision, reaction_kind
from tests.bot.harness import SketchRenderer, buttons, reply, seat_order, start_table, take_turn, to_act

KNATSCH, MACROBBER = REGISTRY["knatsch"], REGISTRY["macrobber"]
HOUR = 3600
ORDER_WORDS = ("computer answers", "Computer antwortet", "standing order", "🤖")


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def renderer():
    return SketchRenderer()  # the boards' pixels are the renderers' tests' business


@pytest.fixture
def make_bot(database_path, renderer, clock):
    def build():
        return create_bot(database_path, games=REGISTRY, render=renderer, seed_source=random.Random(11), clock=clock)
    return build


def state_of(world, game):
    return game.from_dict(world.stored_state(1))


def orders(world) -> dict[int, set[str]]:
    with sqlite3.connect(world.database_path) as db:
        found: dict[int, set[str]] = {}
        for seat, kind in db.execute("SELECT seat, kind FROM standing_orders WHERE game_id = 1"):
            found.setdefault(seat, set()).add(kind)
    return found


async def give_orders(world, player, *kinds: str) -> None:
    for kind in kinds:
        answer = reply(await world.slash(player, "game orders", kind=kind, setting="on"))
        assert answer.ephemeral and "the computer answers for you" in answer.content


def public_texts(world) -> list[str]:
    """Everything the channel shows: every message's text, buttons and menus."""
    texts = []
    for message in world.messages():
        texts.append(message.content or "")
        texts += [str(b.get("label")) for b in buttons(message)]
    return texts


async def until_a_decision_outside_a_turn_waits(world, players, rng) -> int:
    """Play Knatsch until someone is asked to defend (or to roll in a tournament); their seat."""
    for _ in range(300):
        state = state_of(world, KNATSCH)
        waiting = [seat for seat in KNATSCH.to_act(state) if reaction_kind(KNATSCH, state, seat)]
        if waiting:
            return waiting[0]
        await take_turn(world, to_act(world, players)[0], rng)
    pytest.fail("no decision outside a turn came up")


async def knatsch_until_a_decision_outside_a_turn(world, options=None):
    """A three-player Knatsch table played until someone is asked to defend or to roll in a
    tournament: (players in seat order, that seat, the rng that keeps playing)."""
    players = [world.player(n) for n in ("alice", "bob", "carol")]
    await start_table(world, *players, game="knatsch", options=options)
    players = seat_order(world, 1, players)
    rng = random.Random(2)
    return players, await until_a_decision_outside_a_turn_waits(world, players, rng), rng


async def play(world, game, players, *, max_moves: int, check=None) -> int:
    rng = random.Random(4)
    moves = 0
    while world.stored(1).status == "active" and moves < max_moves:
        await take_turn(world, to_act(world, players)[0], rng)
        moves += 1
        state = state_of(world, game)
        if world.stored(1).status != "active":
            break
        # Nobody is ever kept waiting for a decision everyone can see is forced.
        assert forced_decision(game, state) is None
        if check is not None:
            check(state)
    return moves


async def test_knatsch_first_rolls_are_made_at_once_and_the_turn_message_says_so(world):
    players = [world.player(n) for n in ("alice", "bob", "carol")]
    await start_table(world, *players, game="knatsch")
    players = seat_order(world, 1, players)
    pinged_for_a_forced_roll = []

    def check(state):
        board = world.latest_board()
        for user in world.pinged(board):
            seat = [p.id for p in players].index(user)
            if KNATSCH.publicly_forced(state, seat) is not None:
                pinged_for_a_forced_roll.append(seat)

    await play(world, KNATSCH, players, max_moves=150, check=check)
    with sqlite3.connect(world.database_path) as db:
        rolls = db.execute("SELECT COUNT(*) FROM actions WHERE game_id = 1 AND action = 'roll'").fetchone()[0]
    said = [m.content for m in world.bot_messages() if "⚡" in (m.content or "")]
    assert rolls > 0 and said and pinged_for_a_forced_roll == []


async def test_standing_orders_answer_for_a_seat_and_nobody_else_learns_of_them(world, monkeypatch):
    players = [world.player(n) for n in ("alice", "bob", "carol")]
    await start_table(world, *players, game="knatsch")
    players = seat_order(world, 1, players)
    delegator = players[1]
    await give_orders(world, delegator, "knatsch.reaction.defence", "knatsch.reaction.tournament")
    seat = 1
    assert orders(world) == {seat: {"knatsch.reaction.defence", "knatsch.reaction.tournament"}}
    answered_for = []
    # The moves judge by the orders read with the game (`Snapshot.orders`), never read apart.
    days = world.parts.moves.storage.days
    read_apart = []

    async def standing_orders(game_id):
        read_apart.append(game_id)
        return await type(days).standing_orders(days, game_id)

    monkeypatch.setattr(days, "standing_orders", standing_orders)

    def check(state):
        # The game never waits on the delegating seat for a decision outside its turn...
        assert reaction_kind(KNATSCH, state, seat) is None or seat not in KNATSCH.to_act(state)
        # ...and never calls them for one.
        board = world.latest_board()
        if delegator.id in world.pinged(board):
            assert reaction_kind(KNATSCH, state, seat) is None
        answered_for.append(1)

    await play(world, KNATSCH, players, max_moves=200, check=check)
    assert read_apart == []
    with sqlite3.connect(world.database_path) as db:
        theirs = [action for (action,) in db.execute(
            "SELECT action FROM actions WHERE game_id = 1 AND seat = ?", (seat,))]
    assert any(action.startswith(("roll", "reroll", "stop")) for action in theirs)
    # Nobody else learns of the orders: not the channel, the log, the status or an export.
    for text in public_texts(world):
        assert not any(word in text for word in ORDER_WORDS), text
    other = players[0]
    for command in ("game log", "game status"):
        answer = reply(await world.slash(other, command)).content
        assert not any(word in answer for word in ORDER_WORDS)
    export = reply(await world.slash(other, "game export"))
    data = world.env.backend.cdn.get(export.attachments[0].url).decode()
    assert "order" not in data.lower() and "reaction" not in json.loads(data).get("result", {}).__repr__()
    # Their own view shows them; another player's does not.
    mine = reply(await world.slash(delegator, "game hand"))
    theirs = reply(await world.slash(other, "game hand"))
    assert "the computer answers for you" in mine.content
    assert not any(word in theirs.content for word in ORDER_WORDS[:3])


async def test_an_order_given_while_the_decision_waits_answers_it_at_once(world):
    players, seat, rng = await knatsch_until_a_decision_outside_a_turn(world)
    kind = reaction_kind(KNATSCH, state_of(world, KNATSCH), seat)
    version = world.stored(1).version
    await give_orders(world, players[seat], kind)
    after = state_of(world, KNATSCH)
    assert world.stored(1).version > version and reaction_kind(KNATSCH, after, seat) is None


async def test_a_reminder_of_a_decision_outside_ones_turn_offers_the_order_on_a_button(world, clock):
    """Knatsch has no DMs of its own: the reminder's button is the toggle on a DM its players lack."""
    players, seat, rng = await knatsch_until_a_decision_outside_a_turn(world, "reminder=1h")
    kind = reaction_kind(KNATSCH, state_of(world, KNATSCH), seat)
    waiting = players[seat]
    before = {player.name: len(world.dms(player)) for player in players}
    clock.advance(HOUR)
    await world.run_timers()
    reminder = [m for m in world.dms(waiting)[before[waiting.name]:] if "waiting for you" in (m.content or "")]
    assert len(reminder) == 1 and "the computer can answer such decisions for you" in reminder[0].content
    offered = [b for b in buttons(reminder[0]) if b["custom_id"].startswith("rk:order:")]
    index = KNATSCH.features.reactions.index(kind)
    assert [b["custom_id"] for b in offered] == [f"rk:order:1:{index}:0"]
    assert "let the computer answer" in offered[0]["label"]
    # Only the reminded player sees the offer: not the channel, not another player's DMs.
    for text in public_texts(world):
        assert not any(word in text for word in ORDER_WORDS), text
    for player in players:
        if player is not waiting:
            assert not any("computer can answer" in (m.content or "") for m in world.dms(player))
    # One click gives the order, and the decision that waits is answered at once.
    version = world.stored(1).version
    await world.click(waiting, reminder[0], custom_id=offered[0]["custom_id"])
    assert orders(world) == {seat: {kind}}
    after = state_of(world, KNATSCH)
    assert world.stored(1).version > version
    assert reaction_kind(KNATSCH, after, seat) is None or seat not in KNATSCH.to_act(after)


async def test_a_reminder_of_ones_own_turn_offers_no_order(world, clock):
    players = [world.player(n) for n in ("alice", "bob", "carol")]
    await start_table(world, *players, game="knatsch", options="reminder=1h")
    players = seat_order(world, 1, players)
    clock.advance(HOUR)
    await world.run_timers()
    reminder = [m for m in world.dms(players[0]) if "waiting for you" in (m.content or "")]
    assert len(reminder) == 1 and "computer can answer" not in reminder[0].content
    assert not [b for b in buttons(reminder[0]) if b["custom_id"].startswith("rk:order:")]


async def test_the_reaction_window_makes_a_waiting_defence_and_it_is_no_timeout(world, clock):
    players, seat, rng = await knatsch_until_a_decision_outside_a_turn(world, "react=1h")
    version = world.stored(1).version
    clock.advance(HOUR - 60)
    await world.run_timers()
    assert world.stored(1).version == version  # not before the window closes
    clock.advance(61)
    await world.run_timers()
    after = state_of(world, KNATSCH)
    assert world.stored(1).version > version and (reaction_kind(KNATSCH, after, seat) is None
                                                  or seat not in KNATSCH.to_act(after))
    said = [m.content for m in world.bot_messages() if "No answer from" in (m.content or "")]
    assert said and "within 1 hour" in said[-1]
    with sqlite3.connect(world.database_path) as db:
        timeouts = db.execute("SELECT COALESCE(SUM(timeouts), 0) FROM day_seats WHERE game_id = 1").fetchone()[0]
    assert timeouts == 0  # not a timed-out turn


async def test_a_persons_answer_before_the_window_closes_wins(world, clock):
    players, seat, rng = await knatsch_until_a_decision_outside_a_turn(world, "react=15m")
    clock.advance(10 * 60)
    while reaction_kind(KNATSCH, state_of(world, KNATSCH), seat) and seat in KNATSCH.to_act(state_of(world, KNATSCH)):
        await take_turn(world, players[seat], rng)  # the defender answers in time
    version = world.stored(1).version
    clock.advance(10 * 60)
    await world.run_timers()
    assert not [m for m in world.bot_messages() if "No answer from" in (m.content or "")]
    assert world.stored(1).version == version or to_act(world, players) != [players[seat]]


async def test_a_move_made_at_once_owed_at_a_restart_is_made_once_after_it(world, clock, monkeypatch):
    players = [world.player(n) for n in ("alice", "bob", "carol")]
    await start_table(world, *players, game="knatsch")
    players = seat_order(world, 1, players)
    rng = random.Random(2)
    skipped = []
    original = world.parts.moves._moves_made_at_once

    async def stop_before_it(game_id, done, waiting):
        if done.at_once is not None and not skipped:
            skipped.append(done.at_once)  # the bot stops here: stored, the forced move not made
            return
        await original(game_id, done, waiting)

    monkeypatch.setattr(world.parts.moves, "_moves_made_at_once", stop_before_it)
    for _ in range(300):
        if skipped:
            break
        await take_turn(world, to_act(world, players)[0], rng)
    assert skipped and forced_decision(KNATSCH, state_of(world, KNATSCH)) is not None
    version = world.stored(1).version
    await world.restart()
    await world.run_timers()  # the timer kept for it is due at once
    assert world.stored(1).version == version + 1  # made, once
    assert forced_decision(KNATSCH, state_of(world, KNATSCH)) is None
    await world.run_timers()
    assert world.stored(1).version == version + 1


@pytest.mark.parametrize("name", ["knatsch", "macrobber", "carcassonne"])
async def test_with_orders_for_every_seat_nobody_waits_for_a_decision_outside_their_turn(world, name):
    game = REGISTRY[name]
    players = [world.player(n) for n in ("anna", "bernd", "clara")]
    await start_table(world, *players, game=name)
    players = seat_order(world, 1, players)
    for player in players:
        await give_orders(world, player, *game.features.reactions)
    made_for = []

    def check(state):
        for seat in game.to_act(state):
            assert reaction_kind(game, state, seat) is None  # answered by the computer, at once
        for user in world.pinged(world.latest_board()):
            assert reaction_kind(game, state, [p.id for p in players].index(user)) is None
        made_for.append(state)

    moves = await play(world, game, players, max_moves=90, check=check)
    with sqlite3.connect(world.database_path) as db:
        stored = db.execute("SELECT COUNT(*) FROM actions WHERE game_id = 1").fetchone()[0]
    assert stored > moves  # moves were made for the seats, each stored like any move


def test_a_decision_forced_only_by_a_secret_is_still_asked():
    from tests.games.macrobber.test_waits import raid

    state = raid([4, 4, 1], [2, 2, 1])
    for seat, action in ((0, "play 4"), (1, "play 1"), (0, "play 4")):
        state, _ = MACROBBER.apply(state, seat, Action.parse(action))
    # The defender holds two 2s: one move, but only they know it; an instant answer would tell.
    assert [a.encode() for a in MACROBBER.legal_actions(state, 1)] == ["play 2"]
    assert forced_decision(MACROBBER, state) is None
