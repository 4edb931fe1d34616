"""A simple computer player for Die Glücksritter, reading only its own seat's view.

It builds whenever it can pay, chases the coins on fields 5 and 6 when poor, sends the Black
Knight where the loot is best, haggles up to half of what the deed is worth, and plays or arms its
documents where they help. Chance comes only from the `rng` it is given (ties and a little
variety in the card choice).
"""
from __future__ import annotations

import math
import random
from itertools import combinations
from typing import TYPE_CHECKING, Any

from games.core import Action
from games.gluecksritter.data import (
    CASTLE_TOWERS,
    CASTLE_WALLS,
    DOCUMENT_ORDER,
    KNIGHT,
    RANSOM,
    SPECIAL_DIE,
    TOWER_WORTH,
    WALL_WORTH,
)
from games.gluecksritter.state import GluecksritterState

if TYPE_CHECKING:
    from games.gluecksritter.engine import Gluecksritter

KEEP_ORDER = ("grant", "permit", "master", "alibi", "gift", "taxpriv", "tollpriv", "favour", "veto", "pardon")


def suggest(game: Gluecksritter, state: GluecksritterState, seat: int, rng: random.Random) -> Action:
    view = game.view(state, seat)
    legal = game.legal_actions(state, seat)
    phase = view["phase"]
    if phase == "choose":
        return _choose(view, seat, legal, rng)
    if phase == "favour":
        options = [a for a in legal]
        return min(options, key=lambda a: KEEP_ORDER.index(a.args[0]))
    if phase in ("field2", "field3"):
        return legal[-1]  # as many pieces as it can pay for
    if phase == "field1":
        me = view["players"][seat]
        return legal[-1] if me["ducats"] >= 12 else legal[0]
    if phase == "haggle":
        return _haggle(game, state, view, seat, legal)
    if phase == "knight":
        return max(legal, key=lambda a: (_deed_value(view, seat, a), -legal.index(a)))
    if phase == "steal":
        me = view["players"][seat]
        if Action("steal", ("tower",)) in legal and (me["towers"] <= me["walls"] or len(legal) == 1):
            return Action("steal", ("tower",))
        return legal[0]
    return rng.choice(legal)


def _choose(view: dict[str, Any], seat: int, legal: list[Action], rng: random.Random) -> Action:
    private = view["private"]
    hand, armed, choice = private["hand"], private["armed"], private["choice"]
    me = view["players"][seat]
    legal_set = set(legal)
    # Arm every yellow document held, the Veto against the leading rival.
    for code in ("gift", "alibi"):
        if code in hand and not armed[code] and Action("arm", (code,)) in legal_set:
            return Action("arm", (code,))
    if "veto" in hand and armed["veto"] is None:
        rivals = [s for s in range(view["seats"]) if s != seat]
        leader = max(rivals, key=lambda s: (view["players"][s]["walls"] + view["players"][s]["towers"], -s))
        action = Action("veto", (str(leader),))
        if action in legal_set:
            return action
    pair = _best_pair(view, seat, rng)
    wanted = {"grant", "favour"}
    if 2 in pair or 3 in pair:
        wanted |= {"permit", "master"}
    if 5 in pair:
        wanted.add("taxpriv")
    if 6 in pair:
        wanted.add("tollpriv")
    if me["dungeon"]:
        wanted.add("pardon")
    for code in DOCUMENT_ORDER:
        action = Action("doc", (code,))
        if action in legal_set and (code in wanted) != (code in choice["docs"]):
            return action
    ransom = me["dungeon"] and "pardon" not in choice["docs"] and me["ducats"] >= RANSOM + 6
    if Action("ransom") in legal_set and ransom != choice["ransom"]:
        return Action("ransom")
    return Action("play", (f"{pair[0]},{pair[1]}",))


CHOICE_TEMPERATURE = 1.5
"""How freely the secret choice strays from the best-looking pair: each pair is picked with a
chance that falls off as exp(-shortfall / temperature). Everyone playing the same two cards
every round makes for crowded fields and shared wins, and for a player anyone can read."""


