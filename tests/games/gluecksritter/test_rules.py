"""Die Glücksritter rules: every example of the rule text and each rule, one test or more."""
from __future__ import annotations

import pytest

from games.core import Action, GameError, IllegalAction, InvalidState, NotYourTurn
from games.gluecksritter.data import DUCAT_CARDS, GOLD_COINS, SILVER_COINS
from i18n import translate
from tests.games.gluecksritter.helpers import (
    GAME,
    act,
    die_counter,
    fresh,
    give_document,
    parts_of,
    play_round,
    roundtrip,
    set_field,
    set_money,
    words,
)


def settle(state, wants):
    """Answer every buying decision: `wants[(seat, phase)]` pieces, else nothing."""
    events = []
    while state.phase in ("field1", "field2", "field3"):
        seat = min(GAME.to_act(state))
        state, new = act(state, seat, f"buy {wants.get((seat, state.phase), 0)}")
        events += new
    return state, events


def broke(state, *seats):
    for seat in seats:
        set_money(state, seat, 0, 0)


def new_round_coins(events, field):
    """The coins the next round's Ducat card put on `field` (5 or 6), from its event."""
    event = [e for e in events if e.text.id == "gluecksritter.event.round"][-1]
    p = event.text.params
    return (p["silver5"], p["gold5"]) if field == 5 else (p["silver6"], p["gold6"])


def field_before_refill(state, events, field):
    where = state.field5 if field == 5 else state.field6
    silver, gold = new_round_coins(events, field)
    return [where[0] - silver, where[1] - gold]


# -- set-up ------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup(players):
    state = GAME.new_game(players, seed=7)
    assert state.money == [[2, 2]] * players
    coins_out = [sum(state.field5[k] + state.field6[k] for _ in [0]) for k in (0, 1)]
    assert state.sack[0] + coins_out[0] == SILVER_COINS - 2 * players
    assert state.sack[1] + coins_out[1] == GOLD_COINS - 2 * players
    to5, to6 = DUCAT_CARDS[state.ducat_card]
    assert sum(state.field5) == to5 and sum(state.field6) == to6
    assert len(state.pile) == 25 and len(state.ducat_deck) == 17
    assert state.walls == [0] * players and state.towers == [0] * players
    assert GAME.to_act(state) == frozenset(range(players))
    assert state.phase == "choose"


def test_bad_player_counts():
    with pytest.raises(GameError):
        GAME.new_game(2, seed=1)
    with pytest.raises(GameError):
        GAME.new_game(7, seed=1)


# -- the secret choice ------------------------------------------------------------------------

def test_choice_is_secret_until_everyone_has_chosen():
    state = fresh(3)
    public_before = GAME.view(state, None)
    state, events = act(state, 0, "play 2,5")
    assert not [e for e in events if e.seat is not None]  # said once, by the seat's summary
    assert "2" not in " ".join(words(events))
    summary = translate(GAME.view(state, 0)["private"]["summary"], "en", ["Ann", "Bo", "Cy"])
    assert summary.count("Tax Collector") == 1
    for viewer in (None, 1, 2):
        view = GAME.view(state, viewer)
        assert view["players"][0]["cards"] is None
        assert view["players"][0]["chosen"] is True
    assert GAME.view(state, 0)["private"]["choice"]["cards"] == [2, 5]
    assert public_before["players"][0]["chosen"] is False
    assert GAME.to_act(state) == frozenset({1, 2})
    with pytest.raises(NotYourTurn):
        act(state, 0, "play 1,2")


def test_two_different_cards_and_never_the_knight_in_the_dungeon():
    state = fresh(3)
    legal = {a.encode() for a in GAME.legal_actions(state, 0) if a.verb == "play"}
    assert len(legal) == 15 and "play 2,2" not in legal
    state.dungeon[0] = True
    legal = {a.encode() for a in GAME.legal_actions(state, 0) if a.verb == "play"}
    assert len(legal) == 10 and not any("4" in a for a in legal)
    with pytest.raises(IllegalAction):
        act(state, 0, "play 4,5")


def test_red_documents_are_toggles_and_never_two_of_a_kind():
    state = fresh(3)
    give_document(state, 0, "grant")
    give_document(state, 0, "grant")
    state, _ = act(state, 0, "doc grant")
    assert state.choices[0]["docs"] == ["grant"]
    state, _ = act(state, 0, "doc grant")
    assert state.choices[0]["docs"] == []
    assert [a.encode() for a in GAME.legal_actions(state, 0)].count("doc grant") == 1
    assert Action("doc", ("veto",)) not in GAME.legal_actions(state, 0)


def test_a_confirmed_choice_can_be_changed_while_someone_else_still_chooses():
    state = fresh(3)
    give_document(state, 0, "grant")
    state, _ = act(state, 0, "doc grant")
    state, _ = act(state, 0, "play 2,5")
    # Confirmed: no longer waited for, yet it may take the choice back.
    assert GAME.to_act(state) == frozenset({1, 2})
    assert [a.encode() for a in GAME.legal_actions(state, 0)] == ["change"]
    assert translate(GAME.describe(state, 0, Action("change")), "en", strict=True) == "Change my choice"
    assert GAME.subset_choices(state, 0) == []
    state, _ = act(state, 1, "play 1,3")
    state, events = act(state, 0, "change")
    assert words(events) == ["Ann changes their choice."]
    assert words(events, "de") == ["Ann ändert die Wahl."]
    assert [e.seat for e in events if e.seat is not None] == [0]
    assert GAME.to_act(state) == frozenset({0, 2})
    assert state.choices[0] == {"cards": [2, 5], "docs": ["grant"], "ransom": False, "ready": False}
    assert GAME.view(state, None)["players"][0]["chosen"] is False
    # The cards stay picked: the toggles start from them, confirming again is one tap.
    (family,) = GAME.subset_choices(state, 0)
    assert family.chosen == ("2", "5") and family.size == 2
    # Re-confirming with other cards and another document choice.
    state, _ = act(state, 0, "doc grant")
    state, _ = act(state, 0, "play 1,6")
    assert GAME.to_act(state) == frozenset({2})
    state, events = act(state, 2, "play 3,4")
    assert state.revealed and state.choices[0]["cards"] == [1, 6]
    assert "grant" in state.hands[0] and state.played_docs[0] == []
    reveal = [e.text for e in events if e.text.id == "gluecksritter.event.cards"][0]
    assert [p.params["cards"] for p in parts_of(reveal.params["plays"])] == [[1, 6], [1, 3], [3, 4]]


