"""The Die Glücksritter rules engine (the `games.core.Game` contract).

Actions (canonical text; arguments never contain spaces):
  doc <code>          choice step: toggle a red document to play face down this round
  ransom              choice step: toggle ransoming the Black Knight from the dungeon (4 Ducats)
  arm <gift|alibi>    choice step: arm or disarm a yellow document held
  veto <seat|code|off>  choice step: arm the Veto against a player's or a kind of red document
  play <a>,<b>        choice step: play action cards a and b (confirms the whole choice; the bot
                      shows the six cards as toggles, see `subset_choices`)
  change              choice step, after confirming: take the choice back to change it (only while
                      someone else has not confirmed; the last confirmation reveals the round)
  keep <code>         Monk's Favour: the document kept of the two drawn
  buy <n>             fields 1-3: buy n documents (0/1), walls or towers (0 to 2, 3 with Master Builder)
  opener <seat>       haggle: who must make the first offer (chosen by the knight with fewer pieces)
  offer <n>           haggle: offer n Ducats (in coins or pieces) to become the Black Knight
  accept              haggle: let the other knight be the Black Knight for the standing offer
  pass                haggle: make no offer (when no offer stands)
  rob <5|6>           Black Knight: take all gold coins of field 5 or 6
  raid <seat>         Black Knight: raid a player (special die: all money or one castle piece)
  steal <wall|tower>  Black Knight: which piece to steal when the victim has both kinds

Decisions where the rules are silent are listed in docs/gluecksritter.md; the main ones are
repeated by the functions that carry them out.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from games.core import (
    Action,
    Checked,
    Event,
    Features,
    GameError,
    InvalidState,
    Msg,
    Option,
    Outcome,
    Search,
    SeatRef,
    SubsetChoice,
    admitted,
    chance,
    lowered,
    msg,
)
from games.gluecksritter import state as state_io
from games.gluecksritter.ai import suggest
from games.gluecksritter.data import (
    CARDS_PER_ROUND,
    CASTLE_TOWERS,
    CASTLE_WALLS,
    DOCUMENT_ORDER,
    DOCUMENT_PRICE,
    DUCAT_CARDS,
    FIELDS,
    GOLD,
    GOLD_COINS,
    KNIGHT,
    MASTER_BUILDER_PIECES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NORMAL_PIECES,
    RANSOM,
    RED_DOCUMENTS,
    ROYAL_GRANT_COINS,
    SILVER,
    SILVER_COINS,
    SPECIAL_DIE,
    START_GOLD,
    START_SILVER,
    TAX_THRESHOLD,
    TOWER_PRICE,
    TOWER_WORTH,
    WALL_PRICE,
    WALL_WORTH,
    all_documents,
)
from games.gluecksritter.state import GluecksritterState, empty_armed, empty_choice
from games.gluecksritter.views import build_view
from games.search import hint, suggest_strong

P = "gluecksritter."
MAX_RAISE = 12  # an offer raises the standing one by 1 to 12 Ducats (keeps the buttons few)



def ducats(amount: int) -> Msg:
    """"1 Ducat", "5 Ducats": an amount put into a message that counts something else too."""
    return msg(P + "ducats", count=amount)


def E(message_id: str, seat: int | None = None, kind: str = "info", **params: Any) -> Event:
    return Event(msg(P + message_id, **params), seat=seat, kind=kind)


def doc_term(code: str) -> Msg:
    return msg(P + "doc." + code)


def seat_list(seats: Iterable[int]) -> list[SeatRef]:
    return [SeatRef(s) for s in seats]


def one_after_another(parts: list[Msg]) -> Msg:
    """Parts that are lists themselves ("Dave: 1 and 2") set apart by " · " ("Dave: 1 and 2 ·
    Carol: 5 and 6"): joined as a list they would read "Dave: 1 and 2 and Carol: 5 and 6"."""
    joined = parts[-1]
    for part in reversed(parts[:-1]):
        joined = msg(P + "event.one_after_another", first=part, rest=joined)
    return joined


class Gluecksritter:
    name = "gluecksritter"
    title = "Die Glücksritter"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options: tuple[Option, ...] = ()
    rules_summary = msg("gluecksritter.rules.summary")  # the catalogues hold its words
    features = Features(computer=True, strengths=("normal", "strong"), hints=True, scores=True, undo=True,
                        toggles=True, public_moves=True, forced=True,
                        search=Search(determinize=True))

    # ------------------------------------------------------------------------------------
    # Setup

    def new_game(self, seats: int, *, seed: int, options: Mapping[str, str] | None = None) -> GluecksritterState:
        if not isinstance(seats, int) or not self.min_players <= seats <= self.max_players:
            raise GameError(f"Die Glücksritter is for {self.min_players} to {self.max_players} players, not {seats}.")
        if options:
            raise GameError(f"Die Glücksritter has no table options (got {', '.join(options)}).")
        rng = chance(seed, 0)
        pile = all_documents()
        rng.shuffle(pile)
        deck = list(range(len(DUCAT_CARDS)))
        rng.shuffle(deck)
        state = GluecksritterState(
            seats=seats, seed=int(seed), chance_counter=1, round=1, phase="choose",
            sack=[SILVER_COINS - START_SILVER * seats, GOLD_COINS - START_GOLD * seats],
            field5=[0, 0], field6=[0, 0], money=[[START_SILVER, START_GOLD] for _ in range(seats)],
            walls=[0] * seats, towers=[0] * seats, hands=[[] for _ in range(seats)],
            armed=[empty_armed() for _ in range(seats)], dungeon=[False] * seats, pile=pile, discard=[],
            ducat_deck=deck, ducat_card=None, choices=[empty_choice() for _ in range(seats)],
        )
        events: list[Event] = []
        self._start_round(state, events)
        for event in events:
            if event.seat is None:
                state.add_log(event.text.to_json())
        return state

    # ------------------------------------------------------------------------------------
    # Whose move, which moves

    def to_act(self, state: GluecksritterState) -> frozenset[int]:
        phase = state.phase
        if phase == "choose":
            return frozenset(s for s in range(state.seats) if not state.choices[s]["ready"])
        if phase == "favour":
            return frozenset(s for s in range(state.seats) if state.favour[s])
        if phase in ("field1", "field2", "field3"):
            return frozenset(state.pending)
        if phase == "haggle":
            h = state.haggling
            return frozenset({h["chooser"] if h["opener"] is None else h["turn"]})
        if phase in ("knight", "steal"):
            return frozenset({state.black_knight})
        return frozenset()

    def moves_are_public(self, state: GluecksritterState, seat: int) -> bool:
        """Everything but the secret choice and Monk's Favour follows from public facts."""
        return state.phase not in ("choose", "favour") and seat in self.to_act(state)

    # No decision is outside one's own turn: a round has no turn holder, and every decision
    # follows from the seat's own cards. The secret choice is everyone's own turn at once; a
    # purchase, the Monk's Favour, a haggle and the Black Knight's deeds come from the action
    # cards and documents the seat itself played. (A raid's victim decides nothing.)

    def reaction_kind(self, state: GluecksritterState, seat: int) -> str | None:
        return None

    def publicly_forced(self, state: GluecksritterState, seat: int) -> Action | None:
        """The only move where the seat's moves follow from public facts (`moves_are_public`):
        e.g. a haggling knight who cannot offer more than the standing offer must accept it.
        The secret choice and the Monk's Favour (two drawn documents, seen by their owner only)
        are never reported, even with one move."""
        if not self.moves_are_public(state, seat):
            return None
        legal = self.legal_actions(state, seat)
        return legal[0] if len(legal) == 1 else None

    def legal_actions(self, state: GluecksritterState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            # A confirmed choice may be taken back while others still choose (once the last
            # one confirms, the round is revealed and the phase is over).
            if state.phase == "choose" and 0 <= seat < state.seats and state.choices[seat]["ready"]:
                return [Action("change")]
            return []
        phase = state.phase
        if phase == "choose":
            return self._choice_actions(state, seat)
        if phase == "favour":
            return [Action("keep", (code,)) for code in dict.fromkeys(state.favour[seat])]
        if phase in ("field1", "field2", "field3"):
            return [Action("buy", (str(n),)) for n in range(self._most_to_buy(state, seat, int(phase[-1])) + 1)]
        if phase == "haggle":
            return self._haggle_actions(state, seat)
        if phase == "knight":
            actions = [Action("rob", ("5",)), Action("rob", ("6",))]
            actions += [Action("raid", (str(s),)) for s in range(state.seats) if s != seat]
            return actions
        if phase == "steal":
            return [Action("steal", (kind,)) for kind in self._stealable(state, seat, state.raiding["victim"])]
        return []

    def subset_choices(self, state: GluecksritterState, seat: int) -> list[SubsetChoice]:
        """The `play` actions as one family: the bot shows a toggle per action card (the Black
        Knight left out while he is in the dungeon) and a confirm button for exactly two. Cards
        of a choice taken back to be changed start toggled."""
        if state.phase != "choose" or seat not in self.to_act(state):
            return []
        playable = self._playable(state, seat)
        items = tuple((str(card), msg(P + f"field.{card}")) for card in playable)
        chosen = tuple(str(card) for card in state.choices[seat]["cards"] if card in playable)
        return [SubsetChoice("play", items, prompt=msg(P + "label.cards_prompt"),
                             confirm=msg(P + "label.cards_confirm"), size=CARDS_PER_ROUND, chosen=chosen)]

    def _playable(self, state: GluecksritterState, seat: int) -> list[int]:
        return [card for card in FIELDS if not (card == KNIGHT and state.dungeon[seat])]

    def _choice_actions(self, state: GluecksritterState, seat: int) -> list[Action]:
        hand = state.hands[seat]
        actions = []
        for code in RED_DOCUMENTS:
            if code in hand and (code != "pardon" or state.dungeon[seat]):
                actions.append(Action("doc", (code,)))
        if state.dungeon[seat]:
            actions.append(Action("ransom"))
        armed = state.armed[seat]
        for code in ("gift", "alibi"):
            if code in hand:
                actions.append(Action("arm", (code,)))
        if "veto" in hand:
            targets = [str(s) for s in range(state.seats) if s != seat] + list(RED_DOCUMENTS)
            actions += [Action("veto", (t,)) for t in targets if t != armed["veto"]]
            if armed["veto"] is not None:
                actions.append(Action("veto", ("off",)))
        playable = self._playable(state, seat)
        actions += [Action("play", (f"{a},{b}",)) for i, a in enumerate(playable) for b in playable[i + 1:]]
        return actions

    def _haggle_actions(self, state: GluecksritterState, seat: int) -> list[Action]:
        h = state.haggling
        if h["opener"] is None:
            return [Action("opener", (str(k),)) for k in h["knights"]]
        cap = self.offer_capacity(state, seat)
        offer = h["offer"]
        low = 1 if offer is None else offer[1] + 1
        actions = [Action("offer", (str(n),)) for n in range(low, min(cap, low + MAX_RAISE - 1) + 1)]
        actions.append(Action("pass") if offer is None else Action("accept"))
        return actions

    def offer_capacity(self, state: GluecksritterState, seat: int) -> int:
        """What a knight can pay in a haggle: coins, walls at 4 and towers at 5 (rules)."""
        return state.ducats(seat) + WALL_WORTH * state.walls[seat] + TOWER_WORTH * state.towers[seat]

    def _price(self, state: GluecksritterState, seat: int, field_no: int) -> int:
        visitors = self._visitors(state, field_no)
        single, crowded = {1: DOCUMENT_PRICE, 2: WALL_PRICE, 3: TOWER_PRICE}[field_no]
        if len(visitors) <= 1 or (field_no in (2, 3) and "permit" in state.effective[seat]):
            return single
        return crowded

    def _most_to_buy(self, state: GluecksritterState, seat: int, field_no: int) -> int:
        price = self._price(state, seat, field_no)
        affordable = state.ducats(seat) // price if price else 99
        if field_no == 1:
            return 1 if affordable >= 1 and (state.pile or state.discard) else 0
        limit = MASTER_BUILDER_PIECES if "master" in state.effective[seat] else NORMAL_PIECES
        room = (CASTLE_WALLS - state.walls[seat]) if field_no == 2 else (CASTLE_TOWERS - state.towers[seat])
        return max(0, min(limit, room, affordable))

    def _visitors(self, state: GluecksritterState, field_no: int) -> list[int]:
        return [s for s in range(state.seats) if field_no in state.choices[s]["cards"]]

    def _stealable(self, state: GluecksritterState, thief: int, victim: int) -> list[str]:
        kinds = []
        if state.walls[victim] and state.walls[thief] < CASTLE_WALLS:
            kinds.append("wall")
        if state.towers[victim] and state.towers[thief] < CASTLE_TOWERS:
            kinds.append("tower")
        return kinds

    # ------------------------------------------------------------------------------------
    # Applying moves

    def apply(self, state: GluecksritterState, seat: int,
              action: Action | Checked) -> tuple[GluecksritterState, list[Event]]:
        action = admitted(self, state, seat, action, lowered)
        new = state.clone()
        events: list[Event] = []
        verb, args = action.verb, action.args
        if new.phase == "choose":
            self._choose(new, seat, action, events)
        elif verb == "keep":
            self._keep(new, seat, args[0], events)
        elif verb == "buy":
            self._buy(new, seat, int(args[0]), events)
        elif verb in ("opener", "offer", "accept", "pass"):
            self._haggle(new, seat, action, events)
        elif verb in ("rob", "raid"):
            self._deed(new, seat, action, events)
        elif verb == "steal":
            self._steal(new, seat, state.raiding["victim"], args[0], events)
            self._run(new, "field5", events)
        for event in events:
            if event.seat is None:
                new.add_log(event.text.to_json())
        return new, events

    # -- the secret choice ---------------------------------------------------------------

    def _choose(self, state: GluecksritterState, seat: int, action: Action, events: list[Event]) -> None:
        choice = state.choices[seat]
        verb, args = action.verb, action.args
        if verb == "play":
            choice["cards"] = [int(c) for c in args[0].split(",")]
            choice["ready"] = True
            events.append(E("event.chosen", player=SeatRef(seat)))
            # No private line here: the seat's summary now says its confirmed choice (said once).
            if all(c["ready"] for c in state.choices):
                self._run(state, "reveal", events)
            return
        if verb == "change":
            # The cards stay as they were (the bot shows them toggled), so confirming again is
            # one tap; the channel hears only that the player changes their choice.
            choice["ready"] = False
            events.append(E("event.changing", player=SeatRef(seat)))
            events.append(E("event.choice_open", seat=seat, kind="private", **self._choice_params(state, seat)))
            return
        elif verb == "doc":
            code = args[0]
            choice["docs"] = [d for d in RED_DOCUMENTS if (d in choice["docs"]) != (d == code)]
        elif verb == "ransom":
            choice["ransom"] = not choice["ransom"]
        elif verb == "arm":
            state.armed[seat][args[0]] = not state.armed[seat][args[0]]
        elif verb == "veto":
            state.armed[seat]["veto"] = None if args[0] == "off" else args[0]
        events.append(E("event.choice_now", seat=seat, kind="private", **self._choice_params(state, seat)))

    def _choice_params(self, state: GluecksritterState, seat: int) -> dict[str, Any]:
        choice = state.choices[seat]
        cards = [msg(P + "card.label", number=c, name=msg(P + f"field.{c}")) for c in choice["cards"]]
        docs = [doc_term(d) for d in choice["docs"]]
        return {"cards": cards or msg(P + "word.no_card"), "docs": docs or msg(P + "word.no_document")}

    # -- the round, step by step ----------------------------------------------------------

    STEPS = ("reveal", "ransom", "field1", "field2", "field3", "field4", "field5", "field6", "end")

    def _run(self, state: GluecksritterState, step: str, events: list[Event]) -> None:
        """Carry the round on from `step` until someone must decide or the round is over."""
        for name in self.STEPS[self.STEPS.index(step):]:
            if getattr(self, "_step_" + name)(state, events):
                return

    def _step_reveal(self, state: GluecksritterState, events: list[Event]) -> bool:
        """Documents are revealed together and resolved in seat order; an armed Veto of another
        player fires as the document it names is revealed."""
        chosen = [list(c["docs"]) for c in state.choices]
        if any(chosen):
            events.append(E("event.documents_revealed", kind="phase"))
        for seat in range(state.seats):
            for code in chosen[seat]:
                state.hands[seat].remove(code)
                state.played_docs[seat].append(code)
                state.used[seat].append(code)
                state.discard.append(code)
                vetoer = self._vetoer(state, seat, code)
                if vetoer is not None:
                    self._fire(state, vetoer, "veto")
                    events.append(E("event.vetoed", player=SeatRef(vetoer), victim=SeatRef(seat),
                                    document=doc_term(code)))
                    continue
                events.append(E("event.document", player=SeatRef(seat), document=doc_term(code)))
                self._document(state, seat, code, events)
        if any(state.favour):
            state.phase = "favour"
            return True
        return False

    def _vetoer(self, state: GluecksritterState, owner: int, code: str) -> int | None:
        state.consulted += 1
        for step in range(1, state.seats):
            seat = (owner + step) % state.seats
            target = state.armed[seat]["veto"]
            if target in (str(owner), code) and "veto" in state.hands[seat] and "veto" not in state.used[seat]:
                return seat
        return None

    def _fire(self, state: GluecksritterState, seat: int, code: str) -> None:
        """A yellow document fires: it leaves the hand; it stays armed while a copy is left
        (but fires at most once a round: the same document never twice in a round)."""
        state.hands[seat].remove(code)
        state.discard.append(code)
        state.used[seat].append(code)
        if code not in state.hands[seat]:
            if code == "veto":
                state.armed[seat]["veto"] = None
            else:
                state.armed[seat][code] = False

    def _document(self, state: GluecksritterState, seat: int, code: str, events: list[Event]) -> None:
        if code in ("permit", "master", "taxpriv", "tollpriv"):
            state.effective[seat].append(code)
        elif code == "grant":
            drawn = self._draw_coins(state, ROYAL_GRANT_COINS)
            self._gain(state, seat, drawn, events)
            events.append(E("event.grant", player=SeatRef(seat), silver=drawn[0], gold=drawn[1]))
            self._tax(state, seat, events)
        elif code == "pardon":
            state.dungeon[seat] = False
            events.append(E("event.pardon", player=SeatRef(seat)))
        elif code == "favour":
            documents = [d for d in (self._draw_document(state), self._draw_document(state)) if d is not None]
            if len(documents) == 1:
                state.hands[seat].append(documents[0])
                events.append(E("event.document_drawn", seat=seat, kind="private", document=doc_term(documents[0])))
            elif documents:
                state.favour[seat] = documents
                events.append(E("event.favour_drawn", seat=seat, kind="private",
                                documents=[doc_term(d) for d in documents]))

    def _keep(self, state: GluecksritterState, seat: int, code: str, events: list[Event]) -> None:
        drawn = state.favour[seat]
        drawn.remove(code)
        state.hands[seat].append(code)
        state.pile.extend(drawn)  # the other goes under the pile
        state.favour[seat] = []
        events.append(E("event.kept", seat=seat, kind="private", document=doc_term(code)))
        events.append(E("event.favour_done", player=SeatRef(seat)))
        if not any(state.favour):
            self._run(state, "ransom", events)

    def _step_ransom(self, state: GluecksritterState, events: list[Event]) -> bool:
        """Ransoms chosen in secret are paid now (after the documents: a Pardon makes one
        unnecessary, a Royal Grant may pay for it); who cannot pay stays in the dungeon."""
        for seat in range(state.seats):
            if not (state.choices[seat]["ransom"] and state.dungeon[seat]):
                continue
            if state.ducats(seat) >= RANSOM:
                self._pay_sack(state, seat, RANSOM, events)
                state.dungeon[seat] = False
                events.append(E("event.ransom", player=SeatRef(seat), price=RANSOM))
            else:
                events.append(E("event.ransom_failed", player=SeatRef(seat), price=RANSOM))
        state.revealed = True
        events.append(E("event.cards", kind="phase", plays=one_after_another([
            msg(P + "event.plays", player=SeatRef(s), cards=list(state.choices[s]["cards"]))
            for s in range(state.seats)])))
        return False

    def _step_field1(self, state: GluecksritterState, events: list[Event]) -> bool:
        return self._field_with_prices(state, 1, events)

    def _step_field2(self, state: GluecksritterState, events: list[Event]) -> bool:
        return self._field_with_prices(state, 2, events)

    def _step_field3(self, state: GluecksritterState, events: list[Event]) -> bool:
        return self._field_with_prices(state, 3, events)

    def _field_with_prices(self, state: GluecksritterState, field_no: int, events: list[Event]) -> bool:
        visitors = self._visitors(state, field_no)
        if not visitors:
            return False
        if field_no == 1 and len(visitors) == 1:
            code = self._draw_document(state)
            seat = visitors[0]
            if code is None:
                events.append(E("event.no_documents", player=SeatRef(seat)))
            else:
                state.hands[seat].append(code)
                events.append(E("event.free_document", player=SeatRef(seat)))
                events.append(E("event.document_drawn", seat=seat, kind="private", document=doc_term(code)))
            return False
        state.pending = []
        for seat in visitors:
            if self._most_to_buy(state, seat, field_no) > 0:
                state.pending.append(seat)
            else:
                events.append(E(f"event.nothing.{field_no}", player=SeatRef(seat)))
        if state.pending:
            state.phase = f"field{field_no}"
            return True
        return False

    def _buy(self, state: GluecksritterState, seat: int, count: int, events: list[Event]) -> None:
        field_no = int(state.phase[-1])
        price = self._price(state, seat, field_no)
        state.pending.remove(seat)
        if count == 0:
            events.append(E(f"event.nothing.{field_no}", player=SeatRef(seat)))
        else:
            if price:
                self._pay_sack(state, seat, price * count, events)
            if field_no == 1:
                code = self._draw_document(state)
                if code is None:  # refused before: a document is for sale only while there is one
                    raise InvalidState("Die Glücksritter has no document left to sell")
                state.hands[seat].append(code)
                events.append(E("event.bought_document", player=SeatRef(seat), price=price))
                events.append(E("event.document_drawn", seat=seat, kind="private", document=doc_term(code)))
            elif field_no == 2:
                state.walls[seat] += count
                events.append(E("event.bought_walls", player=SeatRef(seat), count=count, price=ducats(price * count)))
            else:
                state.towers[seat] += count
                events.append(E("event.bought_towers", player=SeatRef(seat), count=count, price=ducats(price * count)))
        # Someone may have lost the means meanwhile (a document pile run dry): they get nothing.
        for other in list(state.pending):
            if self._most_to_buy(state, other, field_no) == 0:
                state.pending.remove(other)
                events.append(E(f"event.nothing.{field_no}", player=SeatRef(other)))
        if not state.pending:
            self._run(state, f"field{field_no + 1}", events)

    # -- the Black Knight -------------------------------------------------------------------

    def _step_field4(self, state: GluecksritterState, events: list[Event]) -> bool:
        knights = self._visitors(state, KNIGHT)
        if not knights:
            return False
        if len(knights) == 1:
            state.knight = knights[0]
            state.phase = "knight"
            return True
        if len(knights) > 2:
            for seat in knights:
                state.dungeon[seat] = True
            events.append(E("event.knights_crowded", players=seat_list(knights)))
            return False
        a, b = knights
        if state.pieces(a) != state.pieces(b):
            chooser = a if state.pieces(a) < state.pieces(b) else b
        else:
            while True:
                rng = chance(state.seed, state.chance_counter)
                state.chance_counter += 1
                roll_a, roll_b = rng.randint(1, 6), rng.randint(1, 6)
                if roll_a != roll_b:
                    break
            chooser = a if roll_a > roll_b else b
            events.append(E("event.haggle_die", first=SeatRef(a), second=SeatRef(b), roll_a=roll_a, roll_b=roll_b))
        state.haggle = {"knights": [a, b], "chooser": chooser, "opener": None, "turn": None, "offer": None,
                        "passed": [], "offers": []}
        events.append(E("event.haggle", first=SeatRef(a), second=SeatRef(b), chooser=SeatRef(chooser)))
        state.phase = "haggle"
        return True

    def _haggle(self, state: GluecksritterState, seat: int, action: Action, events: list[Event]) -> None:
        h = state.haggling
        other = h["knights"][0] if h["knights"][1] == seat else h["knights"][1]
        if action.verb == "opener":
            h["opener"] = h["turn"] = int(action.args[0])
            events.append(E("event.opener", player=SeatRef(seat), opener=SeatRef(h["opener"])))
        elif action.verb == "offer":
            amount = int(action.args[0])
            h["offer"] = [seat, amount]
            h["offers"].append([seat, amount])
            h["turn"] = other
            events.append(E("event.offer", player=SeatRef(seat), amount=amount))
        elif action.verb == "pass":
            h["passed"].append(seat)
            events.append(E("event.no_offer", player=SeatRef(seat)))
            if other in h["passed"]:
                for knight in h["knights"]:
                    state.dungeon[knight] = True
                events.append(E("event.both_dungeon", players=seat_list(h["knights"])))
                state.haggle = None
                self._run(state, "field5", events)
                return
            h["turn"] = other
        else:  # accept
            winner, amount = h["offer"]
            events.append(E("event.accepted", player=SeatRef(seat), winner=SeatRef(winner), amount=amount))
            self._pay_player(state, winner, seat, amount, events)
            for knight in h["knights"]:
                state.dungeon[knight] = True
            state.haggle = None
            state.knight = winner
            state.phase = "knight"

    def _deed(self, state: GluecksritterState, seat: int, action: Action, events: list[Event]) -> None:
        """The Black Knight acts; his card goes to the dungeon (he keeps the loot)."""
        state.dungeon[seat] = True
        if action.verb == "rob":
            where = state.field5 if action.args[0] == "5" else state.field6
            gold = where[GOLD]
            where[GOLD] = 0
            self._gain(state, seat, [0, gold], events)
            events.append(E("event.rob", player=SeatRef(seat), field=int(action.args[0]), gold=gold))
            self._tax(state, seat, events)
            self._run(state, "field5", events)
            return
        victim = int(action.args[0])
        events.append(E("event.raid", player=SeatRef(seat), victim=SeatRef(victim)))
        state.consulted += 1
        if state.armed[victim]["alibi"] and "alibi" in state.hands[victim] and "alibi" not in state.used[victim]:
            self._fire(state, victim, "alibi")
            state.raid = {"thief": seat, "victim": victim, "die": None, "result": "alibi"}
            events.append(E("event.alibi", player=SeatRef(victim)))
            self._run(state, "field5", events)
            return
        rng = chance(state.seed, state.chance_counter)
        state.chance_counter += 1
        face = rng.choice(SPECIAL_DIE)
        state.raid = {"thief": seat, "victim": victim, "die": face, "result": None}
        if face == "sack":
            loot = list(state.money[victim])
            state.money[victim] = [0, 0]
            self._gain(state, seat, loot, events)
            state.raid["result"] = "money"
            events.append(E("event.raid_money", player=SeatRef(seat), victim=SeatRef(victim),
                            silver=loot[SILVER], gold=loot[GOLD]))
            self._tax(state, seat, events)
        else:
            kinds = self._stealable(state, seat, victim)
            if len(kinds) == 2:
                state.phase = "steal"
                events.append(E("event.raid_castle", player=SeatRef(seat), victim=SeatRef(victim)))
                return
            if kinds:
                self._steal(state, seat, victim, kinds[0], events)
            else:
                state.raid["result"] = "nothing"
                events.append(E("event.raid_nothing", player=SeatRef(seat), victim=SeatRef(victim)))
        self._run(state, "field5", events)

    def _steal(self, state: GluecksritterState, thief: int, victim: int, kind: str, events: list[Event]) -> None:
        if kind == "wall":
            state.walls[victim] -= 1
            state.walls[thief] += 1
        else:
            state.towers[victim] -= 1
            state.towers[thief] += 1
        state.raiding["result"] = kind
        events.append(E(f"event.stole_{kind}", player=SeatRef(thief), victim=SeatRef(victim)))

    # -- fields 5 and 6, the end of the round -------------------------------------------------

    def _step_field5(self, state: GluecksritterState, events: list[Event]) -> bool:
        self._collect(state, 5, events)
        return False

    def _step_field6(self, state: GluecksritterState, events: list[Event]) -> bool:
        self._collect(state, 6, events)
        return False

    def _collect(self, state: GluecksritterState, field_no: int, events: list[Event]) -> None:
        """One visitor takes everything; several split silver and gold evenly by kind and leave the
        rest. With Tax / Toll Privilege played, only the privileged visitors share."""
        visitors = self._visitors(state, field_no)
        if not visitors:
            return
        where = state.field5 if field_no == 5 else state.field6
        privilege = "taxpriv" if field_no == 5 else "tollpriv"
        takers = [s for s in visitors if privilege in state.effective[s]] or visitors
        for seat in visitors:
            if seat not in takers:
                events.append(E("event.privilege_shut_out", player=SeatRef(seat), field=field_no))
        share = [where[SILVER] // len(takers), where[GOLD] // len(takers)]
        for seat in takers:
            where[SILVER] -= share[SILVER]
            where[GOLD] -= share[GOLD]
            self._gain(state, seat, share, events)
            if share == [0, 0]:
                events.append(E("event.collect_nothing", player=SeatRef(seat), field=field_no))
            else:
                events.append(E("event.collect", player=SeatRef(seat), field=field_no,
                                silver=share[SILVER], gold=share[GOLD]))
        for seat in takers:
            self._tax(state, seat, events)

    def _step_end(self, state: GluecksritterState, events: list[Event]) -> bool:
        state.previous = {"round": state.round, "cards": [list(c["cards"]) for c in state.choices],
                          "docs": [list(d) for d in state.played_docs],
                          "raid": dict(state.raid) if state.raid is not None else None}
        complete = [s for s in range(state.seats)
                    if state.walls[s] >= CASTLE_WALLS and state.towers[s] >= CASTLE_TOWERS]
        if complete:
            best = max(state.ducats(s) for s in complete)
            state.winners = [s for s in complete if state.ducats(s) == best]
            state.phase = "over"
            state.pending = []
            events.append(E("event.castle_complete", kind="end", players=seat_list(complete)))
            finished = self.outcome(state)
            assert finished is not None  # the winners are set just above
            events.append(Event(finished.reason, kind="end"))
            return True
        state.round += 1
        self._start_round(state, events)
        return True

    def _start_round(self, state: GluecksritterState, events: list[Event]) -> None:
        seats = state.seats
        state.phase = "choose"
        state.choices = [empty_choice() for _ in range(seats)]
        state.revealed = False
        state.played_docs = [[] for _ in range(seats)]
        state.effective = [[] for _ in range(seats)]
        state.used = [[] for _ in range(seats)]
        state.favour = [[] for _ in range(seats)]
        state.pending, state.haggle, state.knight, state.raid = [], None, None, None
        if not state.ducat_deck:
            deck = list(range(len(DUCAT_CARDS)))
            rng = chance(state.seed, state.chance_counter)
            state.chance_counter += 1
            rng.shuffle(deck)
            state.ducat_deck = deck
            events.append(E("event.ducats_reshuffled"))
        state.ducat_card = state.ducat_deck.pop(0)
        to5, to6 = DUCAT_CARDS[state.ducat_card]
        coins5 = self._draw_coins(state, to5)
        coins6 = self._draw_coins(state, to6)
        for where, coins in ((state.field5, coins5), (state.field6, coins6)):
            where[SILVER] += coins[SILVER]
            where[GOLD] += coins[GOLD]
        events.append(E("event.round", kind="phase", round=state.round, to5=to5, to6=to6,
                        silver5=coins5[SILVER], gold5=coins5[GOLD], silver6=coins6[SILVER], gold6=coins6[GOLD]))

    # -- coins, documents, taxes ----------------------------------------------------------------

    def _draw_coins(self, state: GluecksritterState, count: int) -> list[int]:
        """Coins drawn blind from the sack (as many as it holds)."""
        rng = chance(state.seed, state.chance_counter)
        state.chance_counter += 1
        drawn = [0, 0]
        for _ in range(count):
            total = state.sack[SILVER] + state.sack[GOLD]
            if total == 0:
                break
            kind = SILVER if rng.randrange(total) < state.sack[SILVER] else GOLD
            state.sack[kind] -= 1
            drawn[kind] += 1
        return drawn

    def _draw_document(self, state: GluecksritterState) -> str | None:
        """The top document; an empty pile is refilled from the shuffled played documents."""
        if not state.pile and state.discard:
            rng = chance(state.seed, state.chance_counter)
            state.chance_counter += 1
            state.pile = list(state.discard)
            state.discard = []
            rng.shuffle(state.pile)
        return state.pile.pop(0) if state.pile else None

    def _gain(self, state: GluecksritterState, seat: int, coins: Sequence[int], events: list[Event]) -> None:
        state.money[seat][SILVER] += coins[SILVER]
        state.money[seat][GOLD] += coins[GOLD]

    def _tax(self, state: GluecksritterState, seat: int, events: list[Event]) -> None:
        """Royal taxes: 8 or more coins of a kind, half back to the sack (the odd one kept), again
        while 8 or more are left, unless an armed Gift fires (once a round): then none."""
        for kind in (SILVER, GOLD):
            count = state.money[seat][kind]
            if count < TAX_THRESHOLD:
                continue
            coin = msg(P + ("word.silver" if kind == SILVER else "word.gold"))
            state.consulted += 1
            if state.armed[seat]["gift"] and "gift" in state.hands[seat] and "gift" not in state.used[seat]:
                self._fire(state, seat, "gift")
                events.append(E("event.gift", player=SeatRef(seat), count=count, coin=coin))
                continue
            # "Whoever has 8 or more of the same type of coins must immediately return half of
            # them" (the spare coin of an odd number kept), "at any point during the game": 8 or
            # more left after returning half is taxed again at once, so 15 -> 8 -> 4.
            kept = count
            while kept >= TAX_THRESHOLD:
                kept -= kept // 2
            back = count - kept
            state.money[seat][kind] -= back
            state.sack[kind] += back
            events.append(E("event.tax", player=SeatRef(seat), count=count, back=back, coin=coin))

    def _pay_sack(self, state: GluecksritterState, seat: int, amount: int, events: list[Event]) -> None:
        """Pay `amount` Ducats into the sack, gold first. Only gold and an odd amount: one gold
        more and a silver back from the sack as change (overpaying only if the sack has none)."""
        gold, silver = _coins_for(state.money[seat], amount)
        state.money[seat][GOLD] -= gold
        state.money[seat][SILVER] -= silver
        state.sack[GOLD] += gold
        state.sack[SILVER] += silver
        paid = 2 * gold + silver
        if paid > amount:
            if state.sack[SILVER]:
                state.sack[SILVER] -= 1
                state.money[seat][SILVER] += 1
                events.append(E("event.change", player=SeatRef(seat)))
                self._tax(state, seat, events)
            else:
                events.append(E("event.overpaid", player=SeatRef(seat), amount=paid - amount))

    def _pay_player(self, state: GluecksritterState, payer: int, receiver: int, amount: int,
                    events: list[Event]) -> None:
        """The haggle's price: coins first (change as with the sack, from the receiver's silver),
        then castle pieces for what the coins do not cover, the fewest Ducats over the rest.
        A piece the receiver has no room for goes back to the supply."""
        coins_value = state.ducats(payer)
        if coins_value >= amount:
            gold, silver = _coins_for(state.money[payer], amount)
        else:
            gold, silver = state.money[payer][GOLD], state.money[payer][SILVER]
        state.money[payer][GOLD] -= gold
        state.money[payer][SILVER] -= silver
        state.money[receiver][GOLD] += gold
        state.money[receiver][SILVER] += silver
        paid = 2 * gold + silver
        if paid > amount and state.money[receiver][SILVER]:
            state.money[receiver][SILVER] -= 1
            state.money[payer][SILVER] += 1
            paid -= 1
        rest = amount - paid
        walls = towers = 0
        if rest > 0:
            walls, towers = _pieces_for(state.walls[payer], state.towers[payer], rest)
            state.walls[payer] -= walls
            state.towers[payer] -= towers
            state.walls[receiver] = min(CASTLE_WALLS, state.walls[receiver] + walls)
            state.towers[receiver] = min(CASTLE_TOWERS, state.towers[receiver] + towers)
        events.append(E("event.paid", player=SeatRef(payer), receiver=SeatRef(receiver), amount=ducats(amount),
                        silver=silver, gold=gold, walls=walls, towers=towers))
        self._tax(state, receiver, events)

    # ------------------------------------------------------------------------------------
    # Labels, views, results

    def describe(self, state: GluecksritterState, seat: int, action: Action) -> Msg:
        verb, args = action.verb, action.args
        if verb == "change":
            return msg(P + "label.change")
        if verb == "play" and args:
            cards = [int(c) for c in args[0].split(",") if c.isdigit() and int(c) in FIELDS]
            if len(cards) == 2:
                return msg(P + "label.play", first=cards[0], first_name=msg(P + f"field.{cards[0]}"),
                           second=cards[1], second_name=msg(P + f"field.{cards[1]}"))
        if verb == "doc" and args and args[0] in RED_DOCUMENTS:
            chosen = args[0] in state.choices[seat]["docs"] if 0 <= seat < state.seats else False
            return msg(P + ("label.doc_off" if chosen else "label.doc_on"), document=doc_term(args[0]))
        if verb == "ransom":
            chosen = state.choices[seat]["ransom"] if 0 <= seat < state.seats else False
            return msg(P + ("label.ransom_off" if chosen else "label.ransom_on"), price=RANSOM)
        if verb == "arm" and args and args[0] in ("gift", "alibi"):
            on = state.armed[seat][args[0]] if 0 <= seat < state.seats else False
            return msg(P + ("label.disarm" if on else "label.arm"), document=doc_term(args[0]))
        if verb == "veto" and args:
            if args[0] == "off":
                return msg(P + "label.veto_off")
            if args[0].isdigit():
                return msg(P + "label.veto_player", player=SeatRef(int(args[0])))
            if args[0] in RED_DOCUMENTS:
                return msg(P + "label.veto_document", document=doc_term(args[0]))
        if verb == "keep" and args and args[0] in DOCUMENT_ORDER:
            return msg(P + "label.keep", document=doc_term(args[0]))
        if verb == "buy" and args and args[0].isdigit() and state.phase in ("field1", "field2", "field3"):
            count, field_no = int(args[0]), int(state.phase[-1])
            if count == 0:
                return msg(P + f"label.buy_nothing.{field_no}")
            price = self._price(state, seat, field_no) * count
            return msg(P + f"label.buy.{field_no}", count=count, price=ducats(price))
        if verb == "opener" and args and args[0].isdigit():
            if int(args[0]) == seat:
                return msg(P + "label.opener_me")
            return msg(P + "label.opener", player=SeatRef(int(args[0])))
        if verb == "offer" and args and args[0].isdigit():
            return msg(P + "label.offer", amount=int(args[0]))
        if verb == "accept" and state.haggle and state.haggle.get("offer"):
            return msg(P + "label.accept", amount=state.haggle["offer"][1])
        if verb == "pass":
            return msg(P + "label.pass")
        if verb == "rob" and args and args[0] in ("5", "6"):
            where = state.field5 if args[0] == "5" else state.field6
            return msg(P + "label.rob", field=int(args[0]), gold=where[GOLD])
        if verb == "raid" and args and args[0].isdigit():
            return msg(P + "label.raid", player=SeatRef(int(args[0])))
        if verb == "steal" and args and args[0] in ("wall", "tower"):
            return msg(P + f"label.steal_{args[0]}")
        return msg(P + "label.unknown", text=action.encode()[:60])

    def suggest(self, state: GluecksritterState, seat: int, rng: random.Random, *, strength: str = "normal",
                clock: Callable[[], float] | None = None) -> Action:
        """The computer player (see `ai.py`): a legal action from this seat's view only."""
        if strength == "strong":  # a search over the normal player (games.search)
            return suggest_strong(self, state, seat, rng, clock=clock)
        return suggest(self, state, seat, rng)

    def hint(self, state: GluecksritterState, seat: int, rng: random.Random, *,
             clock: Callable[[], float] | None = None) -> tuple[Action, Msg]:
        """The strong player's move for `seat` and why, from the seat's view only."""
        return hint(self, state, seat, rng, clock=clock)

    def view(self, state: GluecksritterState, seat: int | None) -> dict[str, Any]:
        return build_view(self, state, seat)

    def outcome(self, state: GluecksritterState) -> Outcome | None:
        if state.winners is None:
            return None
        winners = tuple(state.winners)
        ducats = [state.ducats(s) for s in range(state.seats)]
        players = seat_list(winners)
        if len(winners) > 1:
            reason = msg(P + "outcome.shared", players=players, ducats=ducats[winners[0]])
        else:
            complete = [s for s in range(state.seats)
                        if state.walls[s] >= CASTLE_WALLS and state.towers[s] >= CASTLE_TOWERS]
            key = "outcome.richest" if len(complete) > 1 else "outcome.castle"
            reason = msg(P + key, player=SeatRef(winners[0]), ducats=ducats[winners[0]])
        return Outcome(winners=winners, scores=tuple(state.pieces(s) for s in range(state.seats)), reason=reason,
                       details={"ducats": ducats, "walls": list(state.walls), "towers": list(state.towers),
                                "rounds": state.round})

    def to_dict(self, state: GluecksritterState) -> dict[str, Any]:
        return state_io.to_dict(state)

    def from_dict(self, data: Mapping[str, Any]) -> GluecksritterState:
        return state_io.from_dict(data)

    def scores(self, state: GluecksritterState) -> list[int]:
        """Each player's castle pieces (walls and towers) so far: what the final score counts."""
        return [state.pieces(seat) for seat in range(state.seats)]

    def exposure(self, state: GluecksritterState) -> tuple[Any, ...]:
        """What changes only when chance is drawn or something hidden comes to light: the chance
        counter, the sack, the document pile and the Ducat deck (draws), the reveal of the
        round's secret choices, a secretly armed document firing (it goes to the discard), and every
        time the rules asked whether one fires (its answer is public either way)."""
        return (state.chance_counter, len(state.sack), len(state.pile), len(state.ducat_deck),
                state.ducat_card, state.revealed, len(state.discard), state.consulted)

    def hidden_variant(self, state: GluecksritterState, owner: int | None, rng: random.Random) -> GluecksritterState:
        """Owner None: the document pile and the Ducat deck in another order. Owner seat: its
        documents swapped with pile cards, its open secret choice and armed documents redrawn,
        its Monk's Favour draw changed. Everything public stays."""
        new = state.clone()
        if owner is None:
            rng.shuffle(new.pile)
            rng.shuffle(new.ducat_deck)
            return new
        hand = new.hands[owner]
        pool = hand + new.pile
        rng.shuffle(pool)
        new.hands[owner], new.pile = pool[:len(hand)], pool[len(hand):]
        self._redraw_secrets(new, owner, rng)
        return new

    def determinize(self, state: GluecksritterState, seat: int, rng: random.Random) -> GluecksritterState:
        """A state `seat` cannot tell from this one, all it cannot see dealt afresh at once: the
        other seats' documents from one pool with the pile (one seat at a time would let the
        pile one drew from depend on how another's hand lay), then their secret choices."""
        new = self.hidden_variant(state, None, rng)
        others = [other for other in range(new.seats) if other != seat]
        pool = list(new.pile)
        for other in others:
            pool += new.hands[other]
        rng.shuffle(pool)
        for other in others:
            new.hands[other], pool = pool[:len(new.hands[other])], pool[len(new.hands[other]):]
        new.pile = pool
        for other in others:
            self._redraw_secrets(new, other, rng)
        return new

    def _redraw_secrets(self, new: GluecksritterState, owner: int, rng: random.Random) -> None:
        """The owner's Monk's Favour draw, armed documents and open secret choice drawn anew."""
        if new.favour[owner] and new.pile:
            swap = new.pile.pop(0)
            new.pile.append(new.favour[owner][0])
            new.favour[owner][0] = swap
        hand = new.hands[owner]
        new.armed[owner] = {"gift": "gift" in hand and rng.random() < 0.5,
                            "alibi": "alibi" in hand and rng.random() < 0.5,
                            "veto": (rng.choice([None, *RED_DOCUMENTS]) if "veto" in hand else None)}
        if not new.revealed:
            choice = new.choices[owner]
            playable = self._playable(new, owner)
            # A confirmed choice has two cards; an open one none yet, or two kept from a choice
            # taken back to be changed.
            choice["cards"] = sorted(rng.sample(playable, 2)) if choice["ready"] or rng.random() < 0.5 else []
            reds = [d for d in RED_DOCUMENTS if d in hand and (d != "pardon" or new.dungeon[owner])]
            choice["docs"] = [d for d in reds if rng.random() < 0.5]
            choice["ransom"] = new.dungeon[owner] and rng.random() < 0.5


def _coins_for(purse: list[int], amount: int) -> tuple[int, int]:
    """(gold, silver) to pay `amount` from a purse worth at least that: gold first, exact when
    possible, else one gold over (only gold in the purse and an odd amount)."""
    silver, gold = purse
    use_gold = min(gold, amount // 2)
    use_silver = amount - 2 * use_gold
    if use_silver <= silver:
        return use_gold, use_silver
    # Not enough silver: no silver at all and an odd amount; one gold more (change follows).
    return use_gold + 1, 0


def _pieces_for(walls: int, towers: int, rest: int) -> tuple[int, int]:
    """The walls and towers worth at least `rest` Ducats with the least value (then fewest pieces)."""
    best = None
    for w in range(walls + 1):
        for t in range(towers + 1):
            value = w * WALL_WORTH + t * TOWER_WORTH
            if value >= rest:
                key = (value, w + t)
                if best is None or key < best[0]:
                    best = (key, (w, t))
    if best is None:
        return walls, towers
    return best[1]
