"""Component layout and the rules deciding what goes public: pure functions, no Discord."""
from __future__ import annotations

from bot.choices import choices_for, has_secrets, private_delta, public_choices
from bot.components import Choice, board_view, private_view
from bot.presenter import MESSAGE_LIMIT, board_text
from tests.bot.fakegame import GAME


def layout(view):
    items = [item.to_component_dict() for item in view.children]
    rows = view.to_components()
    return items, rows


def test_a_few_moves_become_buttons_on_rows_of_five():
    choices = [Choice(f"play {n}", f"Play your {n}") for n in range(7)]

    items, rows = layout(private_view(3, 12, choices))

    assert [i["custom_id"] for i in items] == [f"rk:move:3:12:play {n}" for n in range(7)]
    assert [len(r["components"]) for r in rows] == [5, 2]


def test_many_moves_become_select_menus_of_25():
    choices = [Choice(f"play {n}", f"Play your {n}") for n in range(60)]

    items, rows = layout(private_view(3, 12, choices))

    assert [len(i["options"]) for i in items] == [25, 25, 10]
    assert [i["custom_id"] for i in items] == ["rk:pick:3:12:0", "rk:pick:3:12:1", "rk:pick:3:12:2"]
    assert len(rows) == 3


def test_the_board_keeps_its_last_row_for_my_hand_and_never_exceeds_discord_limits():
    choices = [Choice(f"go {n}", "x" * 150) for n in range(200)]

    items, rows = layout(board_view(1, 0, choices))

    assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows)
    assert items[-1]["custom_id"] == "rk:hand:1"
    assert all(len(i["custom_id"]) <= 100 for i in items)
    assert all(len(o["label"]) <= 100 for i in items for o in i.get("options", []))


def test_long_action_texts_fall_back_to_a_select():
    choices = [Choice("guard S19 " + "C" * 80, "Guard")]

    items, _ = layout(private_view(123456, 99999, choices))

    assert items[0]["type"] == 3 and items[0]["options"][0]["value"].startswith("guard")


def test_public_moves_only_when_they_reveal_nothing():
    state = GAME.new_game(3, seed=1)
    assert [c.action for c in public_choices(GAME, state, 3)] == ["trump high", "trump low"]

    state, _ = GAME.apply(state, 0, choices_action(state, 0, "trump high"))
    assert public_choices(GAME, state, 3) == []  # everyone picks a card from a secret hand
    for seat in (0, 1):
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert GAME.to_act(state) == {2}
    assert public_choices(GAME, state, 3) == []  # one player left, but the options are their hand


def test_private_delta_is_what_the_public_view_lacks():
    state = GAME.new_game(2, seed=1)
    mine, public = GAME.view(state, 0), GAME.view(state, None)

    assert private_delta(mine, public) == {"hand": state["hands"][0], "my_choice": None}


def test_board_text_keeps_status_and_mentions_when_events_are_long():
    text = board_text(["event " * 100] * 20, "status line", "➡️ <@1> — your move.")

    assert len(text) <= MESSAGE_LIMIT and text.endswith("status line\n➡️ <@1> — your move.")


def test_a_states_choices_are_worked_out_once_for_every_copy_of_it(monkeypatch):
    """The plan, the delivery of the board and DMs and each toggle ask of the same state, each
    decoded anew from the store: the engine is asked once, and every copy gets the same answer."""
    state = GAME.new_game(3, seed=41)
    later, _ = GAME.apply(state, 0, choices_action(state, 0, "trump high"))
    names = ["Ann", "Bo", "Cy"]
    expected = (public_choices(GAME, state, 3, names), has_secrets(GAME, state, 3), choices_for(GAME, state, 0, names))
    asked = []
    to_act = GAME.to_act
    monkeypatch.setattr(GAME, "to_act", lambda state: asked.append(state) or to_act(state))

    for _ in range(3):
        copy = GAME.from_dict(GAME.to_dict(state))
        assert (public_choices(GAME, copy, 3, names), has_secrets(GAME, copy, 3),
                choices_for(GAME, copy, 0, names)) == expected
    assert asked == []

    assert public_choices(GAME, later, 3) == [] and asked  # another state: worked out anew


def choices_action(state, seat, text):
    return next(a for a in GAME.legal_actions(state, seat) if a.encode() == text)


def test_autocomplete_puts_exact_words_first_and_needs_every_word():
    from bot.components import Choice
    from bot.info import rank_matches

    choices = [Choice(f"lay {face} {square}", f"Lay {label} at {square}")
               for face, label in (("Fv", "forest+village"), ("P", "plain"))
               for square in ("C10", "C1", "C12")]
    ranked = [c.action for c in rank_matches(choices, "c1")]
    assert ranked[:2] == ["lay Fv C1", "lay P C1"]
    assert set(ranked) == {c.action for c in choices}  # C10 and C12 still match, after
    assert [c.action for c in rank_matches(choices, "plain c1")][0] == "lay P C1"
    assert rank_matches(choices, "plain d4") == []