def test_the_reveal_sets_each_players_cards_apart_in_both_languages():
    """Each player's two cards are a list of their own: the players are set apart by " · ", so
    the sentence never reads "Bo: 1 and 6 and Cy: 3 and 4"."""
    state = fresh(3)
    state, _ = act(state, 0, "play 2,5")
    state, _ = act(state, 1, "play 1,6")
    state, events = act(state, 2, "play 3,4")
    reveal = [e for e in events if e.text.id == "gluecksritter.event.cards"]
    assert words(reveal) == ["The action cards are revealed: Ann: 2 and 5 · Bo: 1 and 6 · Cy: 3 and 4."]
    assert words(reveal, "de") == ["Die Aktionskarten werden aufgedeckt: Ann: 2 und 5 · Bo: 1 und 6 · Cy: 3 und 4."]


def test_no_change_after_the_last_confirmation():
    state = fresh(3)
    state, _ = act(state, 0, "play 5,6")
    state, _ = act(state, 1, "play 5,6")
    state, _ = act(state, 1, "change")  # allowed: seat 2 has not confirmed
    state, _ = act(state, 1, "play 5,6")
    state, _ = act(state, 2, "play 5,6")  # the last confirmation reveals the round at once
    assert state.round == 2 and state.previous["cards"] == [[5, 6], [5, 6], [5, 6]]
    for seat in range(3):
        assert Action("change") not in GAME.legal_actions(state, seat)
    with pytest.raises(IllegalAction):
        act(state, 0, "change")  # round two: choosing again, and nothing to take back
    state, _ = act(state, 0, "play 1,2")
    state, _ = act(state, 1, "play 1,2")
    state, _ = act(state, 2, "play 3,6")
    assert state.phase != "choose" or state.round == 3
    for seat in range(3):
        assert Action("change") not in GAME.legal_actions(state, seat)
        if seat not in GAME.to_act(state):
            with pytest.raises(NotYourTurn):
                act(state, seat, "change")


def test_the_cards_are_six_toggles_of_which_exactly_two_confirm():
    state = fresh(3)
    (family,) = GAME.subset_choices(state, 0)
    assert family.verb == "play" and family.size == 2 and family.chosen == ()
    assert [value for value, _ in family.items] == ["1", "2", "3", "4", "5", "6"]
    assert [translate(label, "de", strict=True) for _, label in family.items] == [
        "Bruder Jakob", "Bauer Johann", "Meister Ehrenfried", "Schwarzer Ritter", "Steuereintreiber", "Zöllner"]
    assert translate(family.prompt, "en", strict=True) == "Pick exactly two action cards"
    assert translate(family.confirm, "de", strict=True) == "Wahl bestätigen"
    assert family.action(["5", "2"]) == Action("play", ("2,5",))
    assert family.complete(2) and not family.complete(1) and not family.complete(3)
    state.dungeon[0] = True  # the Black Knight is in the dungeon: his card is not offered
    (family,) = GAME.subset_choices(state, 0)
    assert [value for value, _ in family.items] == ["1", "2", "3", "5", "6"]
    for wrong in ("play 2", "play 1,2,3", "play 4,5"):
        with pytest.raises(IllegalAction):
            act(state, 0, wrong)


def test_nobody_else_learns_a_confirmed_or_changed_choice():
    """Two games that differ only in seat 0's cards and documents look the same to everyone
    else, move by move: views, public events and the log, through confirming, changing and
    confirming again."""
    def history(cards, again, docs):
        state = fresh(3)
        give_document(state, 0, "grant")
        give_document(state, 0, "permit")
        steps = [(0, f"doc {d}") for d in docs] + [(0, f"play {cards}"), (1, "play 1,2"), (0, "change")]
        steps += [(0, f"doc {d}") for d in docs] + [(0, f"play {again}")]
        seen = []
        for seat, text in steps:
            state, events = act(state, seat, text)
            seen.append(([GAME.view(state, viewer) for viewer in (None, 1, 2)], words(events)))
        return seen

    one = history("2,5", "1,6", ["grant"])
    two = history("3,4", "3,4", ["permit"])
    assert one == two
    assert one[3][1] == ["Ann changes their choice."]
    assert all("private" not in views[0] for views, _ in one)


def test_a_seat_in_the_dungeon_can_change_its_choice_too():
    state = fresh(3)
    state.dungeon[1] = True
    state, _ = act(state, 1, "ransom")
    state, _ = act(state, 1, "play 5,6")
    state, _ = act(state, 1, "change")
    assert state.choices[1]["ransom"] is True and state.choices[1]["cards"] == [5, 6]
    assert GAME.subset_choices(state, 1)[0].chosen == ("5", "6")
    assert GAME.to_dict(roundtrip(state)) == GAME.to_dict(state)