def _best_pair(view: dict[str, Any], seat: int, rng: random.Random) -> tuple[int, int]:
    me = view["players"][seat]
    values = _card_values(view, seat)
    cards = [c for c in range(1, 7) if not (c == KNIGHT and me["dungeon"])]
    pairs = []
    for a, b in combinations(cards, 2):
        value = values[a] + values[b]
        if a == 2 and b == 3:
            # Both pay from the same purse: only worth it when it can pay for both.
            if me["ducats"] < WALL_WORTH + TOWER_WORTH:
                value -= min(values[2], values[3])
        pairs.append(((a, b), value))
    best = max(value for _, value in pairs)
    weights = [math.exp((value - best) / CHOICE_TEMPERATURE) for _, value in pairs]
    return rng.choices([pair for pair, _ in pairs], weights=weights)[0]


def _card_values(view: dict[str, Any], seat: int) -> dict[int, float]:
    me = view["players"][seat]
    others = view["seats"] - 1
    ducats = me["ducats"]
    crowd = 1 + 0.3 * others  # how many share a field, roughly
    values = {}
    # Documents protect (Gift, Alibi, Veto) and privilege (tax and toll privileges): worth most
    # while one holds few.
    values[1] = (4.0 if me["documents"] < 2 else 2.0) if ducats >= 2 or others <= 2 else 1.5
    # Walls and towers are the goal, but a crowded builder's field costs more: count on the
    # rivals who can afford it going there too.
    builders = sum(1 for s, p in enumerate(view["players"]) if s != seat and p["ducats"] >= 4)
    crowding = 1.0 / (1 + 0.25 * builders)
    values[2] = 9.0 * crowding if me["walls"] < CASTLE_WALLS and ducats >= 4 else 0.0
    values[3] = 10.0 * crowding if me["towers"] < CASTLE_TOWERS and ducats >= 5 else 0.0
    for number in (5, 6):
        silver, gold = view["fields"][str(number)]
        values[number] = (silver + 2 * gold) / crowd * (1.6 if ducats < 6 else 1.0)
    gold_best = max(view["fields"]["5"][1], view["fields"]["6"][1]) * 2
    richest = max((p["ducats"] for s, p in enumerate(view["players"]) if s != seat), default=0)
    values[KNIGHT] = max(gold_best, richest * 4 / 6) / (1 + 0.5 * others)
    return values


def _deed_value(view: dict[str, Any], seat: int, action: Action) -> float:
    if action.verb == "rob":
        gold: int = view["fields"][action.args[0]][1]
        return 2 * gold
    victim = view["players"][int(action.args[0])]
    me = view["players"][seat]
    money: float = victim["ducats"] * SPECIAL_DIE.count("sack") / len(SPECIAL_DIE)
    piece = 0.0
    if (victim["towers"] and me["towers"] < CASTLE_TOWERS) or (victim["walls"] and me["walls"] < CASTLE_WALLS):
        piece = 2 * TOWER_WORTH
    castle = piece * SPECIAL_DIE.count("castle") / len(SPECIAL_DIE)
    leader_bonus: float = 0.5 * (victim["walls"] + victim["towers"])
    return money + castle + leader_bonus


def _haggle(game: Gluecksritter, state: GluecksritterState, view: dict[str, Any], seat: int,
            legal: list[Action]) -> Action:
    haggle = view["haggle"]
    if haggle["opener"] is None:
        other = [k for k in haggle["knights"] if k != seat][0]
        return Action("opener", (str(other),))
    deeds = [Action("rob", ("5",)), Action("rob", ("6",))]
    deeds += [Action("raid", (str(s),)) for s in range(view["seats"]) if s != seat]
    worth = max(_deed_value(view, seat, a) for a in deeds)
    limit = min(int(worth / 2), view["players"][seat]["ducats"])
    offers = [a for a in legal if a.verb == "offer" and int(a.args[0]) <= limit]
    if offers:
        return offers[0]
    return legal[-1]  # accept the standing offer, or make none
