"""What a DM shows of the table is current while its decision is open: a player still choosing
in Die Glücksritter sees who has chosen since, one still to discard in Mac Robber no longer
reads that a player who has discarded must discard. A DM whose decision is over keeps what it
said and offers nothing (it is history); its picture is then the seat's own cards, tiles or
documents alone, none of the table to go stale."""
from __future__ import annotations

import random

import pytest

from games import REGISTRY
from i18n import translate
from renderers import hand_alone
from tests.bot.harness import (
    bot_factory,
    latest_dm_with_moves,
    offers_moves,
    seat_order,
    start_table,
    take_turn,
    to_act,
    toggle_buttons,
)
from tests.bot.test_gluecksritter_choice import choose, confirm_button, tap, toggled

NAMES = ("alice", "bob", "carol", "dave", "erin")


@pytest.fixture
def make_bot(database_path, renderer):
    names = ("gluecksritter", "macrobber", "raubritter")
    return bot_factory(database_path, games={name: REGISTRY[name] for name in names}, seed=5, render=renderer)


@pytest.mark.parametrize("name, players, moves", [("gluecksritter", 5, 30), ("macrobber", 4, 45),
                                                  ("raubritter", 4, 60)])
async def test_an_open_dm_shows_who_must_act_as_it_is_now(world, renderer, name, players, moves):
    """Its words say who must act now, and so does its picture (when it has one: something of the
    seat's own to show), not as it was when the decision opened."""
    game = REGISTRY[name]
    people = [world.player(person) for person in NAMES[:players]]
    game_id = await start_table(world, *people, game=name)
    seats = world.seats(game_id)
    names = dict(world.query("SELECT seat, name FROM seats WHERE game_id = ?", (game_id,)))
    bold = [f"**{names[seat]}**" for seat in range(players)]
    rng = random.Random(4)
    checked = pictures = alone = 0
    for _ in range(moves):
        if world.stored(game_id).status != "active":
            break
        await take_turn(world, to_act(world, people)[0], rng)
        if world.stored(game_id).status != "active":
            break
        state = game.from_dict(world.stored_state(game_id))
        for person in people:
            dms = world.dms(person)
            if not dms:
                continue
            if not offers_moves(dms[-1]):
                # Nothing to decide in it: it does not say who must act (that would go stale).
                assert not any(word in dms[-1].content for word in (" must ", " chooses ", "choosing")), \
                    dms[-1].content
                png = world.png(dms[-1])
                if png is not None:
                    # Nor does its picture: the seat's cards (tiles) alone, nothing of the table to go stale.
                    assert all(hand_alone(drawn) for drawn in renderer.views_of[png]), \
                        (person.name, state.phase, dms[-1].content)
                    alone += 1
                continue
            view = game.view(state, seats[person.id])
            status = translate(view["status"], "en", bold)
            assert status in dms[-1].content, (person.name, status, dms[-1].content)
            checked += 1
            png = world.png(dms[-1])
            if png is not None:
                now = (view["to_act"], view["status"])
                assert now in [(drawn["to_act"], drawn["status"]) for drawn in renderer.views_of[png]], \
                    f"{person.name}'s DM pictures who acts as it was"
                # The rest of the table it shows too (a player's cards after a discard, say).
                assert view in renderer.views_of[png], f"{person.name}'s DM pictures the table as it was"
                pictures += 1
    assert checked >= 10, checked
    assert pictures >= 5, pictures
    assert alone >= 5, alone


async def test_another_players_choice_keeps_the_cards_a_player_has_tapped(world, renderer):
    """Die Glücksritter: Anna has tapped one card of two in her DM when Bernd confirms his
    choice. Her DM then says that Bernd has chosen, still shows her tap, and its picture is
    drawn again from the table as it is now (Bernd "chosen", not "choosing"): the picture is
    edited, the components are left as they are; the tapped card goes into her choice."""
    people = [world.player(name) for name in ("anna", "bernd", "clara")]
    game_id = await start_table(world, *people, game="gluecksritter")
    anna, bernd, clara = seat_order(world, game_id, people)
    game = REGISTRY["gluecksritter"]
    seats = world.seats(game_id)
    dm = latest_dm_with_moves(world, anna)
    picture = world.png(dm)
    assert toggle_buttons(dm)
    assert toggled(await tap(world, anna, dm, 3)) == [3]
    dm = world.fresh(dm)
    assert toggled(dm) == [3]
    said = dm.content

    await choose(world, bernd, [1, 2])

    now = world.fresh(dm)
    state = game.from_dict(world.stored_state(game_id))
    names = dict(world.query("SELECT seat, name FROM seats WHERE game_id = ?", (game_id,)))
    status = translate(game.view(state, seats[anna.id])["status"], "en", [f"**{names[s]}**" for s in range(3)])
    assert now.content != said and status in now.content, (status, now.content)
    assert toggled(now) == [3], "the edit lost Anna's tap"
    if picture is not None:  # something of her own to show: drawn again with Bernd "chosen"
        assert world.png(now) != picture, "her DM's picture still shows the table before Bernd chose"

    # Her second card on the message as it is now, and the confirmation: both cards are hers.
    now = await tap(world, anna, now, 5)
    assert toggled(now) == [3, 5]
    await world.click(anna, now, custom_id=confirm_button(now)["custom_id"])
    state = game.from_dict(world.stored_state(game_id))
    mine = game.view(state, seats[anna.id])["private"]["choice"]
    assert sorted(mine["cards"]) == [3, 5], mine


async def test_a_discard_of_one_of_two_cards_is_in_every_open_dms_picture(world, renderer):
    """Mac Robber: Alice and Bob must discard, Alice two cards. She discards one: every DM still
    open (hers and Bob's say the same words as before) pictures her with one card fewer."""
    game = REGISTRY["macrobber"]
    people = [world.player(person) for person in NAMES[:4]]
    game_id = await start_table(world, *people, game="macrobber")
    seats = world.seats(game_id)
    rng = random.Random(4)
    seen = 0
    for _ in range(120):
        if world.stored(game_id).status != "active" or seen >= 4:
            break
        before = game.view(game.from_dict(world.stored_state(game_id)), None)["players"]
        await take_turn(world, to_act(world, people)[0], rng)
        state = game.from_dict(world.stored_state(game_id))
        after = game.view(state, None)["players"]
        discarders = [seat for seat, (was, now) in enumerate(zip(before, after))
                      if now["owed"] and now["cards"] == was["cards"] - 1]
        if world.stored(game_id).status != "active" or not discarders:
            continue
        for person in people:
            dms = world.dms(person)
            png = world.png(dms[-1]) if dms and offers_moves(dms[-1]) else None
            if png is None:  # no decision open, or nothing of the seat's own to picture
                continue
            drawn = [view["players"][discarders[0]]["cards"] for view in renderer.views_of[png]]
            assert after[discarders[0]]["cards"] in drawn, f"{person.name}'s DM pictures the cards held before"
            assert game.view(state, seats[person.id]) in renderer.views_of[png]
            seen += 1
    assert seen >= 2, seen