# -- fields 5 and 6: the rule text's example -----------------------------------------------------

@pytest.mark.parametrize("field", [5, 6])
def test_one_visitor_takes_all_eight_coins(field):
    state = fresh(3)
    broke(state, 0, 1, 2)
    set_field(state, field, 3, 5)
    state, events = play_round(state, {0: f"1,{field}", 1: "2,3", 2: "2,3"})
    assert state.money[0] == [3, 5]
    assert field_before_refill(state, events, field) == [0, 0]


@pytest.mark.parametrize("field", [5, 6])
def test_two_visitors_split_one_silver_and_two_gold_each(field):
    state = fresh(3)
    broke(state, 0, 1, 2)
    set_field(state, field, 3, 5)
    state, events = play_round(state, {0: f"1,{field}", 1: f"3,{field}", 2: "2,3"})
    assert state.money[0] == [1, 2] and state.money[1] == [1, 2]
    assert field_before_refill(state, events, field) == [1, 1]


@pytest.mark.parametrize("field", [5, 6])
def test_three_visitors_take_one_of_each_and_two_gold_remain(field):
    state = fresh(3)
    broke(state, 0, 1, 2)
    set_field(state, field, 3, 5)
    state, events = play_round(state, {0: f"1,{field}", 1: f"2,{field}", 2: f"3,{field}"})
    assert all(state.money[s] == [1, 1] for s in range(3))
    assert field_before_refill(state, events, field) == [0, 2]


def test_leftovers_stay_and_new_coins_are_added():
    state = fresh(3)
    broke(state, 0, 1, 2)
    set_field(state, 5, 3, 5)
    state, events = play_round(state, {0: "1,5", 1: "2,5", 2: "3,6"})
    to5 = DUCAT_CARDS[state.ducat_card][0]
    assert sum(state.field5) == 2 + to5


# -- royal taxes -----------------------------------------------------------------------------------

def test_royal_tax_on_ten_gold_returns_five():
    state = fresh(3)
    broke(state, 1, 2)
    set_money(state, 0, 0, 9)
    set_field(state, 5, 0, 1)
    state, events = play_round(state, {0: "1,5", 1: "2,3", 2: "2,3"})
    assert state.money[0] == [0, 5]
    text = " ".join(words(events))
    assert "Royal tax: Ann holds 10 gold and returns 5." in text
    assert "Königssteuer: Ann hat 10 Gold und gibt 5 zurück." in " ".join(words(events, "de"))


def test_royal_tax_on_an_odd_count_keeps_the_spare_coin():
    state = fresh(3)
    broke(state, 1, 2)
    set_money(state, 0, 6, 0)
    set_field(state, 5, 3, 0)
    state, _ = play_round(state, {0: "1,5", 1: "2,3", 2: "2,3"})
    assert state.money[0] == [5, 0]  # 9 silver: 4 back, the odd one kept


def test_royal_tax_at_exactly_eight_returns_four():
    """The rule: "Whoever has 8 or more of the same type of coins must immediately return half
    of them." Exactly 8 is taxed."""
    state = fresh(3)
    broke(state, 1, 2)
    set_money(state, 0, 0, 7)
    set_field(state, 5, 0, 1)
    state, events = play_round(state, {0: "1,5", 1: "2,3", 2: "2,3"})
    assert state.money[0] == [0, 4]
    assert "Royal tax: Ann holds 8 gold and returns 4." in " ".join(words(events))


def test_royal_tax_halves_again_while_eight_or_more_are_left():
    """7 silver and 8 more at a field make 15: half back keeps 8, which is "8 or more" again
    ("This happens at any point during the game"), so half of those go back too: 4 are kept."""
    state = fresh(3)
    broke(state, 1, 2)
    set_money(state, 0, 7, 0)
    set_field(state, 5, 8, 0)
    state, events = play_round(state, {0: "1,5", 1: "2,3", 2: "2,3"})
    assert state.money[0] == [4, 0]
    assert "Royal tax: Ann holds 15 silver and returns 11." in " ".join(words(events))


def test_seven_of_a_kind_and_many_coins_in_all_are_not_taxed():
    state = fresh(3)
    broke(state, 1, 2)
    set_money(state, 0, 5, 5)
    set_field(state, 5, 2, 2)
    state, _ = play_round(state, {0: "1,5", 1: "2,3", 2: "2,3"})
    assert state.money[0] == [7, 7]


def test_armed_gift_cancels_one_royal_tax():
    state = fresh(3)
    broke(state, 1, 2)
    set_money(state, 0, 0, 9)
    set_field(state, 5, 0, 1)
    give_document(state, 0, "gift")
    state, events = play_round(state, {0: "1,5", 1: "2,3", 2: "2,3"}, before={0: ["arm gift"]})
    assert state.money[0] == [0, 10]
    assert "gift" not in state.hands[0] and "gift" in state.discard
    assert state.armed[0]["gift"] is False
    assert any("plays a Gift" in line for line in words(events))


def test_gift_fires_once_a_round_only():
    state = fresh(3)
    broke(state, 1, 2)
    set_money(state, 0, 0, 9)
    set_field(state, 5, 0, 1)
    set_field(state, 6, 0, 1)
    give_document(state, 0, "gift")
    give_document(state, 0, "gift")
    state, _ = play_round(state, {0: "5,6", 1: "2,3", 2: "2,3"}, before={0: ["arm gift"]})
    assert state.money[0] == [0, 6]  # 10 kept by the Gift, 11 taxed: 5 back
    assert state.hands[0].count("gift") == 1 and state.armed[0]["gift"] is True


