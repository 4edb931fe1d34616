"""Pips: a tiny card game that exercises everything the bot must handle, for the bot tests.

2-4 players, cards numbered 1..120, a private hand of three per seat (option `hand=30` deals
thirty, for more choices than a select menu holds). Each round:
  1. the round's starter alone picks whether high or low cards win (`trump high|low`): a
     turn-based choice that is safe to show on the public board;
  2. everyone secretly and simultaneously plays a card (`play <n>`): hidden choices that must
     travel by DM or ephemeral reply;
  3. the cards are revealed, the best unique card scores a point, and everyone draws a card
     from the shuffled deck (a chance draw through `games.core.chance`), told only to them.
After the last round the most points win.

It implements the engine contract faithfully but is not registered in `games.REGISTRY`: tests
pass it to `create_bot(games=...)`, so the engines' conformance suite never sees it.
"""
from __future__ import annotations

import copy
import io
import random
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from games.core import (
    Action,
    Checked,
    Event,
    Features,
    IllegalAction,
    InvalidState,
    Option,
    Outcome,
    as_checked,
    chance,
    check_turn,
)

CARDS = tuple(range(1, 121))


class Pips:
    name = "pips"
    title = "Pips (test game)"
    min_players = 2
    max_players = 4
    options = (
        Option("rounds", "Rounds to play", "2", ("1", "2", "3")),
        Option("hand", "Cards in each hand", "3", ("3", "30")),
    )
    features = Features(undo=True, public_moves=True)
    rules_summary = (
        "**Pips** — each round the starter picks whether high or low cards win, then everyone "
        "secretly plays a card. The best unique card scores. Most points after the last round win."
    )

    # ------------------------------------------------------------------ contract

    def new_game(self, seats: int, *, seed: int, options: Mapping[str, str] | None = None) -> dict:
        if not self.min_players <= seats <= self.max_players:
            raise IllegalAction(f"Pips needs {self.min_players}-{self.max_players} players.")
        rounds = (options or {}).get("rounds", "2")
        hand_size = (options or {}).get("hand", "3")
        if rounds not in self.options[0].choices or hand_size not in self.options[1].choices:
            raise IllegalAction("rounds must be 1, 2 or 3 and hand 3 or 30.")
        hand_size = int(hand_size)
        deck = list(CARDS)
        chance(seed, 0).shuffle(deck)
        hands = [sorted(deck[i * hand_size:(i + 1) * hand_size]) for i in range(seats)]
        return {
            "seed": int(seed),
            "draws": 1,
            "seats": seats,
            "rounds": int(rounds),
            "round": 1,
            "phase": "trump",
            "starter": 0,
            "trump": None,
            "deck": deck[seats * hand_size:],
            "hands": hands,
            "chosen": [None] * seats,
            "scores": [0] * seats,
            "last_reveal": None,
        }

    def to_act(self, state: dict) -> frozenset[int]:
        if state["phase"] == "trump":
            return frozenset({state["starter"]})
        if state["phase"] == "play":
            return frozenset(s for s, card in enumerate(state["chosen"]) if card is None)
        return frozenset()

    def legal_actions(self, state: dict, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state["phase"] == "trump":
            return [Action("trump", ("high",)), Action("trump", ("low",))]
        return [Action("play", (str(card),)) for card in state["hands"][seat]]

    def moves_are_public(self, state: dict, seat: int) -> bool:
        return state["phase"] == "trump"  # the trump call depends on no hand

    def apply(self, state: dict, seat: int, action: Action | Checked) -> tuple[dict, list[Event]]:
        action, known = as_checked(state, seat, action)
        if not known:
            check_turn(self, state, seat, action)
        new = copy.deepcopy(state)
        if action.verb == "trump":
            new["trump"] = action.args[0]
            new["phase"] = "play"
            return new, [Event(f"{{s{seat}}} decides that {action.args[0]} cards win this round.")]
        card = int(action.args[0])
        new["hands"][seat].remove(card)
        new["chosen"][seat] = card
        events = [Event(f"{{s{seat}}} has chosen a card.")]
        if all(c is not None for c in new["chosen"]):
            events += self._reveal(new)
        return new, events

    def _reveal(self, new: dict) -> list[Event]:
        chosen = new["chosen"]
        counts = {card: chosen.count(card) for card in chosen}
        unique = [card for card in chosen if counts[card] == 1]
        shown = ", ".join(f"{{s{s}}} {card}" for s, card in enumerate(chosen))
        events = []
        if unique:
            best = max(unique) if new["trump"] == "high" else min(unique)
            winner = chosen.index(best)
            new["scores"][winner] += 1
            events.append(Event(f"Revealed: {shown}. {{s{winner}}} wins round {new['round']}."))
        else:
            events.append(Event(f"Revealed: {shown}. Nobody wins round {new['round']}."))
        new["last_reveal"] = list(chosen)
        for seat in range(new["seats"]):
            if new["deck"]:
                rng = chance(new["seed"], new["draws"])
                new["draws"] += 1
                card = new["deck"].pop(rng.randrange(len(new["deck"])))
                new["hands"][seat] = sorted(new["hands"][seat] + [card])
                events.append(Event(f"You drew a {card}.", seat=seat))
        new["chosen"] = [None] * new["seats"]
        new["trump"] = None
        new["round"] += 1
        if new["round"] > new["rounds"]:
            new["phase"] = "over"
        else:
            new["phase"] = "trump"
            new["starter"] = (new["starter"] + 1) % new["seats"]
        return events

    def describe(self, state: dict, seat: int, action: Action) -> str:
        if action.verb == "trump":
            return f"{action.args[0].capitalize()} cards win"
        return f"Play your {action.args[0]}"

    def view(self, state: dict, seat: int | None) -> dict:
        to_act = sorted(self.to_act(state))
        if state["phase"] == "trump":
            status = f"Round {state['round']} of {state['rounds']}: {{s{state['starter']}}} picks high or low."
        elif state["phase"] == "play":
            waiting = ", ".join(f"{{s{s}}}" for s in to_act)
            status = f"Round {state['round']} of {state['rounds']} ({state['trump']} wins): waiting for {waiting}."
        else:
            status = "The game is over."
        view = {
            "game": self.name,
            "seats": state["seats"],
            "viewer": seat,
            "to_act": to_act,
            "status": status,
            "over": state["phase"] == "over",
            "round": state["round"],
            "rounds": state["rounds"],
            "trump": state["trump"],
            "scores": list(state["scores"]),
            "hand_sizes": [len(hand) for hand in state["hands"]],
            "has_chosen": [card is not None for card in state["chosen"]],
            "deck_size": len(state["deck"]),
            "last_reveal": state["last_reveal"],
        }
        if seat is not None:
            view["hand"] = list(state["hands"][seat])
            view["my_choice"] = state["chosen"][seat]
        return view

    def outcome(self, state: dict) -> Outcome | None:
        if state["phase"] != "over":
            return None
        best = max(state["scores"])
        winners = tuple(s for s, score in enumerate(state["scores"]) if score == best)
        return Outcome(winners, tuple(state["scores"]), f"Most rounds won after {state['rounds']} rounds.")

    def to_dict(self, state: dict) -> dict:
        return copy.deepcopy(state)

    def from_dict(self, data: Mapping[str, Any]) -> dict:
        required = {"seed", "draws", "seats", "rounds", "round", "phase", "starter", "trump", "deck",
                    "hands", "chosen", "scores", "last_reveal"}
        if not required <= set(data):
            raise InvalidState(f"Pips state lacks {sorted(required - set(data))}.")
        return copy.deepcopy(dict(data))

    def exposure(self, state: dict) -> tuple:
        """Draws from the deck and the reveals of the played cards."""
        return (state["draws"], len(state["deck"]), state.get("last_reveal"))

    def hidden_variant(self, state: dict, owner: int | None, rng: random.Random) -> dict:
        new = copy.deepcopy(state)
        others = [s for s in range(state["seats"]) if s != owner]
        pool = list(new["deck"])
        for s in others:
            pool += new["hands"][s]
            if new["chosen"][s] is not None:
                pool.append(new["chosen"][s])
        rng.shuffle(pool)
        for s in others:
            size = len(new["hands"][s])
            new["hands"][s], pool = sorted(pool[:size]), pool[size:]
            if new["chosen"][s] is not None:
                new["chosen"][s], pool = pool[0], pool[1:]
        new["deck"] = pool
        return new


GAME = Pips()


def render(view: dict, names: list[str]) -> bytes:
    """A tiny board image (16:9, never square) drawing only what the view holds."""
    image = Image.new("RGB", (320, 180), (245, 239, 226))
    draw = ImageDraw.Draw(image)
    lines = [f"Pips round {view['round']}/{view['rounds']}"]
    lines += [f"{name}: {score}" for name, score in zip(names, view["scores"])]
    if "hand" in view:
        lines.append("Hand: " + " ".join(map(str, view["hand"])))
    for row, line in enumerate(lines):
        draw.text((10, 10 + 20 * row), line, fill=(40, 36, 32))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
