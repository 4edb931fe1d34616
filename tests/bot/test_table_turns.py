"""A table made for phones: whole games of every game through simcord, counting
what the channel and the DMs receive per turn, and reading every text a player sees.

- One channel post and at most one mention per handover: a move that leaves the same wait
  open (the mover's sub-steps) edits the turn message; only someone new to act gets a new
  message, and only they are pinged.
- One DM per private decision: a new DM only when a seat newly has to act in private.
- No `{s0}` placeholder and no raw action code in any text, label or option.
"""
from __future__ import annotations

import random
import re

import pytest

from bot.presenter import PHONE_TEXT_LINES, phone_lines
from games import REGISTRY
from tests.bot.harness import bot_factory, buttons, components, seat_order, selects, take_turn, to_act

PLACEHOLDER = re.compile(r"\{s\d")
GAME_OVER = {"en": "Game over", "de": "Spielende"}


@pytest.fixture
def make_bot(database_path, renderer, request):
    name = request.node.get_closest_marker("game").args[0]
    return bot_factory(database_path, games={name: REGISTRY[name]}, seed=3, render=renderer)


class Reader:
    """Reads every text a player can see and counts posts, pings and DMs."""

    def __init__(self, world, game, players):
        self.world, self.game, self.players = world, game, players
        self.texts_checked = 0

    def channel_ids(self) -> list[int]:
        backend = self.world.env.backend
        return sorted(m.id for m in backend.messages.get(self.world.channel.id, {}).values()
                      if m.author_id == self.world.bot.user.id and not m.is_ephemeral)

    def dm_counts(self) -> list[int]:
        return [self.world.dm_count(player) for player in self.players]

    def waiting(self) -> frozenset[int]:
        game = self.game
        return game.to_act(game.from_dict(self.world.stored_state(1)))

    def check_text(self, text: str, actions: set[str] = frozenset()) -> None:
        assert not PLACEHOLDER.search(text), text
        for action in actions:
            if " " in action:
                assert action not in text, f"raw action code {action!r} in {text!r}"
        self.texts_checked += 1

    def check_message(self, message) -> None:
        actions = {c["custom_id"].split(":", 4)[4] for c in buttons(message) if c["custom_id"].startswith("rk:move:")}
        for select in selects(message):
            actions |= {option["value"] for option in select["options"]}
        self.check_text(message.content, actions)
        for component in components(message):
            for text in (component.get("label"), component.get("placeholder")):
                if text:
                    self.check_text(text, actions)
            for option in component.get("options", []):
                self.check_text(option["label"], actions)
                assert option["label"] != option["value"]


async def play_and_count(world, game_name: str, names: tuple[str, ...], seed: int, lang: str = "en"):
    players = [world.player(name) for name in names]
    await world.slash(players[0], "game new", game=game_name, language=lang)
    join, start = ("Mitspielen", "Starten") if lang == "de" else ("Join", "Start")
    for player in players[1:]:
        await world.click(player, world.latest(), label=join)
    await world.click(players[0], world.latest(), label=start)
    # A mention is as wide as the name it shows (bot.presenter.phone_lines): the player's (World.player).
    shown = tuple((player.id, name.capitalize()) for player, name in zip(players, names))
    players = seat_order(world, 1, players)
    reader = Reader(world, REGISTRY[game_name], players)
    rng = random.Random(seed)
    handovers = posts = pings = new_decisions = moves = 0
    dms_before = reader.dm_counts()
    last_dms = dms_before
    waiting = reader.waiting()
    called = (world.latest_board().id, set(world.pinged(world.latest_board())))
    assert len(reader.channel_ids()) == 2  # the lobby and the first turn message
    assert phone_lines(world.latest_board().content, shown) <= PHONE_TEXT_LINES, world.latest_board().content
    while GAME_OVER[lang] not in world.latest_board().content:
        assert moves < 2000
        ids = reader.channel_ids()
        acting = to_act(world, players)
        if moves % 7 == 3:  # now and then /move with its autocomplete
            offered = await world.autocomplete(acting[0], "move", "action", "")
            for choice in offered:
                reader.check_text(choice["name"], {choice["value"]})
            await world.slash(acting[0], "move", action=rng.choice(offered)["value"])
        else:
            await take_turn(world, acting[0], rng)
        moves += 1
        now_waiting = reader.waiting()
        new = [i for i in reader.channel_ids() if i not in ids]
        newcomers = now_waiting - waiting
        if newcomers:
            handovers += 1
            assert len(new) == 1, "a handover is one new message"
            message = world.latest_board()
            pinged = world.pinged(message)
            assert sorted(pinged) == sorted(players[s].id for s in newcomers)
            posts += 1
            pings += len(pinged)
            called = (message.id, set(pinged))
        elif GAME_OVER[lang] in world.latest_board().content:
            # The end of the game is one new message (final board, scores, chart) pinging nobody.
            assert len(new) == 1 and world.pinged(world.latest_board()) == []
        elif new:
            # The wait passed on through a forced move to a player who was already waiting in
            # private (Mac Robber's raid, Die Glücksritter's payment, a Carcassonne robber answered by
            # the next player to place): one post naming them, which
            # pings nobody who was not called before.
            message = world.latest_board()
            pinged = world.pinged(message)
            assert len(new) == 1 and set(pinged) <= {players[s].id for s in now_waiting}
            posts += 1
            pings += len(pinged)
            called = (message.id, set(pinged))
        else:
            # An edit never pings again: it keeps at most the mentions of the post that called
            # the players (Die Glücksritter: several choose at once, each choice edits the footer).
            message = world.latest_board()
            kept = called[1] if message.id == called[0] else set()
            assert set(world.pinged(message)) <= kept, "an edit never pings again"
        new_decisions += len(newcomers)
        # One DM per private decision: a new DM only for a seat that newly has to act, or whose
        # decision ended as the next began (Mac Robber: a card played, then cards to discard);
        # every other change edits the DM of the decision it belongs to.
        counts = reader.dm_counts()
        for seat, (now, before) in enumerate(zip(counts, last_dms)):
            assert now - before <= 1 and (now == before or seat in newcomers or not any(
                button["custom_id"].startswith("rk:move:")
                for dm in world.dms(players[seat])[:-1] for button in buttons(dm))), (seat, now - before, newcomers)
        last_dms = counts
        waiting = now_waiting
        reader.check_message(world.latest_board())
        # Short turn messages: the recap of what happened since the called player's last move,
        # the latest two lines of the account, the status and the call to move in at most eight
        # lines of a 390 px phone, so the board's top is in the first half of its screen.
        content = world.latest_board().content
        if GAME_OVER[lang] not in content:
            assert phone_lines(content, shown) <= PHONE_TEXT_LINES, content
            assert len([line for line in content.splitlines() if line.startswith("• ")]) <= 2, content
        for player in players:
            newest_dm = world.latest_dm(player)
            if newest_dm is not None:
                reader.check_message(newest_dm)
    reader.check_message(world.latest_board())
    dms = [after - before for after, before in zip(reader.dm_counts(), dms_before)]
    print(f"{game_name}: {moves} moves, {posts} posts, {pings} pings, DMs {dms}, {new_decisions} new waits")
    return moves, handovers, posts, pings, dms, new_decisions, reader