# -- field 1: Brother Jacob ------------------------------------------------------------------------

def test_brother_jacob_alone_gives_a_document_for_free():
    state = fresh(3)
    top = state.pile[0]
    state, events = play_round(state, {0: "1,5", 1: "2,3", 2: "3,6"})
    assert top in state.hands[0]
    assert state.ducats(0) >= 6
    assert [e.seat for e in events if e.text.id.endswith("document_drawn")] == [0]


def test_brother_jacob_crowded_costs_four_and_who_cannot_pay_gets_nothing():
    state = fresh(3)
    broke(state, 2)
    state, events = play_round(state, {0: "1,5", 1: "1,6", 2: "1,3"})
    assert state.phase == "field1" and GAME.to_act(state) == frozenset({0, 1})
    assert "Cy gets no document." in words(events)
    assert [a.encode() for a in GAME.legal_actions(state, 0)] == ["buy 0", "buy 1"]
    state, _ = act(state, 0, "buy 1")
    assert len(state.hands[0]) == 1 and state.money[0] == [2, 0]
    state, _ = act(state, 1, "buy 0")
    assert len(state.hands[1]) == 0 and state.phase != "field1"


# -- fields 2 and 3 ----------------------------------------------------------------------------------

@pytest.mark.parametrize("field,single,crowded,attr", [(2, 4, 6, "walls"), (3, 5, 7, "towers")])
def test_building_alone_and_crowded(field, single, crowded, attr):
    state = fresh(3)
    for seat in range(3):
        set_money(state, seat, 0, 7)  # 14 Ducats
    state, _ = play_round(state, {0: f"1,{field}", 1: "5,6", 2: "5,6"})
    assert state.phase == f"field{field}"
    assert [a.encode() for a in GAME.legal_actions(state, 0)] == ["buy 0", "buy 1", "buy 2"]
    state, _ = act(state, 0, "buy 2")
    assert getattr(state, attr)[0] == 2 and state.ducats(0) == 14 - 2 * single
    state = fresh(3, seed=2)
    for seat in range(3):
        set_money(state, seat, 0, 7)
    state, _ = play_round(state, {0: f"1,{field}", 1: f"{field},5", 2: f"{field},6"})
    assert state.phase == f"field{field}"
    state, _ = act(state, 0, "buy 2")
    state, _ = act(state, 1, "buy 1")
    state, events = act(state, 2, "buy 0")
    assert getattr(state, attr)[:3] == [2, 1, 0]
    assert state.ducats(0) == 14 - 2 * crowded
    assert state.ducats(1) >= 14 - crowded


def test_who_cannot_pay_for_a_wall_gets_nothing_and_is_not_asked():
    state = fresh(3)
    set_money(state, 0, 3, 0)
    state, events = play_round(state, {0: "2,5", 1: "1,6", 2: "3,6"})
    assert state.walls[0] == 0 and "Ann buys no wall." in words(events)


def test_a_castle_takes_at_most_four_walls():
    state = fresh(3)
    set_money(state, 0, 0, 7)
    state.walls[0] = 3
    state, _ = play_round(state, {0: "2,5", 1: "1,6", 2: "3,6"})
    assert [a.encode() for a in GAME.legal_actions(state, 0)] == ["buy 0", "buy 1"]


def test_paying_five_with_only_gold_takes_change_from_the_sack():
    state = fresh(3)
    broke(state, 1, 2)
    set_money(state, 0, 0, 3)
    state, _ = play_round(state, {0: "3,4", 1: "1,2", 2: "1,2"})
    assert state.phase == "field3"
    sack_before = list(state.sack)
    state, events = act(state, 0, "buy 1")
    assert state.towers[0] == 1 and state.money[0] == [1, 0]
    assert state.sack == [sack_before[0] - 1, sack_before[1] + 3]
    assert any("change" in line for line in words(events))


def test_paying_five_with_only_gold_overpays_when_the_sack_has_no_silver():
    state = fresh(3)
    broke(state, 1, 2)
    set_money(state, 0, 0, 3)
    state, _ = play_round(state, {0: "3,4", 1: "1,2", 2: "1,2"})
    silver = state.sack[0]
    state.sack[0] = 0
    state.money[1][0] += silver  # park the sack's silver with Bo
    state, events = act(state, 0, "buy 1")
    assert state.money[0] == [0, 0] and state.towers[0] == 1
    assert any("overpays by 1" in line for line in words(events))


# -- field 4: the Black Knight ------------------------------------------------------------------------

def knight_alone(seed=1):
    state = fresh(3, seed=seed)
    broke(state, 0, 1, 2)
    set_field(state, 5, 1, 3)
    set_field(state, 6, 2, 2)
    state, _ = play_round(state, {0: "3,4", 1: "1,2", 2: "1,2"})
    assert state.phase == "knight" and GAME.to_act(state) == frozenset({0})
    return state


def test_lone_knight_takes_all_gold_of_a_field_and_goes_to_the_dungeon():
    state = knight_alone()
    assert [a.encode() for a in GAME.legal_actions(state, 0)] == ["rob 5", "rob 6", "raid 1", "raid 2"]
    state, events = act(state, 0, "rob 5")
    assert state.money[0] == [0, 3]
    assert field_before_refill(state, events, 5) == [1, 0]
    assert state.dungeon[0] is True


