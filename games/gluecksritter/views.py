"""What each seat (or the public) may know of a Die Glücksritter game, as JSON."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.core import Msg, SeatRef, msg
from games.gluecksritter.data import DOCUMENT_ORDER as _ORDER
from games.gluecksritter.data import DUCAT_CARDS, RANSOM, TOWERS_IN_GAME, WALLS_IN_GAME
from games.gluecksritter.state import GluecksritterState

if TYPE_CHECKING:
    from games.gluecksritter.engine import Gluecksritter

P = "gluecksritter."


def build_view(game: Gluecksritter, state: GluecksritterState, seat: int | None) -> dict[str, Any]:
    to_act = sorted(game.to_act(state))
    players = []
    for s in range(state.seats):
        players.append({
            "silver": state.money[s][0], "gold": state.money[s][1], "ducats": state.ducats(s),
            "walls": state.walls[s], "towers": state.towers[s], "documents": len(state.hands[s]),
            "score": state.pieces(s),  # what the final score counts (walls and towers built): the score chart
            "dungeon": state.dungeon[s],
            "chosen": state.phase == "choose" and state.choices[s]["ready"],
            "cards": list(state.choices[s]["cards"]) if state.revealed else None,
            "played_docs": list(state.played_docs[s]),
        })
    h = state.haggle
    view = {
        "game": game.name,
        "seats": state.seats,
        "viewer": seat,
        "to_act": to_act,
        "status": status(game, state).to_json(),
        "over": state.winners is not None,
        "round": state.round,
        "phase": state.phase,
        "ducat_card": list(DUCAT_CARDS[state.ducat_card]) if state.ducat_card is not None else None,
        "fields": {"5": list(state.field5), "6": list(state.field6)},
        "sack": list(state.sack),
        "pile": len(state.pile),
        "discard": len(state.discard),
        "ducat_deck": len(state.ducat_deck),
        "supply": {"walls": WALLS_IN_GAME - sum(state.walls), "towers": TOWERS_IN_GAME - sum(state.towers)},
        "players": players,
        "pending": list(state.pending),
        "haggle": None if h is None else {
            "knights": list(h["knights"]), "chooser": h["chooser"], "opener": h["opener"], "turn": h["turn"],
            "offers": [list(o) for o in h["offers"]], "passed": list(h["passed"]),
        },
        "knight": state.knight,
        "raid": dict(state.raid) if state.raid else None,
        "log": list(state.log),
        "winners": list(state.winners) if state.winners is not None else None,
        "previous": None if state.previous is None else {
            "round": state.previous["round"], "cards": [list(c) for c in state.previous["cards"]],
            "docs": [list(d) for d in state.previous["docs"]],
            "raid": dict(state.previous["raid"]) if state.previous["raid"] else None,
        },
    }
    if seat is not None and 0 <= seat < state.seats:
        hand = sorted(state.hands[seat], key=lambda code: list(_ORDER).index(code))
        choice = state.choices[seat]
        armed = state.armed[seat]
        terms = []
        for code in dict.fromkeys(hand):
            term = msg(P + "doc." + code)
            if code in ("gift", "alibi") and armed[code]:
                term = msg(P + "private.armed", document=term)
            elif code == "veto" and armed["veto"] is not None:
                target = armed["veto"]
                aim = SeatRef(int(target)) if target.isdigit() else msg(P + "doc." + target)
                term = msg(P + "private.veto_armed", target=aim)
            count = hand.count(code)
            terms.append(term if count == 1 else msg(P + "private.copies", document=term, count=count))
        if hand:
            summary = msg(P + "private.documents", documents=terms)
        else:
            summary = msg(P + "private.no_documents")
        if state.phase == "choose" and choice["ready"]:
            cards = [msg(P + "card.label", number=c, name=msg(P + f"field.{c}")) for c in choice["cards"]]
            docs = [msg(P + "doc." + d) for d in choice["docs"]] or msg(P + "word.no_document")
            summary = msg(P + "private.confirmed", summary=summary, cards=cards, docs=docs)
        if state.phase == "choose" and state.dungeon[seat]:
            # The ransom is a toggle of the choice: say which way it is set now.
            summary = msg(P + ("private.ransom" if choice["ransom"] else "private.in_dungeon"), summary=summary,
                          price=RANSOM)
        view["private"] = {
            "summary": summary.to_json(),
            "hand": hand,
            "armed": dict(state.armed[seat]),
            "choice": {"cards": list(choice["cards"]), "docs": list(choice["docs"]), "ransom": choice["ransom"],
                       "ready": choice["ready"]},
            "favour": list(state.favour[seat]),
            # Whether the seat decides now (or may still change its confirmed choice): its DM then
            # shows the table around its own things, kept current while the decision is open.
            # Otherwise its DM shows its own things alone: a table in it would go stale.
            "deciding": seat in game.to_act(state) or bool(game.legal_actions(state, seat)),
        }
    return view


def status(game: Gluecksritter, state: GluecksritterState) -> Msg:
    waiting = [SeatRef(s) for s in sorted(game.to_act(state))]
    phase = state.phase
    outcome = game.outcome(state)
    if outcome is not None:  # the game is over
        reason: Msg = outcome.reason
        return reason
    if phase == "choose":
        return msg(P + "status.choose", round=state.round, players=waiting)
    if phase == "favour":
        return msg(P + "status.favour", players=waiting)
    if phase in ("field1", "field2", "field3"):
        return msg(P + f"status.{phase}", players=waiting)
    if phase == "haggle":
        h = state.haggling
        if h["opener"] is None:
            return msg(P + "status.haggle_opener", player=SeatRef(h["chooser"]))
        if h["offer"] is None:
            return msg(P + "status.haggle_first", player=SeatRef(h["turn"]))
        return msg(P + "status.haggle_offer", player=SeatRef(h["turn"]), other=SeatRef(h["offer"][0]),
                   amount=h["offer"][1])
    if phase == "knight":
        return msg(P + "status.knight", player=SeatRef(state.black_knight))
    return msg(P + "status.steal", player=SeatRef(state.black_knight), victim=SeatRef(state.raiding["victim"]))
