"""What players see: the JSON view, the status line and the labels of actions.

Nothing here is secret except the order of the stacks below their top cards, and that never
appears: a view holds stack sizes and top cards only.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from games.core import Action
from games.knatsch.cards import (CARDS, CASTLE, CASTLE_GUARD, DIE, KING, SPECIAL, SPECIAL_GUARD,
                                 TOURNAMENT, card_json)
from games.knatsch.dice import SIX, dice_text, result_text
from games.knatsch.state import (CAPTURE, CHOOSE, DEFENCE, KING_ROLL, KING_TARGET, OVER, REVENGE,
                                 ROLL, TOURNAMENT_ROLL, KnatschState, Roll)

if TYPE_CHECKING:
    from games.knatsch.engine import KnatschGame

KING_CARD = {"id": KING_TARGET, "kind": "king", "name": "The king", "label": f"The king {KING.text}",
             "combination": {"count": KING.count, "red": KING.value, "yellow": KING.extra,
                             "text": KING.text},
             "arms": None, "ability": None, "value": None}


def _seat(seat: int) -> str:
    return f"{{s{seat}}}"


def _result_json(result) -> dict | None:
    return None if result is None else {"result": list(result), "text": result_text(result)}


def build_view(game: "KnatschGame", state: KnatschState, viewer: int | None) -> dict:
    outcome = game.outcome(state)
    return {
        "game": game.name,
        "seats": state.seats,
        "viewer": viewer,
        "to_act": sorted(game.to_act(state)),
        "status": status_line(game, state),
        "over": outcome is not None,
        "phase": state.phase,
        "active": state.active,
        "stacks": [{"number": i + 1, "size": len(stack),
                    "top": card_json(CARDS[stack[0]]) if stack else None}
                   for i, stack in enumerate(state.stacks)],
        "king": KING_CARD,
        "players": [_player_json(game, state, seat) for seat in range(state.seats)],
        "turn": {
            "seat": state.active,
            "unders_used": state.unders_used,
            "unders_allowed": game._unders_allowed(state, state.active),
            "further_attempt": state.bonus,
            "may_topple": state.phase == CHOOSE and game._may_topple(state),
        },
        "roll": _roll_json(game, state, state.roll) if state.roll else None,
        "tournament": _tournament_json(state),
        "log": list(state.log),
        "outcome": None if outcome is None else {
            "winners": list(outcome.winners), "scores": list(outcome.scores),
            "reason": outcome.reason, "kind": state.win_kind,
        },
    }


def _player_json(game: "KnatschGame", state: KnatschState, seat: int) -> dict:
    castles = len(state.cards_of(seat, CASTLE))
    tournaments = len(state.cards_of(seat, TOURNAMENT))
    castle_guard = game._card_with(state, seat, CASTLE_GUARD)
    special_guard = game._card_with(state, seat, SPECIAL_GUARD)
    guarded_by = {cid: castle_guard for cid in state.castle_guard[seat]}
    if special_guard and state.special_guard[seat]:
        guarded_by[state.special_guard[seat]] = special_guard
    cards = []
    for cid in state.holdings[seat]:
        entry = card_json(CARDS[cid])
        entry["guarded_by"] = guarded_by.get(cid)
        cards.append(entry)
    return {
        "seat": seat,
        "cards": cards,
        "castles": castles,
        "tournaments": tournaments,
        "specials": len(state.cards_of(seat, SPECIAL)),
        "die_cards": game._die_values(state, seat),
        "castle_guard": None if castle_guard is None else
        {"card": castle_guard, "covers": list(state.castle_guard[seat])},
        "special_guard": None if special_guard is None else
        {"card": special_guard, "covers": state.special_guard[seat]},
        "goals": {
            "four_castles": {"castles": castles, "need": 4, "met": castles >= 4},
            "king": {"castles": castles, "need": 3, "ready": castles == 3},
            "castles_and_tournaments": {"castles": castles, "tournaments": tournaments,
                                        "need": [2, 3], "met": castles >= 2 and tournaments >= 3},
        },
    }


def _roll_json(game: "KnatschGame", state: KnatschState, roll: Roll) -> dict:
    rolled = roll.rolls_used > 0
    target = KING_CARD if roll.target == KING_TARGET else card_json(CARDS[roll.target])
    to_beat = None
    if roll.to_beat is not None:
        against = {CAPTURE: "card", KING_ROLL: "king", DEFENCE: "attacker",
                   TOURNAMENT_ROLL: "leader"}[roll.purpose]
        holder = {"attacker": state.active,
                  "leader": state.tournament.leader if state.tournament else None}.get(against)
        to_beat = {**_result_json(roll.to_beat), "against": against, "seat": holder}
    best = game._result(state, roll) if rolled else None
    return {
        "purpose": roll.purpose,
        "roller": roll.roller,
        "target": target,
        "from_stack": None if roll.from_stack is None else roll.from_stack + 1,
        "owner": roll.owner,
        "dice": [{"position": i + 1, "value": value or None, "locked": value == SIX,
                  "kept": rolled and roll.rolls_used > 1 and not roll.rerolled[i] and value != SIX}
                 for i, value in enumerate(roll.dice)],
        "die_cards": game._die_values(state, roll.roller),
        "rolls_used": roll.rolls_used,
        "rolls_allowed": roll.rolls_allowed,
        "best": _result_json(best),
        "to_beat": to_beat,
        "beating": best is not None and (roll.to_beat is None or tuple(best) > tuple(roll.to_beat)),
    }


def _tournament_json(state: KnatschState) -> dict | None:
    tournament = state.tournament
    if tournament is None:
        return None
    standings = [{"seat": seat, **_result_json(result), "leader": seat == tournament.leader}
                 for seat, result in zip(tournament.order, tournament.results)]
    leader_result = None
    if tournament.leader is not None:
        leader_result = tournament.results[tournament.order.index(tournament.leader)]
    return {
        "card": card_json(CARDS[tournament.card]),
        "stack": tournament.stack + 1,
        "organiser": tournament.order[0],
        "order": list(tournament.order),
        "standings": standings,
        "leader": tournament.leader,
        "best": _result_json(leader_result),
        "waiting": tournament.order[len(tournament.results):],
    }


def status_line(game: "KnatschGame", state: KnatschState) -> str:
    if state.phase == OVER:
        return f"Game over. {game.outcome(state).reason}"
    active = _seat(state.active)
    if state.phase == REVENGE:
        return f"{active} must give a castle to the king's revenge."
    if state.phase == CHOOSE:
        if state.bonus:
            return f"{active} won a special from a stack and may try for another card."
        return f"{active} to choose a card to roll for."
    roll = state.roll
    roller = _seat(roll.roller)
    progress = (f"up to {roll.rolls_allowed} rolls" if roll.rolls_used == 0
                else f"roll {roll.rolls_used} of {roll.rolls_allowed}")
    if roll.purpose == KING_ROLL:
        return f"{roller} tries to topple the king ({progress})."
    label = CARDS[roll.target].label
    if roll.purpose == DEFENCE:
        return (f"{roller} defends {label} against {active}: must beat "
                f"{result_text(roll.to_beat)} ({progress}).")
    if roll.purpose == TOURNAMENT_ROLL:
        if roll.to_beat is None:
            return f"{roller} organises a tournament and rolls first ({progress})."
        return (f"Tournament: {roller} must beat {_seat(state.tournament.leader)}'s "
                f"{result_text(roll.to_beat)} ({progress}).")
    where = (f"from stack {roll.from_stack + 1}" if roll.from_stack is not None
             else f"from {_seat(roll.owner)}")
    return f"{roller} rolls for {label} {where} ({progress})."


def describe_action(game: "KnatschGame", state: KnatschState, seat: int, action: Action) -> str:
    verb, args = action.verb, action.args
    try:
        if verb == "topple":
            return f"Topple the king: beat {KING.text} (a failure costs a castle)"
        if verb == "target":
            card = CARDS[args[0]]
            stack = next((i for i, s in enumerate(state.stacks) if s and s[0] == card.id), None)
            if stack is not None:
                if card.kind == TOURNAMENT:
                    return f"Organise the tournament on stack {stack + 1} (4 rolls)"
                return f"Roll for {card.label} (stack {stack + 1})"
            owner = _seat(state.owner_of(card.id))
            if card.kind == CASTLE:
                rolls = " (4 rolls, Catapult)" if game._holds(state, seat, "catapult") else ""
                return f"Attack {owner}'s {card.label}{rolls}"
            return f"Roll for {owner}'s {card.label}"
        if verb == "under":
            stack = state.stacks[int(args[0]) - 1]
            return f"Put {CARDS[stack[0]].label} under stack {args[0]}"
        if verb == "guard":
            covered = " & ".join(CARDS[cid].label for cid in args[1].split(","))
            return f"{CARDS[args[0]].name}: protect {covered}"[:100]
        if verb == "end":
            return "End the turn (skip the further attempt)"
        if verb == "roll":
            return f"Roll all six dice (roll 1 of {state.roll.rolls_allowed})"
        if verb == "reroll":
            positions = [int(p) for p in args[0].split(",")]
            roll = state.roll
            showing = dice_text(roll.dice[p - 1] for p in positions)
            kept = [d for i, d in enumerate(roll.dice) if i + 1 not in positions]
            keep = f"; keep {dice_text(kept)}" if kept else ""
            return (f"Reroll dice {', '.join(map(str, positions))} (showing {showing}){keep} "
                    f"(roll {roll.rolls_used + 1} of {roll.rolls_allowed})")
        if verb == "stop":
            return f"Stop with {result_text(game._result(state, state.roll))}"
        if verb == "lose":
            return f"Give up {CARDS[args[0]].label}, under stack {args[1]}"
    except (KeyError, IndexError, ValueError, AttributeError):
        pass
    return action.encode()