def test_raid_with_the_money_sack_takes_all_money():
    state = knight_alone()
    set_money(state, 1, 3, 2)
    state.chance_counter = die_counter(state, "sack")
    state, events = act(state, 0, "raid 1")
    assert state.money[1] == [0, 0] and state.money[0] == [3, 2]
    assert state.dungeon[0] is True
    assert "The die shows the money sack: Ann takes 3 silver and 2 gold from Bo." in words(events)


def test_raid_with_the_castle_steals_a_piece_of_the_thiefs_choice():
    state = knight_alone()
    state.walls[1], state.towers[1] = 2, 1
    state.chance_counter = die_counter(state, "castle")
    state, _ = act(state, 0, "raid 1")
    assert state.phase == "steal"
    assert [a.encode() for a in GAME.legal_actions(state, 0)] == ["steal wall", "steal tower"]
    view = GAME.view(state, None)
    assert view["raid"]["die"] == "castle" and view["raid"]["victim"] == 1
    state, _ = act(state, 0, "steal tower")
    assert (state.walls[1], state.towers[1], state.towers[0]) == (2, 0, 1)


def test_raid_with_the_castle_on_a_player_without_pieces_takes_nothing():
    state = knight_alone()
    state.chance_counter = die_counter(state, "castle")
    state, events = act(state, 0, "raid 2")
    assert state.walls == [0, 0, 0] and state.phase == "choose"
    assert any("can take nothing" in line for line in words(events))


def test_armed_alibi_cancels_a_raid_but_the_knight_goes_to_the_dungeon():
    state = fresh(3)
    give_document(state, 1, "alibi")
    broke(state, 0)
    set_money(state, 1, 3, 3)
    state, _ = play_round(state, {0: "3,4", 1: "1,2", 2: "1,2"}, before={1: ["arm alibi"]})
    while state.phase != "knight":
        seat = min(GAME.to_act(state))
        state, _ = act(state, seat, "buy 0")
    state, events = act(state, 0, "raid 1")
    assert state.money[1] == [3, 3] and state.dungeon[0] is True
    assert "alibi" not in state.hands[1]
    assert "Bo has an Alibi: the raid fails." in words(events)


def test_three_knights_all_go_to_the_dungeon():
    state = fresh(3)
    broke(state, 0, 1, 2)
    set_field(state, 5, 0, 4)
    state, events = play_round(state, {0: "4,6", 1: "4,6", 2: "4,6"})
    assert state.dungeon == [True, True, True]
    assert any("all go to the dungeon" in line for line in words(events))


def haggle(seed=1, pieces=(0, 1)):
    state = fresh(3, seed=seed)
    set_money(state, 0, 2, 4)   # 10 Ducats
    set_money(state, 1, 2, 2)   # 6 Ducats
    broke(state, 2)
    state.walls[0], state.walls[1] = pieces
    set_field(state, 5, 0, 4)
    state, events = play_round(state, {0: "4,6", 1: "4,6", 2: "1,2"})
    assert state.phase == "haggle"
    return state, events


def test_haggle_fewer_pieces_decides_who_offers_first():
    state, events = haggle(pieces=(0, 1))
    assert GAME.to_act(state) == frozenset({0})
    assert [a.encode() for a in GAME.legal_actions(state, 0)] == ["opener 0", "opener 1"]
    state, events = haggle(pieces=(2, 1))
    assert GAME.to_act(state) == frozenset({1})


def test_haggle_tie_on_pieces_is_settled_by_a_die():
    state, events = haggle(pieces=(1, 1))
    lines = words(events)
    assert any(line.startswith("Tie on castle pieces") for line in lines)
    assert state.haggle["chooser"] in (0, 1)


def test_haggle_won_the_winner_pays_the_loser_then_acts():
    state, _ = haggle(pieces=(0, 1))
    state, _ = act(state, 0, "opener 1")
    offers = [a.encode() for a in GAME.legal_actions(state, 1)]
    assert offers[0] == "offer 1" and offers[-1] == "pass" and "offer 11" not in offers  # Bo is worth 6 + 4
    state, _ = act(state, 1, "offer 2")
    assert [a.encode() for a in GAME.legal_actions(state, 0)][0] == "offer 3"
    assert "accept" in [a.encode() for a in GAME.legal_actions(state, 0)]
    state, _ = act(state, 0, "offer 5")
    state, events = act(state, 1, "accept")
    assert state.phase == "knight" and state.knight == 0
    assert state.ducats(0) == 5 and state.ducats(1) == 11
    assert state.dungeon[:2] == [True, True]
    assert "Bo accepts: Ann becomes the Black Knight for 5 Ducats." in words(events)
    state, _ = act(state, 0, "rob 5")
    assert state.money[0][1] >= 4


def test_haggle_lost_the_loser_keeps_the_money():
    state, _ = haggle(pieces=(0, 1))
    state, _ = act(state, 0, "opener 0")
    state, _ = act(state, 0, "offer 1")
    state, _ = act(state, 1, "offer 7")      # more than Bo's coins: 6 in coins and a wall
    state, events = act(state, 0, "accept")
    assert state.knight == 1
    assert state.walls[1] == 0 and state.walls[0] == 1 and state.money[1] == [0, 0]
    assert state.ducats(0) == 16


def test_haggle_both_refusing_sends_both_to_the_dungeon():
    state, _ = haggle(pieces=(0, 1))
    state, _ = act(state, 0, "opener 1")
    state, _ = act(state, 1, "pass")
    assert GAME.to_act(state) == frozenset({0})
    assert "accept" not in [a.encode() for a in GAME.legal_actions(state, 0)]
    state, events = act(state, 0, "pass")
    assert state.dungeon[:2] == [True, True] and state.phase == "choose"
    assert any("both go to the dungeon" in line for line in words(events))


