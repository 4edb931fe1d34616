"""The JSON of a message's components (bot.components.Components, built as dicts): pinned for a few
messages, the same as discord.ui's View and items would send for the same components in whole
games, and every custom_id still routed to the class that answers its click."""
from __future__ import annotations

import hashlib
import json
import random

import discord
import pytest

from bot.choices import choices_for, choices_offered, public_choices, toggles_for
from bot.components import (
    ALL_DYNAMIC_ITEMS,
    Choice,
    Components,
    HandButton,
    HintButton,
    MoveButton,
    MoveSelect,
    OrderButton,
    ToggleButton,
    Toggles,
    board_view,
    private_toggled,
    private_view,
)
from games import REGISTRY


def cards() -> Toggles:
    return Toggles(verb="play", items=tuple((str(i), f"{i + 1} · Card {i + 1}") for i in range(4)),
                   chosen=frozenset(), size=2, prompt="Pick exactly two action cards", confirm="Play them")


def dice() -> Toggles:
    return Toggles(verb="reroll", items=tuple((str(i), f"Die {i + 1}: {i + 1}") for i in range(5)),
                   chosen=frozenset({"1", "3"}), size=None, prompt="Keep all", confirm="Roll again")


MESSAGES = {
    "dm: cards to toggle, vetoes, standing orders": lambda: private_view(
        7, 42, [Choice(f"veto {i}", f"Veto against Spieler{i}") for i in range(4)], [cards()], 5, lang="de",
        orders=[("Räuber: ich selbst", False), ("Steuer: der Computer", True)]),
    "board: menus of lays, a lone end, hand and hint": lambda: board_view(
        7, 42, [Choice(f"lay F{t} {c}{r}", f"Lay F{t} at {c}{r}")
                for t in range(3) for c in "DEF" for r in range(1, 10)] + [Choice("end", "End the turn")],
        hand=True, hint=True, lang="en"),
    "board: dice to roll again, long labels": lambda: board_view(
        3, 9, [Choice("stop", "Stop and score " + "very " * 20 + "much")], [dice()], None, hand=False),
    "dm: an action too long for a button": lambda: private_view(
        123456, 99999, [Choice("guard S19 " + "C" * 80, "Guard")]),
}

# SHA-256 of each message's components as JSON, as discord.ui's View made them before they were
# built as dicts (the same bytes then and now).
PINNED = {
    "dm: cards to toggle, vetoes, standing orders":
        "367d318e4343aa9c2a3fd1e80c8b7e859e7b04efe11bc281ab54119dd12e3c47",
    "board: menus of lays, a lone end, hand and hint":
        "0add9c328a82544523d0ec28283b7e22203f9afc3cc1b17f43893468627d6775",
    "board: dice to roll again, long labels":
        "93932ea410aa458f4b944486e73ef3682060d2aff19b386a9e0d2b92e298db3a",
    "dm: an action too long for a button":
        "bad587c56fad52a54b5d27742999e57b3a295847e804d50e644169af2b069e43",
}


def as_json(view: Components | None) -> str:
    assert view is not None
    return json.dumps(view.to_components(), ensure_ascii=False)


@pytest.mark.parametrize("name", list(MESSAGES))
def test_the_components_json_of_these_messages_is_pinned(name):
    assert hashlib.sha256(as_json(MESSAGES[name]()).encode()).hexdigest() == PINNED[name]


def test_a_dm_with_toggles_menus_and_orders_is_this_json():
    def button(style, label, custom_id):
        return {"type": 2, "style": style, "disabled": False, "label": label, "custom_id": custom_id}

    rows = json.loads(as_json(MESSAGES["dm: cards to toggle, vetoes, standing orders"]()))
    assert rows == [
        {"type": 1, "components": [button(1, "1 · Card 1 ✓", "rk:tog:7:42:5:0"),
                                   button(2, "2 · Card 2", "rk:tog:7:42:5:1"),
                                   button(1, "3 · Card 3 ✓", "rk:tog:7:42:5:2")]},
        {"type": 1, "components": [button(2, "4 · Card 4", "rk:tog:7:42:5:3")]},
        {"type": 1, "components": [button(3, "Play them", "rk:move:7:42:play 0,2")]},
        {"type": 1, "components": [button(1, f"Veto against Spieler{i}", f"rk:move:7:42:veto {i}") for i in range(4)]},
        {"type": 1, "components": [button(2, "Räuber: ich selbst", "rk:order:7:0:0"),
                                   button(3, "Steuer: der Computer", "rk:order:7:1:1")]},
    ]


def through_discord_ui(rows: list[dict]) -> list[dict]:
    """The same components made with discord.ui's View and the persistent items, as the bot built
    them before: what discord.py would have sent."""
    view = discord.ui.View(timeout=None)
    for row, action_row in enumerate(rows):
        for component in action_row["components"]:
            item = discord_ui_item(component)
            item.row = row
            view.add_item(item)
    return view.to_components()