@pytest.mark.game("knatsch")
async def test_knatsch_one_post_per_handover_no_dms_no_placeholders(world):
    moves, handovers, posts, pings, dms, _, reader = await play_and_count(world, "knatsch",
                                                                          ("anna", "王小明", "olga"), 2)
    assert moves > 40 and posts == handovers and pings == handovers
    assert posts < moves * 0.6, "sub-steps must edit, not post"
    assert dms == [0, 0, 0], "Knatsch has no secrets: no DMs at all"
    assert reader.texts_checked > moves
    assert all("My hand" not in str(b) for b in buttons(world.latest_board()))


@pytest.mark.game("raubritter")
async def test_raubritter_one_post_per_handover_one_dm_per_decision(world):
    moves, handovers, posts, pings, dms, decisions, reader = await play_and_count(world, "raubritter",
                                                                                  ("anna", "Дмитрий"), 4)
    assert moves > 30 and posts == handovers and pings == handovers
    assert posts < moves, "a turn's knights steps edit the turn message"
    # The start DMs, then one DM per new private decision (checked move by move).
    assert 0 < sum(dms) <= decisions
    assert reader.texts_checked > moves


@pytest.mark.game("macrobber")
async def test_macrobber_turn_messages_fit_a_phone_in_german(world):
    """Mac Robber in German: one post per handover, every turn's text within eight phone lines."""
    moves, handovers, posts, pings, dms, decisions, reader = await play_and_count(
        world, "macrobber", ("anna", "Дмитрий", "olga"), 5, lang="de")
    assert moves > 30 and handovers <= posts < moves
    assert reader.texts_checked > moves


LONGEST_NAMES = ("Дмитрий Александрович Тимофеев", "Bartholomew the Unready of Some", "Kunigunde von Hohenzollern-Sig",
                 "Αλέξανδρος Παπαδόπουλος-Ιωάννου")
"""Names as long as Discord allows (32 characters), in three scripts."""


@pytest.mark.game("macrobber")
@pytest.mark.parametrize("lang", ["en", "de"])
async def test_macrobber_turn_messages_fit_a_phone_with_the_longest_names(world, lang):
    """Mac Robber with four of the longest names: every turn message, the first with the seat
    order too, within eight phone lines (the names shortened where a line needs it)."""
    moves, handovers, posts, pings, dms, decisions, reader = await play_and_count(
        world, "macrobber", LONGEST_NAMES, 5, lang=lang)
    assert moves > 30 and handovers <= posts < moves
    assert reader.texts_checked > moves


@pytest.mark.game("gluecksritter")
async def test_gluecksritter_turn_messages_fit_a_phone(world):
    """Die Glücksritter with five: one post per handover, every turn's text within eight phone lines."""
    moves, handovers, posts, pings, dms, decisions, reader = await play_and_count(
        world, "gluecksritter", ("anna", "王小明", "olga", "bea", "carl"), 6)
    assert moves > 30 and handovers <= posts < moves
    assert reader.texts_checked > moves


@pytest.mark.game("carcassonne")
@pytest.mark.parametrize("lang", ["en", "de"])
async def test_carcassonne_turn_messages_fit_a_phone(world, lang):
    """Carcassonne: one post per handover, every turn's text within eight phone lines."""
    moves, handovers, posts, pings, dms, decisions, reader = await play_and_count(
        world, "carcassonne", ("anna", "olga", "Дмитрий"), 7, lang=lang)
    # A robber reaction answered by the next player to place is a new turn's post, no new ping.
    assert moves > 60 and handovers <= posts and pings == handovers
    assert posts < moves, "a turn's sub-steps edit the turn message"
    assert reader.texts_checked > moves