def test_a_knight_in_the_dungeon_is_ransomed_after_the_documents():
    state = fresh(3)
    state.dungeon[0] = True
    broke(state, 0)
    give_document(state, 0, "grant")
    state.money[2][0] += state.sack[0]  # only gold left in the sack: the grant brings 6 Ducats
    state.sack[0] = 0
    state, events = play_round(state, {0: "5,6", 1: "1,2", 2: "1,2"}, before={0: ["doc grant", "ransom"]})
    lines = words(events)
    grant = next(i for i, line in enumerate(lines) if "draws" in line)
    ransom = next(i for i, line in enumerate(lines) if "ransoms" in line)
    cards = next(i for i, line in enumerate(lines) if "action cards are revealed" in line)
    assert grant < ransom < cards
    assert state.dungeon[0] is False and state.money[0] == [0, 1]
    state, _ = settle(state, {})
    assert state.round == 2 and Action("play", ("4,5",)) in GAME.legal_actions(state, 0)


@pytest.mark.parametrize("silver, gold", [(0, 2), (2, 1), (4, 0)])
def test_a_knight_ransomed_with_exactly_four_ducats_is_free_and_keeps_nothing(silver, gold):
    """"Ransoming costs four Ducats": exactly four are enough, and all four go to the sack."""
    state = fresh(3)
    state.dungeon[0] = True
    set_money(state, 0, silver, gold)
    sack = list(state.sack)
    state, events = play_round(state, {0: "5,6", 1: "1,3", 2: "2,3"}, before={0: ["ransom"]})
    assert state.dungeon[0] is False
    assert "Ann ransoms the Black Knight for 4 Ducats." in words(events)
    assert state.money[0] == [0, 0]
    assert [state.sack[0] - sack[0], state.sack[1] - sack[1]] == [silver, gold]
    state, _ = settle(state, {})
    assert state.round == 2 and state.money[0] == [0, 0]  # fields 5 and 6 were empty
    assert Action("play", ("4,5",)) in GAME.legal_actions(state, 0)  # the knight is back in hand


def test_ransom_without_money_fails_and_the_knight_stays():
    state = fresh(3)
    state.dungeon[0] = True
    broke(state, 0)
    state, events = play_round(state, {0: "5,6", 1: "1,3", 2: "2,3"}, before={0: ["ransom"]})
    assert state.dungeon[0] is True
    assert "Ann cannot pay the ransom of 4 Ducats." in words(events)


# -- documents -------------------------------------------------------------------------------------

def test_building_permit_pays_the_single_price_in_a_crowd():
    state = fresh(3)
    for seat in range(3):
        set_money(state, seat, 0, 6)
    give_document(state, 0, "permit")
    state, _ = play_round(state, {0: "2,5", 1: "2,6", 2: "1,3"}, before={0: ["doc permit"]})
    state, _ = act(state, 0, "buy 2")
    state, _ = act(state, 1, "buy 1")
    assert state.walls[:2] == [2, 1]
    assert state.ducats(0) == 12 - 2 * 4 and state.ducats(1) == 12 - 6


def test_master_builder_allows_three_pieces():
    state = fresh(3)
    set_money(state, 0, 0, 8)
    give_document(state, 0, "master")
    state, _ = play_round(state, {0: "2,5", 1: "1,6", 2: "1,6"}, before={0: ["doc master"]})
    while 0 not in GAME.to_act(state):
        seat = min(GAME.to_act(state))
        state, _ = act(state, seat, "buy 0")
    assert [a.encode() for a in GAME.legal_actions(state, 0)][-1] == "buy 3"


def test_royal_grant_draws_three_coins():
    state = fresh(3)
    broke(state, 0)
    give_document(state, 0, "grant")
    state, events = play_round(state, {0: "1,5", 1: "2,6", 2: "2,6"}, before={0: ["doc grant"]})
    state, _ = settle(state, {})
    assert sum(state.money[0]) == 3
    drawn = next(e.text.params for e in events if e.text.id.endswith("event.grant"))
    assert state.money[0] == [drawn["silver"], drawn["gold"]]
    assert "grant" in state.discard and "grant" not in state.hands[0]


def test_pardon_frees_the_knight_but_not_for_this_round():
    state = fresh(3)
    state.dungeon[0] = True
    give_document(state, 0, "pardon")
    state, _ = act(state, 0, "doc pardon")
    assert Action("play", ("4,5",)) not in GAME.legal_actions(state, 0)
    state, events = play_round(state, {0: "5,6", 1: "1,3", 2: "2,3"})
    assert state.dungeon[0] is False
    assert "Ann's Black Knight leaves the dungeon." in words(events)


@pytest.mark.parametrize("field,code", [(5, "taxpriv"), (6, "tollpriv")])
def test_privilege_shuts_the_others_out(field, code):
    state = fresh(3)
    broke(state, 0, 1, 2)
    set_field(state, field, 3, 5)
    give_document(state, 1, code)
    state, events = play_round(state, {0: f"1,{field}", 1: f"2,{field}", 2: f"3,{field}"},
                               before={1: ["doc " + code]})
    assert state.money[1] == [3, 5] and state.money[0] == [0, 0] and state.money[2] == [0, 0]