def discord_ui_item(component: dict) -> discord.ui.Item:
    kind, game, *rest = component["custom_id"].split(":", 5)[1:]
    label = component.get("label", "")
    item: discord.ui.DynamicItem
    if component["type"] == 3:
        options = [discord.SelectOption(label=o["label"], value=o["value"]) for o in component["options"]]
        return MoveSelect(int(game), int(rest[0]), int(rest[1]), options, component.get("placeholder"))
    if kind == "move":
        version, action = component["custom_id"].split(":", 4)[3:]
        item = MoveButton(int(game), int(version), action, label)
    elif kind == "tog":
        item = ToggleButton(int(game), int(rest[0]), int(rest[1]), int(rest[2]), label, chosen=False)
    elif kind == "order":
        item = OrderButton(int(game), int(rest[0]), rest[1] == "1", label)
    elif kind == "hand":
        item = HandButton(int(game), label)
    else:
        assert kind == "hint"
        item = HintButton(int(game), label)
    item.item.style = discord.ButtonStyle(component["style"])
    item.item.disabled = component["disabled"]
    return item


def states(game, seats: int, seed: int, moves: int):
    """The states of a game of random moves (at most `moves`), with the seats to act."""
    rng = random.Random(seed)
    state = game.new_game(seats, seed=seed)
    for _ in range(moves):
        if game.outcome(state) is not None:
            return
        acting = sorted(game.to_act(state))
        yield state, acting
        seat = rng.choice(acting)
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))


def test_discord_ui_would_send_the_same_json_for_every_message_of_whole_games():
    checked = 0
    views = [make() for make in MESSAGES.values()]
    for game in REGISTRY.values():
        for state, acting in states(game, 3, seed=5, moves=60):
            names = ["Ann", "Bob", "Cid"]
            for seat in acting:
                views.append(private_view(4, 17, choices_for(game, state, seat, names),
                                          toggles_for(game, state, seat, names)))
            public = public_choices(game, state, 3, names)
            toggles = toggles_for(game, state, acting[0], names) if public else []
            views.append(board_view(4, 17, public, toggles, hand=True, hint=bool(checked % 2)))
            checked += 1
    assert checked > 200
    for view in views:
        if view is not None:
            assert as_json(view) == json.dumps(through_discord_ui(view.to_components()), ensure_ascii=False)


def test_a_dm_is_the_same_without_labels_for_the_moves_its_toggles_show():
    orders = [("Defence: me", False), ("Tournament: the computer", True)]
    left_out = 0
    for game in REGISTRY.values():
        for state, acting in states(game, 3, seed=7, moves=60):
            for seat in acting:
                toggles = toggles_for(game, state, seat)
                everything = choices_for(game, state, seat)
                for given in ([], orders):
                    toggled = private_toggled(toggles, orders=bool(given))
                    fewer, offers = choices_offered(game, state, seat, [], "en", toggled)
                    left_out += len(everything) - len(fewer)
                    assert offers == bool(everything)
                    with_all = private_view(4, 17, everything, toggles, orders=given)
                    without = private_view(4, 17, fewer, toggles, orders=given, offers=offers)
                    assert (without is None) == (with_all is None)
                    if with_all is not None:
                        assert as_json(without) == as_json(with_all)
    assert left_out > 100  # dice to roll again, cards to play: described for nothing before


def test_every_custom_id_is_answered_by_the_class_registered_for_it():
    for make in MESSAGES.values():
        view = make()
        assert view is not None and view.is_finished()  # discord.py keeps no callback of its own
        for custom_id in view.custom_ids():
            answering = [item for item in ALL_DYNAMIC_ITEMS
                         if item.__discord_ui_compiled_template__.fullmatch(custom_id)]
            assert len(answering) == 1, custom_id


def test_a_component_that_does_not_fit_is_refused_as_discord_ui_refuses_it():
    view = Components()
    view.put(0, {"type": 3, "custom_id": "rk:pick:1:1:0"}, width=5)
    with pytest.raises(ValueError):
        view.put(0, {"type": 2, "custom_id": "rk:hand:1"})
    with pytest.raises(ValueError):
        view.put(5, {"type": 2, "custom_id": "rk:hand:1"})


def test_a_dm_picture_is_keyed_by_its_view_value_however_the_view_shares_its_parts():
    from bot.delivery.content import value_key

    hand = ["Fv", "Cx"]
    shared = {"hand": hand, "seen": hand, "score": 3, "status": ("turn", 1.5), "done": False}
    copied = {"hand": ["Fv", "Cx"], "seen": ["F" + "v", "Cx"], "score": 3, "status": ("turn", 1.5), "done": False}
    assert value_key(shared) == value_key(copied)
    for other in ({**copied, "score": 4}, {**copied, "score": 3.0}, {**copied, "done": 0},
                  {**copied, "status": ["turn", 1.5]}, {**copied, "seen": ["Cx", "Fv"]}):
        assert value_key(other) != value_key(copied)
    assert value_key({"odd": object}) == hash(repr({"odd": object}))  # what marshal cannot write