def test_monks_favour_keeps_one_of_two_and_puts_the_other_under_the_pile():
    state = fresh(3)
    give_document(state, 0, "favour")
    first, second = state.pile[0], state.pile[1]
    state, _ = play_round(state, {0: "5,6", 1: "1,3", 2: "2,3"}, before={0: ["doc favour"]})
    assert state.phase == "favour" and GAME.to_act(state) == frozenset({0})
    public = GAME.view(state, None)
    assert "favour" not in public.get("private", {}) and public["players"][0]["cards"] is None
    assert GAME.view(state, 0)["private"]["favour"] == [first, second]
    state, _ = act(state, 0, "keep " + second)
    assert second in state.hands[0]
    assert state.pile[-1] == first and first not in state.hands[0]


def test_veto_against_a_player_cancels_the_document_and_both_are_discarded():
    state = fresh(3)
    broke(state, 0)
    give_document(state, 0, "grant")
    give_document(state, 2, "veto")
    state, events = play_round(state, {0: "1,3", 1: "2,6", 2: "2,6"},
                               before={2: ["veto 0"], 0: ["doc grant"]})
    assert "Cy's Veto cancels Ann's Royal Grant." in words(events)
    assert "Cys Veto hebt Anns Königliche Zuwendung auf." in words(events, "de")
    assert state.money[0] == [0, 0]
    assert "grant" in state.discard and "veto" in state.discard


def test_veto_against_a_kind_of_document():
    state = fresh(3)
    give_document(state, 1, "permit")
    give_document(state, 0, "veto")
    state, events = play_round(state, {0: "5,6", 1: "1,3", 2: "2,4"},
                               before={0: ["veto permit"], 1: ["doc permit"]})
    assert "Ann's Veto cancels Bo's Building Permit." in words(events)
    assert "permit" not in state.effective[1]


def test_veto_does_not_fire_on_other_documents():
    state = fresh(3)
    give_document(state, 1, "grant")
    give_document(state, 0, "veto")
    state, events = play_round(state, {0: "5,6", 1: "1,3", 2: "2,4"},
                               before={0: ["veto permit"], 1: ["doc grant"]})
    assert "veto" in state.hands[0] and state.armed[0]["veto"] == "permit"


# -- victory ------------------------------------------------------------------------------------------

def test_a_complete_castle_wins_at_the_end_of_the_round():
    state = fresh(3)
    state.walls[0], state.towers[0] = 4, 3
    set_money(state, 0, 0, 5)
    state, _ = play_round(state, {0: "3,5", 1: "1,6", 2: "1,6"})
    state, events = settle(state, {(0, "field3"): 1})
    assert "Ann builds 1 tower for 5 Ducats." in words(events)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    assert GAME.view(state, None)["over"] is True


def test_two_castles_in_the_same_round_most_ducats_wins():
    state = fresh(3)
    broke(state, 0, 1, 2)
    for seat in (0, 1):
        state.walls[seat], state.towers[seat] = 4, 4
    set_money(state, 1, 1, 1)
    set_field(state, 5, 0, 2)
    state, _ = play_round(state, {0: "5,6", 1: "1,3", 2: "2,3"})
    outcome = GAME.outcome(state)
    assert outcome.winners == (0,) and state.ducats(0) == 4 > state.ducats(1) == 3
    assert translate(outcome.reason, "en", ["Ann", "Bo", "Cy"], strict=True) == (
        "Several castles are complete; Ann wins with the most Ducats (4).")


def test_two_castles_most_ducats_wins_from_a_later_seat():
    """The "most Ducats" tie-break names the richest, wherever they sit (not the first seat)."""
    state = fresh(3)
    broke(state, 0, 1, 2)
    for seat in (0, 1):
        state.walls[seat], state.towers[seat] = 4, 4
    set_money(state, 1, 3, 1)
    set_field(state, 5, 0, 2)
    state, _ = play_round(state, {0: "5,6", 1: "1,3", 2: "2,3"})
    outcome = GAME.outcome(state)
    assert state.ducats(1) == 5 > state.ducats(0) == 4
    assert outcome.winners == (1,)
    assert translate(outcome.reason, "en", ["Ann", "Bo", "Cy"], strict=True) == (
        "Several castles are complete; Bo wins with the most Ducats (5).")


def test_two_castles_with_equal_ducats_share_the_win():
    state = fresh(3)
    broke(state, 0, 1, 2)
    for seat in (0, 1):
        state.walls[seat], state.towers[seat] = 4, 4
    state, _ = play_round(state, {0: "1,2", 1: "1,3", 2: "2,3"})
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        state, _ = act(state, seat, "buy 0")
    assert GAME.outcome(state).winners == (0, 1)


# -- state handling ---------------------------------------------------------------------------------

def test_json_round_trip_and_refusals_on_load():
    state = fresh(4)
    state, _ = act(state, 0, "play 2,5")
    assert GAME.to_dict(roundtrip(state)) == GAME.to_dict(state)
    data = GAME.to_dict(state)
    bad = dict(data, money=[[99, 0]] + data["money"][1:])
    with pytest.raises(InvalidState):
        GAME.from_dict(bad)
    bad = dict(data, pile=data["pile"][1:])
    with pytest.raises(InvalidState):
        GAME.from_dict(bad)
    with pytest.raises(InvalidState):
        GAME.from_dict(dict(data, phase="dance"))


def test_apply_never_mutates_and_refuses_nonsense():
    state = fresh(3)
    before = GAME.to_dict(state)
    with pytest.raises(IllegalAction):
        act(state, 0, "play 2,2")
    with pytest.raises(IllegalAction):
        act(state, 0, "doc grant")
    act(state, 0, "play 1,2")
    assert GAME.to_dict(state) == before


def test_last_rounds_cards_and_raid_stay_public_into_the_next_round():
    state = knight_alone()
    state.chance_counter = die_counter(state, "sack")
    state, _ = act(state, 0, "raid 1")
    assert state.phase == "choose" and state.round == 2
    view = GAME.view(state, None)
    assert view["previous"]["cards"] == [[3, 4], [1, 2], [1, 2]]
    assert view["previous"]["raid"] == {"thief": 0, "victim": 1, "die": "sack", "result": "money"}
    assert all(p["cards"] is None for p in view["players"])


def test_private_summary_names_documents_and_what_is_armed():
    state = fresh(3)
    for code in ("gift", "gift", "veto", "grant"):
        give_document(state, 0, code)
    state, _ = act(state, 0, "arm gift")
    state, _ = act(state, 0, "veto 2")
    summary = GAME.view(state, 0)["private"]["summary"]
    assert translate(summary, "en", ["Ann", "Bo", "Cy"], strict=True) == (
        "Your documents: Royal Grant, 2 x Gift (armed) and Veto (armed against Cy).")
    assert translate(summary, "de", ["Ann", "Bo", "Cy"], strict=True) == (
        "Deine Urkunden: Königliche Zuwendung, 2 x Geschenk (bereit) und Veto (bereit gegen Cy).")
    assert "private" not in GAME.view(state, None) and GAME.view(state, 1)["private"]["hand"] == []


def test_the_choice_so_far_is_said_plainly_in_both_languages():
    """A document tapped before any card: the line says that no card is picked yet, and the
    confirmed choice names the document played ('with', not 'documents: no document'). The
    summary says nothing of changing it: it stays in the DM once the decision is over (the DM's
    button offers the change while it may be made)."""
    state = fresh(3)
    give_document(state, 0, "grant")
    state, events = act(state, 0, "doc grant")
    line = next(event.text for event in events if event.seat == 0)
    assert translate(line, "en", ["Ann", "Bo", "Cy"], strict=True) == (
        "Your choice so far: no action card yet, with Royal Grant.")
    assert translate(line, "de", ["Ann", "Bo", "Cy"], strict=True) == (
        "Deine Wahl bisher: noch keine Aktionskarte, dazu Königliche Zuwendung.")
    state, _ = act(state, 1, "play 1,2")
    summary = GAME.view(state, 1)["private"]["summary"]
    assert translate(summary, "en", ["Ann", "Bo", "Cy"], strict=True) == (
        "You hold no documents. Your choice: 1 Brother Jacob and 2 Farmer Johann, with no document.")
    assert translate(summary, "de", ["Ann", "Bo", "Cy"], strict=True) == (
        "Du hast keine Urkunden. Deine Wahl: 1 Bruder Jakob und 2 Bauer Johann, dazu keine Urkunde.")


def test_a_knight_in_the_dungeon_is_said_with_the_ransom_as_set_now():
    """While choosing, a player whose Black Knight is in the dungeon reads whether the choice
    ransoms him: the ransom toggle's state, not only its button."""
    state = fresh(3)
    state.dungeon[0] = True
    names = ["Ann", "Bo", "Cy"]
    summary = GAME.view(state, 0)["private"]["summary"]
    assert translate(summary, "en", names, strict=True) == (
        "You hold no documents. Your Black Knight stays in the dungeon unless you ransom him (4 Ducats).")
    assert translate(summary, "de", names, strict=True) == (
        "Du hast keine Urkunden. Dein Schwarzer Ritter bleibt im Kerker, wenn du ihn nicht freikaufst (4 Dukaten).")
    state, _ = act(state, 0, "ransom")
    summary = GAME.view(state, 0)["private"]["summary"]
    assert translate(summary, "en", names, strict=True) == (
        "You hold no documents. You ransom your Black Knight from the dungeon for 4 Ducats.")
    assert translate(summary, "de", names, strict=True) == (
        "Du hast keine Urkunden. Du kaufst deinen Schwarzen Ritter für 4 Dukaten aus dem Kerker frei.")
    assert "dungeon" not in translate(GAME.view(state, 1)["private"]["summary"], "en", names)


def test_pardon_and_ransom_together_cost_nothing():
    state = fresh(3)
    state.dungeon[0] = True
    give_document(state, 0, "pardon")
    state, events = play_round(state, {0: "5,6", 1: "1,3", 2: "2,3"}, before={0: ["doc pardon", "ransom"]})
    state, _ = settle(state, {})
    assert state.dungeon[0] is False
    assert not any("ransoms" in line for line in words(events))


def test_of_two_armed_vetoes_only_one_fires():
    state = fresh(3)
    give_document(state, 0, "grant")
    give_document(state, 1, "veto")
    give_document(state, 2, "veto")
    state, events = play_round(state, {0: "5,6", 1: "1,3", 2: "2,4"},
                               before={1: ["veto grant"], 2: ["veto 0"], 0: ["doc grant"]})
    assert "Bo's Veto cancels Ann's Royal Grant." in words(events)
    assert "veto" not in state.hands[1] and "veto" in state.hands[2]


def test_labels_stay_short_in_both_languages_with_long_names():
    import random

    names = ["Bartholomew the Unready of S" + str(i) for i in range(6)]  # 29 characters
    rng = random.Random(5)
    checked = 0
    for players in (3, 6):
        state = GAME.new_game(players, seed=players)
        for _ in range(400):
            if GAME.outcome(state) is not None:
                break
            seat = rng.choice(sorted(GAME.to_act(state)))
            for action in GAME.legal_actions(state, seat):
                for lang in ("en", "de"):
                    label = translate(GAME.describe(state, seat, action), lang, names, strict=True)
                    assert len(label) <= 80, label
                    checked += 1
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert checked > 1000
