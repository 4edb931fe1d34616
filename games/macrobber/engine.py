"""The Mac Robber rules engine (the `games.core.Game` contract).

A turn: the active player draws 6 cubes (the public display); the holder of Biggest Following
may once mark cubes and draw them again; then one or two different actions with at most 4
display cubes (Bard alone; the last player of the round one action only); then a raid (three
rounds of face-down cards, pipers add 1) or an exchange of up to 3 cards. After everyone's turn
the round is scored, an estate is removed (its number shown once someone is in the red zone),
and the start player moves on.

Actions (canonical text; arguments never contain spaces):
  mark <y|b|g|r>  unmark  redraw  keep      Biggest Following: return marked cubes and redraw
  cattle  castle  monastery  warrior  piper  monks <1|2>
  bard <seat>                               a bard at that player's courtyard, then:
  take <keep> <bag|->                       the cube kept (y/b/g) and the one sent to the bag
  estate <red|green> <courtyard cubes|->    e.g. "estate green yg": yellow + 1 green from the courtyard
  done                                      end the actions
  raid <seat>  exchange                     phase 3
  toss <value>  draw                        exchange: discard up to 3, then draw as many
  play <value> [piper]                      a raid round's card, with or without a piper
  plunder <cattle|castle|monastery|none>    the winning attacker's loot
  discard <value>                           a card to discard (hand size follows the warriors)

Decisions where the rules are silent are in docs/macrobber.md and repeated where carried out.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.core import (
    Action,
    Checked,
    Event,
    Features,
    GameError,
    IllegalAction,
    Msg,
    Option,
    Outcome,
    Search,
    SeatRef,
    admitted,
    chance,
    lowered,
    msg,
)
from games.macrobber import state as state_io
from games.macrobber.ai import suggest
from games.macrobber.data import (
    ATTACKER_LOSS,
    BUILDINGS,
    COLOURS,
    CUBES,
    DEFENDER_WIN,
    DISPLAY_SIZE,
    ESTATE_NUMBERS,
    EXCHANGE_MAX,
    GREEN_FIRST,
    GREEN_SECOND,
    GREEN_TIED,
    MAX_CUBES_USED,
    MAX_ESTATES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MIN_WARRIORS,
    RAID_DISCARD,
    RAID_DRAW,
    RAID_ROUNDS,
    RAID_TIE,
    RAID_WIN,
    RAID_WIN_NOTHING,
    RED_EACH,
    RED_MOST,
    RED_ZONE,
    SET_ASIDE,
    START_COURTYARD,
    START_ESTATES,
    START_HAND,
    START_SCORE,
    B,
    G,
    R,
    Y,
    all_cards,
)
from games.macrobber.state import MacRobberState
from games.macrobber.views import build_view
from games.search import hint, suggest_strong

P = "macrobber."
REACTION_DEFENCE = P + "reaction.defence"
REACTION_DISCARD = P + "reaction.discard"
SIMPLE = ("cattle", "castle", "monastery", "warrior", "piper")
COST = {"cattle": (0, 0, 0, 1), "castle": (0, 2, 0, 0), "monastery": (0, 0, 3, 0),
        "warrior": (1, 0, 0, 0), "piper": (0, 1, 0, 0)}
# Courtyard shares of an estate's price (yellow, green from the courtyard); red always from the display.
ESTATE_YARDS = {"red": ("-", "y"), "green": ("-", "y", "g", "yg", "gg", "ygg")}



def E(message_id: str, seat: int | None = None, kind: str = "info", **params: Any) -> Event:
    return Event(msg(P + message_id, **params), seat=seat, kind=kind)


def colour(c: str | int) -> Msg:
    return msg(P + "colour." + (COLOURS[c] if isinstance(c, int) else c))


def cube_list(counts: Sequence[int]) -> list[Msg]:
    return [msg(P + "cubes." + COLOURS[c], count=counts[c]) for c in range(4) if counts[c]]


def _add(a: list[int], b: Sequence[int], sign: int = 1) -> None:
    for i in range(4):
        a[i] += sign * b[i]


class MacRobber:
    name = "macrobber"
    title = "Mac Robber"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options: tuple[Option, ...] = (
        Option("tiebreak", msg("macrobber.option.tiebreak"), "shared",
               ("shared", "cubes")),
    )
    rules_summary = msg("macrobber.rules.summary")  # the catalogues hold its words
    features = Features(computer=True, strengths=("normal", "strong"), hints=True, scores=True, undo=True,
                        public_moves=True, forced=True, reactions=(REACTION_DEFENCE, REACTION_DISCARD),
                        search=Search(determinize=True))

    # ------------------------------------------------------------------------------------
    # Setup

    def new_game(self, seats: int, *, seed: int, options: Mapping[str, str] | None = None) -> MacRobberState:
        if not isinstance(seats, int) or not self.min_players <= seats <= self.max_players:
            raise GameError(f"Mac Robber is for {self.min_players} to {self.max_players} players, not {seats}.")
        options = dict(options or {})
        tiebreak = options.pop("tiebreak", "shared")
        if options or tiebreak not in ("shared", "cubes"):
            raise GameError("Mac Robber knows one option: tiebreak=shared or tiebreak=cubes.")
        rng = chance(seed, 0)
        deck = all_cards()
        rng.shuffle(deck)
        supply = list(ESTATE_NUMBERS)
        rng.shuffle(supply)
        aside = list(SET_ASIDE[seats])
        bag = [CUBES[c] - aside[c] - seats * START_COURTYARD[c] for c in range(4)]
        bag[R] -= seats  # one cattle on a starting estate each
        hands = [deck[i * START_HAND:(i + 1) * START_HAND] for i in range(seats)]
        deck = deck[seats * START_HAND:]
        state = MacRobberState(
            seats=seats, seed=int(seed), chance_counter=1, tiebreak=tiebreak == "cubes", round=1, start=0, turn=0,
            phase="act", bag=bag, aside=aside, display=[0] * 4, marked=[0] * 4, redrawn=False, done=[], used=0,
            courtyards=[list(START_COURTYARD) for _ in range(seats)],
            estates=[["cattle"] + [""] * (START_ESTATES - 1) for _ in range(seats)],
            scores=[START_SCORE[seats]] * seats, hands=hands, deck=deck, discard=[], supply=supply, revealed=[],
            removed_hidden=0, follower=None, owed=[0] * seats,
        )
        events: list[Event] = [E("event.round", round=1, player=SeatRef(0))]
        self._start_turn(state, events)
        for event in events:
            if event.seat is None:
                state.add_log(event.text.to_json())
        return state

    # ------------------------------------------------------------------------------------
    # Whose move, which moves

    def to_act(self, state: MacRobberState) -> frozenset[int]:
        if state.phase == "over":
            return frozenset()
        owing = [s for s in range(state.seats) if state.owed[s]]
        if owing:
            return frozenset(owing)
        if state.phase == "combat":
            raid = state.raiding
            return frozenset({raid["attacker"] if raid["a_card"] is None else raid["defender"]})
        return frozenset({state.active})

    def moves_are_public(self, state: MacRobberState, seat: int) -> bool:
        """Display, actions, bard, raid target and loot follow from public facts; cards do not."""
        return (seat in self.to_act(state) and not state.owed[seat]
                and state.phase in ("redraw", "act", "bard", "raid", "plunder"))


    def publicly_forced(self, state: MacRobberState, seat: int) -> Action | None:
        """The only move, where everyone can tell it is the only one. The values in a hand are
        secret, its size is not: a move chosen from the hand (a raid card, a discard, a card to
        exchange) is publicly forced only with at most one card in hand (the defender's last
        card, no piper), or when the exchange has taken its three cards (then only `draw`). A
        hand of three 4s forces a discard too, but only its owner knows: it is still asked."""
        if seat not in self.to_act(state):
            return None
        legal = self.legal_actions(state, seat)
        if len(legal) != 1:
            return None
        from_hand = state.owed[seat] or state.phase == "combat" or (
            state.phase == "exchange" and len(state.exchange) < EXCHANGE_MAX)
        if from_hand and len(state.hands[seat]) > 1:
            return None
        return legal[0]

    def reaction_kind(self, state: MacRobberState, seat: int) -> str | None:
        """Outside one's own turn: defending a raid, and the discards a bard's victim and a raid's
        defender owe. Everything else is the active player's own turn, and so is the attacker's
        discard after a raid, which closes their turn. Discards are owed only as the latest
        move's effect (the game waits for them before anything else): a raid's refill comes
        after the engine has begun the next turn, when nothing is done in it yet; otherwise the
        active player owes for their own action, and anyone else is the bard's victim."""
        if seat not in self.to_act(state):
            return None
        if state.owed[seat]:
            if not state.done:  # the refill after a raid
                return REACTION_DISCARD if seat == state.raiding["defender"] else None
            return None if seat == state.active else REACTION_DISCARD
        if state.phase == "combat" and state.raiding["defender"] == seat:
            return REACTION_DEFENCE
        return None

    def legal_actions(self, state: MacRobberState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.owed[seat]:
            return [Action("discard", (str(v),)) for v in sorted(set(state.hands[seat]))]
        phase = state.phase
        if phase == "redraw":
            acts = [Action("mark", (COLOURS[c],)) for c in range(4) if state.marked[c] < state.display[c]]
            if any(state.marked):
                acts += [Action("unmark"), Action("redraw")]
            return acts + [Action("keep")]
        if phase == "act":
            acts = self._action_choices(state, seat)
            if state.done or not acts:
                acts.append(Action("done"))
            return acts
        if phase == "bard":
            return [Action("take", (k, b)) for k, b in self.bard_takes(state, state.bard_victim)]
        if phase == "raid":
            acts = [Action("raid", (str(s),)) for s in range(state.seats)
                    if s != seat and len(state.hands[s]) >= RAID_ROUNDS and len(state.hands[seat]) >= RAID_ROUNDS]
            return acts + [Action("exchange")]
        if phase == "exchange":
            acts = []
            if len(state.exchange) < EXCHANGE_MAX:
                acts = [Action("toss", (str(v),)) for v in sorted(set(state.hands[seat]))]
            return acts + [Action("draw")]
        if phase == "combat":
            piper = state.courtyards[seat][B] > 0
            acts = []
            for v in sorted(set(state.hands[seat])):
                acts.append(Action("play", (str(v),)))
                if piper:
                    acts.append(Action("play", (str(v), "piper")))
            return acts
        if phase == "plunder":
            victim = state.raiding["defender"]
            kinds = [k for k in ("cattle", "castle", "monastery") if k in state.estates[victim]]
            return [Action("plunder", (k,)) for k in kinds] + [Action("plunder", ("none",))]
        return []

    def _action_choices(self, state: MacRobberState, seat: int) -> list[Action]:
        done = state.done
        if "bard" in done or len(done) >= self._max_actions(state):
            return []
        left = MAX_CUBES_USED - state.used
        d = state.display
        free = state.free_estates(seat) > 0
        acts = []
        for kind in SIMPLE:
            cost = COST[kind]
            if kind in done or sum(cost) > left or any(d[c] < cost[c] for c in range(4)):
                continue
            if kind in ("cattle", "castle", "monastery") and not free:
                continue
            acts.append(Action(kind))
        if "monks" not in done:
            acts += [Action("monks", (str(n),)) for n in (1, 2) if n <= left and d[G] >= n]
        if not done and d[B] >= 1 and left >= 1:
            acts += [Action("bard", (str(s),)) for s in range(state.seats) if s != seat and self.bard_takes(state, s)]
        if "estate" not in done and len(state.estates[seat]) < MAX_ESTATES and state.supply:
            for recipe, yards in ESTATE_YARDS.items():
                for court in yards:
                    if self._estate_payment(state, seat, recipe, court) is not None:
                        acts.append(Action("estate", (recipe, court)))
        return acts

    def _max_actions(self, state: MacRobberState) -> int:
        return 1 if state.turn == state.seats - 1 else 2

    def _estate_payment(self, state: MacRobberState, seat: int, recipe: str,
                        court: str) -> tuple[list[int], list[int]] | None:
        """(from display, from courtyard) cube counts for an estate, or None if not payable.
        Rules: yellow and green may come from the courtyard, never cubes from estates; the
        courtyard keeps at least 3 warriors; display cubes count toward the 4."""
        need = [1, 0, 0, 1] if recipe == "red" else [1, 0, 2, 0]
        yard_part = [court.count("y"), 0, court.count("g"), 0]
        if recipe == "red" and yard_part[G]:
            return None
        display_part = [need[c] - yard_part[c] for c in range(4)]
        if min(display_part) < 0:
            return None
        yard = state.courtyards[seat]
        if yard[Y] - yard_part[Y] < MIN_WARRIORS or yard[G] < yard_part[G]:
            return None
        if any(state.display[c] < display_part[c] for c in range(4)):
            return None
        if sum(display_part) > MAX_CUBES_USED - state.used:
            return None
        return display_part, yard_part

    def bard_takes(self, state: MacRobberState, victim: int) -> list[tuple[str, str]]:
        """(kept, to the bag) pairs a bard may take from `victim`'s courtyard: different colours,
        the victim keeps at least 3 warriors. The kept cube is always taken (decision)."""
        yard = state.courtyards[victim]
        has = [yard[Y] > MIN_WARRIORS, yard[B] > 0, yard[G] > 0]
        pairs = []
        for k in range(3):
            if not has[k]:
                continue
            for b in range(3):
                if b != k and has[b]:
                    pairs.append((COLOURS[k], COLOURS[b]))
            pairs.append((COLOURS[k], "-"))
        return pairs

    # ------------------------------------------------------------------------------------
    # Applying moves

    def apply(self, state: MacRobberState, seat: int,
              action: Action | Checked) -> tuple[MacRobberState, list[Event]]:
        action = admitted(self, state, seat, action, lowered)
        new = state.clone()
        events: list[Event] = []
        verb, args = action.verb, action.args
        if verb == "discard":
            self._discard(new, seat, int(args[0]), events)
        elif new.phase == "redraw":
            self._redraw(new, seat, verb, args, events)
        elif new.phase == "act":
            self._act(new, seat, verb, args, events)
        elif new.phase == "bard":
            self._bard_take(new, seat, args[0], args[1], events)
        elif verb == "raid":
            self._start_raid(new, seat, int(args[0]), events)
        elif verb == "exchange":
            new.phase = "exchange"
            events.append(E("event.exchange", player=SeatRef(seat)))
        elif verb == "toss":
            value = int(args[0])
            new.hands[seat].remove(value)
            new.exchange.append(value)
            events.append(E("event.tossed", seat=seat, value=value))
        elif verb == "draw":
            count = len(new.exchange)
            new.discard += new.exchange
            new.exchange = []
            self._draw(new, seat, count, events)
            events.append(E("event.exchanged", player=SeatRef(seat), count=count))
            self._end_turn(new, events)
        elif verb == "play":
            self._play(new, seat, int(args[0]), len(args) > 1, events)
        elif verb == "plunder":
            self._plunder(new, seat, args[0], events)
        for event in events:
            if event.seat is None:
                new.add_log(event.text.to_json())
        return new, events

    # -- turns ---------------------------------------------------------------------------

    def _rng(self, state: MacRobberState) -> random.Random:
        rng = chance(state.seed, state.chance_counter)
        state.chance_counter += 1
        return rng

    def _draw_cubes(self, state: MacRobberState, count: int) -> list[int]:
        rng = self._rng(state)
        drawn = [0] * 4
        for _ in range(count):
            pick = rng.randrange(sum(state.bag))
            for c in range(4):
                if pick < state.bag[c]:
                    break
                pick -= state.bag[c]
            state.bag[c] -= 1
            drawn[c] += 1
        return drawn

    def _start_turn(self, state: MacRobberState, events: list[Event]) -> None:
        state.done, state.used, state.marked, state.redrawn = [], 0, [0] * 4, False
        state.bard, state.exchange = None, []
        if sum(state.bag) < DISPLAY_SIZE:
            events.append(E("event.end_bag", count=sum(state.bag)))
            self._finish(state, "bag", events)
            return
        state.display = self._draw_cubes(state, DISPLAY_SIZE)
        player = state.active
        events.append(E("event.display", player=SeatRef(player), cubes=cube_list(state.display)))
        state.phase = "redraw" if state.follower == player else "act"

    def _end_turn(self, state: MacRobberState, events: list[Event]) -> None:
        state.turn += 1
        if state.turn < state.seats:
            self._start_turn(state, events)
            return
        self._score_round(state, events)
        if state.phase == "over":
            return
        state.turn = 0
        state.round += 1
        state.start = (state.start + 1) % state.seats
        events.append(E("event.round", round=state.round, player=SeatRef(state.start)))
        self._start_turn(state, events)

    # -- Biggest Following -----------------------------------------------------------------

    def _redraw(self, state: MacRobberState, seat: int, verb: str, args: tuple[str, ...], events: list[Event]) -> None:
        if verb == "mark":
            state.marked[COLOURS.index(args[0])] += 1
            return
        if verb == "unmark":
            state.marked = [0] * 4
            return
        if verb == "redraw":
            count = sum(state.marked)
            _add(state.display, state.marked, -1)
            _add(state.bag, state.marked)  # returned first, then drawn again (rules: "return ... and draw")
            drawn = self._draw_cubes(state, count)
            _add(state.display, drawn)
            events.append(E("event.redrew", player=SeatRef(seat), count=count, cubes=cube_list(drawn)))
        state.marked = [0] * 4
        state.redrawn = True
        state.phase = "act"

    # -- actions ---------------------------------------------------------------------------

    def _use(self, state: MacRobberState, cost: Sequence[int]) -> None:
        _add(state.display, cost, -1)
        state.used += sum(cost)

    def _act(self, state: MacRobberState, seat: int, verb: str, args: tuple[str, ...], events: list[Event]) -> None:
        yard = state.courtyards[seat]
        who = SeatRef(seat)
        if verb == "done":
            self._end_actions(state, events)
            return
        if verb in ("cattle", "castle", "monastery"):
            self._use(state, COST[verb])
            state.estates[seat][state.estates[seat].index("")] = verb
            state.done.append(verb)
            events.append(E("event." + verb, player=who))
        elif verb in ("warrior", "piper"):
            self._use(state, COST[verb])
            yard[Y if verb == "warrior" else B] += 1
            state.done.append(verb)
            events.append(E("event." + verb, player=who))
            self._fit_hand(state, seat, events)
        elif verb == "monks":
            n = int(args[0])
            self._use(state, (0, 0, n, 0))
            yard[G] += n
            state.done.append("monks")
            events.append(E("event.monks", player=who, count=n))
        elif verb == "bard":
            self._use(state, (0, 1, 0, 0))
            state.bag[B] += 1
            state.done.append("bard")
            state.bard = int(args[0])
            state.phase = "bard"
            events.append(E("event.bard", player=who, victim=SeatRef(state.bard)))
            return
        elif verb == "estate":
            payment = self._estate_payment(state, seat, args[0], args[1])
            if payment is None:  # refused by check_turn already: an estate is offered only where it is paid for
                raise IllegalAction(f"The estate {args[0]} {args[1]} cannot be paid for.")
            display_part, yard_part = payment
            self._use(state, display_part)
            _add(yard, yard_part, -1)
            _add(state.bag, display_part)
            _add(state.bag, yard_part)
            state.supply.pop(0)
            state.estates[seat].append("")
            state.done.append("estate")
            events.append(E("event.estate", player=who, count=len(state.estates[seat]),
                            yard=cube_list(yard_part) or msg(P + "nothing")))
            self._fit_hand(state, seat, events)
        if not self._action_choices(state, seat):
            self._end_actions(state, events)

    def _bard_take(self, state: MacRobberState, seat: int, keep: str, to_bag: str, events: list[Event]) -> None:
        victim = state.bard_victim
        k = COLOURS.index(keep)
        state.courtyards[victim][k] -= 1
        state.courtyards[seat][k] += 1
        if to_bag != "-":
            b = COLOURS.index(to_bag)
            state.courtyards[victim][b] -= 1
            state.bag[b] += 1
            events.append(E("event.bard_took_two", player=SeatRef(seat), victim=SeatRef(victim),
                            keep=colour(keep), bag=colour(to_bag)))
        else:
            events.append(E("event.bard_took", player=SeatRef(seat), victim=SeatRef(victim), keep=colour(keep)))
        state.bard = None
        self._fit_hand(state, seat, events)
        self._fit_hand(state, victim, events)
        self._end_actions(state, events)

    def _end_actions(self, state: MacRobberState, events: list[Event]) -> None:
        back = sum(state.display)
        if back:
            events.append(E("event.unused", count=back))
        _add(state.bag, state.display)
        state.display = [0] * 4
        state.phase = "raid"

    # -- cards -----------------------------------------------------------------------------

    def _draw(self, state: MacRobberState, seat: int, count: int, events: list[Event]) -> None:
        drawn = []
        for _ in range(count):
            if not state.deck:
                if not state.discard:
                    break  # every card is in a hand (decision: draw what there is)
                state.deck = state.discard
                state.discard = []
                self._rng(state).shuffle(state.deck)
                events.append(E("event.reshuffle"))
            drawn.append(state.deck.pop(0))
            state.hands[seat].append(drawn[-1])
        if drawn:
            events.append(E("private.drew", seat=seat, cards=sorted(drawn)))

    def _fit_hand(self, state: MacRobberState, seat: int, events: list[Event]) -> None:
        """Hand size always equals the warriors: draw at once, or owe discards (the player picks)."""
        want = state.courtyards[seat][Y]
        have = len(state.hands[seat])
        if have < want:
            self._draw(state, seat, want - have, events)
            state.owed[seat] = 0
        else:
            state.owed[seat] = have - want
            if state.owed[seat]:
                events.append(E("event.must_discard", player=SeatRef(seat), count=state.owed[seat]))

    def _discard(self, state: MacRobberState, seat: int, value: int, events: list[Event]) -> None:
        state.hands[seat].remove(value)
        state.discard.append(value)
        state.owed[seat] -= 1
        events.append(E("private.discarded", seat=seat, value=value))
        events.append(E("event.discarded", player=SeatRef(seat)))

    # -- raids -----------------------------------------------------------------------------

    def _start_raid(self, state: MacRobberState, seat: int, defender: int, events: list[Event]) -> None:
        state.raid = {"attacker": seat, "defender": defender, "rounds": [], "a_card": None, "a_piper": False,
                      "result": None}
        state.phase = "combat"
        events.append(E("event.raid", player=SeatRef(seat), victim=SeatRef(defender)))

    def _play(self, state: MacRobberState, seat: int, value: int, piper: bool, events: list[Event]) -> None:
        raid = state.raiding
        state.hands[seat].remove(value)
        who = SeatRef(seat)
        events.append(E("event.card_piper" if piper else "event.card", player=who))
        events.append(E("private.played", seat=seat, value=value, piper=msg(P + ("yes" if piper else "no"))))
        if seat == raid["attacker"] and raid["a_card"] is None:
            raid["a_card"], raid["a_piper"] = value, piper
            return
        attacker, defender = raid["attacker"], raid["defender"]
        a_card, a_piper = raid["a_card"], raid["a_piper"]
        for who_seat, used in ((attacker, a_piper), (defender, piper)):
            if used:  # pipers played go back to the bag
                state.courtyards[who_seat][B] -= 1
                state.bag[B] += 1
        state.discard += [a_card, value]
        raid["rounds"].append([a_card, a_piper, value, piper])
        raid["a_card"], raid["a_piper"] = None, False
        a, d = a_card + a_piper, value + piper
        number = len(raid["rounds"])
        if a == d:
            events.append(E("event.round_tied", round=number, a=a, d=d))
        else:
            events.append(E("event.round_won", round=number, a=a, d=d,
                            player=SeatRef(attacker if a > d else defender)))
        if number == RAID_ROUNDS:
            self._resolve_raid(state, events)

    def _resolve_raid(self, state: MacRobberState, events: list[Event]) -> None:
        raid = state.raiding
        attacker, defender = raid["attacker"], raid["defender"]
        wins_a = sum(1 for r in raid["rounds"] if r[0] + r[1] > r[2] + r[3])
        wins_d = sum(1 for r in raid["rounds"] if r[0] + r[1] < r[2] + r[3])
        a, d = SeatRef(attacker), SeatRef(defender)
        if wins_a > wins_d:
            if any(state.estates[defender]):
                raid["result"] = "won"
                state.phase = "plunder"
                events.append(E("event.raid_won", player=a, victim=d, wins=wins_a, losses=wins_d))
                return
            # Nothing to take: 2 points in all, not 1 + 2 (decision; the rules say "gets 2").
            raid["result"] = "nothing"
            state.scores[attacker] += RAID_WIN_NOTHING
            events.append(E("event.raid_nothing", player=a, victim=d, points=RAID_WIN_NOTHING))
        elif wins_d > wins_a:
            raid["result"] = "defended"
            state.scores[defender] += DEFENDER_WIN
            state.scores[attacker] = max(0, state.scores[attacker] - ATTACKER_LOSS)  # never below 0 (decision)
            events.append(E("event.raid_defended", player=d, attacker=a, points=DEFENDER_WIN, loss=ATTACKER_LOSS))
        else:
            raid["result"] = "tie"
            state.scores[attacker] += RAID_TIE
            events.append(E("event.raid_tie", player=a, points=RAID_TIE))
        self._after_raid(state, events)

    def _plunder(self, state: MacRobberState, seat: int, kind: str, events: list[Event]) -> None:
        raid = state.raiding
        victim = raid["defender"]
        state.scores[seat] += RAID_WIN
        if kind == "none":
            events.append(E("event.plunder_none", player=SeatRef(seat), points=RAID_WIN))
        else:
            spot = state.estates[victim].index(kind)
            state.estates[victim][spot] = ""
            if kind == "cattle" and state.free_estates(seat):
                state.estates[seat][state.estates[seat].index("")] = "cattle"
                events.append(E("event.plunder_cattle", player=SeatRef(seat), victim=SeatRef(victim), points=RAID_WIN))
            else:
                _add(state.bag, BUILDINGS[kind])
                events.append(E("event.plunder_" + kind, player=SeatRef(seat), victim=SeatRef(victim),
                                points=RAID_WIN))
        raid["loot"] = kind
        self._after_raid(state, events)

    def _after_raid(self, state: MacRobberState, events: list[Event]) -> None:
        raid = state.raiding
        for who in (raid["attacker"], raid["defender"]):
            self._draw(state, who, RAID_DRAW, events)
            self._fit_hand(state, who, events)  # 5 drawn, 2 discarded: back to the warriors
        events.append(E("event.refill", attacker=SeatRef(raid["attacker"]), defender=SeatRef(raid["defender"]),
                        draw=RAID_DRAW, count=RAID_DISCARD))
        self._end_turn(state, events)

    # -- scoring and the end ---------------------------------------------------------------

    def round_scores(self, state: MacRobberState) -> tuple[list[dict[str, Any]], int | None]:
        """Each seat's points per colour this round, and who holds Biggest Following after it."""
        n = state.seats
        yellow = [state.courtyards[s][Y] for s in range(n)]
        top = max(yellow)
        tied = [s for s in range(n) if yellow[s] == top]
        if len(tied) > 1:
            most = max(sum(state.courtyards[s]) for s in tied)
            tied = [s for s in tied if sum(state.courtyards[s]) == most]
        follower = tied[0] if len(tied) == 1 else state.follower
        green = [state.green(s) for s in range(n)]
        green_pts = [0] * n
        top = max(green)
        if top > 0:  # a player without green cubes never scores for green (decision)
            firsts = [s for s in range(n) if green[s] == top]
            if len(firsts) > 1:
                for s in firsts:
                    green_pts[s] = GREEN_TIED
            else:
                green_pts[firsts[0]] = GREEN_FIRST
                rest = [green[s] for s in range(n) if s != firsts[0]]
                second = max(rest)
                if second > 0:
                    seconds = [s for s in range(n) if s != firsts[0] and green[s] == second]
                    for s in seconds:
                        green_pts[s] = GREEN_SECOND if len(seconds) == 1 else GREEN_TIED
        cattle = [state.cattle(s) for s in range(n)]
        red_pts = [RED_EACH * c for c in cattle]
        top = max(cattle)
        if top > 0 and cattle.count(top) == 1:
            red_pts[cattle.index(top)] += RED_MOST
        blue_pts = [max(0, state.blue(s) - max(cattle[o] for o in range(n) if o != s)) for s in range(n)]
        rows = [{"green": green_pts[s], "red": red_pts[s], "blue": blue_pts[s],
                 "total": green_pts[s] + red_pts[s] + blue_pts[s]} for s in range(n)]
        return rows, follower

    def _score_round(self, state: MacRobberState, events: list[Event]) -> None:
        rows, follower = self.round_scores(state)
        for s, row in enumerate(rows):
            state.scores[s] += row["total"]
            events.append(E("event.scored", player=SeatRef(s), green=row["green"], red=row["red"], blue=row["blue"],
                            total=row["total"], score=state.scores[s]))
        if follower is not None and follower != state.follower:
            events.append(E("event.follower", player=SeatRef(follower)))
        state.follower = follower
        state.last_scoring = {"round": state.round, "rows": rows}
        if not state.supply:
            events.append(E("event.end_supply"))  # chosen: no estate left to remove ends the game
            self._finish(state, "supply", events)
            return
        number = state.supply.pop(0)
        leader = max(state.scores)
        if leader >= RED_ZONE:
            state.revealed.append(number)
            if number <= leader:
                events.append(E("event.end_estate", number=number, score=leader))
                self._finish(state, "estate", events)
                return
            events.append(E("event.estate_revealed", number=number, score=leader))
        else:
            state.removed_hidden += 1
            events.append(E("event.estate_removed", count=len(state.supply)))

    def _finish(self, state: MacRobberState, why: str, events: list[Event]) -> None:
        state.phase = "over"
        state.end = why
        state.owed = [0] * state.seats
        state.winners = self.winners(state)

    def winners(self, state: MacRobberState) -> list[int]:
        top = max(state.scores)
        best = [s for s in range(state.seats) if state.scores[s] == top]
        if state.tiebreak and len(best) > 1:  # translator's note: most cubes, then most estates
            most = max(state.total_cubes(s) for s in best)
            best = [s for s in best if state.total_cubes(s) == most]
            most = max(len(state.estates[s]) for s in best)
            best = [s for s in best if len(state.estates[s]) == most]
        return best

    # ------------------------------------------------------------------------------------
    # Words, views, outcome

    def describe(self, state: MacRobberState, seat: int, action: Action) -> Msg:
        verb, args = action.verb, action.args
        if verb in ("mark",) and args and args[0] in COLOURS:
            return msg(P + "label.mark", colour=colour(args[0]))
        if verb in ("unmark", "keep", "done", "exchange"):
            return msg(P + "label." + verb)
        if verb == "redraw":
            return msg(P + "label.redraw", count=sum(state.marked))
        if verb in SIMPLE:
            return msg(P + "label." + verb)
        if verb == "monks" and args and args[0] in ("1", "2"):
            return msg(P + "label.monks", count=int(args[0]))
        if verb in ("bard", "raid") and args and args[0].isdigit():
            return msg(P + "label." + verb, player=SeatRef(int(args[0])))
        if verb == "take" and len(args) == 2 and args[0] in COLOURS:
            if args[1] == "-":
                return msg(P + "label.take", keep=colour(args[0]))
            if args[1] in COLOURS:
                return msg(P + "label.take_two", keep=colour(args[0]), bag=colour(args[1]))
        if verb == "estate" and len(args) == 2 and args[0] in ESTATE_YARDS:
            yard = [colour(c) for c in args[1] if c in COLOURS]
            if not yard:
                return msg(P + f"label.estate_{args[0]}")
            return msg(P + f"label.estate_{args[0]}_yard", yard=yard)
        if verb in ("toss", "discard") and args and args[0].isdigit():
            return msg(P + "label.discard", value=int(args[0]))
        if verb == "draw":
            return msg(P + "label.draw", count=len(state.exchange))
        if verb == "play" and args and args[0].isdigit():
            return msg(P + ("label.play_piper" if len(args) > 1 else "label.play"), value=int(args[0]))
        if verb == "plunder" and args and args[0] in ("cattle", "castle", "monastery", "none"):
            return msg(P + "label.plunder_" + args[0])
        return msg(P + "label.unknown", text=action.encode()[:60])

    def suggest(self, state: MacRobberState, seat: int, rng: random.Random, *, strength: str = "normal",
                clock: Callable[[], float] | None = None) -> Action:
        if strength == "strong":  # a search over the normal player (games.search)
            return suggest_strong(self, state, seat, rng, clock=clock)
        return suggest(self, state, seat, rng)

    def scores(self, state: MacRobberState) -> list[int]:
        """Victory points on the track (public)."""
        return list(state.scores)

    def hint(self, state: MacRobberState, seat: int, rng: random.Random, *,
             clock: Callable[[], float] | None = None) -> tuple[Action, Msg]:
        """The strong player's move for `seat` and why, from the seat's view only."""
        return hint(self, state, seat, rng, clock=clock)

    def view(self, state: MacRobberState, seat: int | None) -> dict[str, Any]:
        return build_view(self, state, seat)

    def outcome(self, state: MacRobberState) -> Outcome | None:
        if state.winners is None:
            return None
        winners = tuple(state.winners)
        score = state.scores[winners[0]]
        if len(winners) > 1:
            reason = msg(P + "outcome.shared", players=[SeatRef(s) for s in winners], score=score)
        elif state.scores.count(score) > 1:
            reason = msg(P + "outcome.tiebreak", player=SeatRef(winners[0]), score=score)
        else:
            reason = msg(P + "outcome.win", player=SeatRef(winners[0]), score=score)
        return Outcome(winners=winners, scores=tuple(state.scores), reason=reason,
                       details={"end": state.end, "rounds": state.round,
                                "cubes": [state.total_cubes(s) for s in range(state.seats)],
                                "estates": [len(e) for e in state.estates]})

    def to_dict(self, state: MacRobberState) -> dict[str, Any]:
        return state_io.to_dict(state)

    def from_dict(self, data: Mapping[str, Any]) -> MacRobberState:
        return state_io.from_dict(data)

    def exposure(self, state: MacRobberState) -> tuple[Any, ...]:
        """What changes only when chance is drawn or something hidden comes to light: the chance
        counter, the bag and the deck (draws), the revealed estates and the hidden ones removed,
        and a raid's revealed rounds (face-down cards turned over)."""
        rounds = len(state.raid["rounds"]) if state.raid else 0
        return (state.chance_counter, len(state.bag), len(state.deck), len(state.revealed),
                state.removed_hidden, rounds)

    def determinize(self, state: MacRobberState, seat: int, rng: random.Random) -> MacRobberState:
        """A state `seat` cannot tell from this one, all it cannot see dealt afresh at once: the
        other seats' hands (their tossed cards and a face-down raid card too) from one pool with
        the deck, and the order of the deck, discard pile and estates. (Re-dealing one seat at a
        time would let the deck one seat drew from depend on how another's hand lay.)"""
        new = self.hidden_variant(state, None, rng)
        raid = new.raid
        others = [other for other in range(new.seats) if other != seat]
        # The raid whose attacker's card lies face down, hidden from `seat`.
        face_down = raid if raid is not None and raid["a_card"] is not None and raid["attacker"] != seat else None
        pool = list(new.deck)
        for other in others:
            pool += new.hands[other]
        if new.exchange and state.active != seat:
            pool += new.exchange
        if face_down is not None:
            pool.append(face_down["a_card"])
        rng.shuffle(pool)
        for other in others:
            new.hands[other], pool = pool[:len(new.hands[other])], pool[len(new.hands[other]):]
        if new.exchange and state.active != seat:
            new.exchange, pool = pool[:len(new.exchange)], pool[len(new.exchange):]
        if face_down is not None:
            face_down["a_card"], pool = pool[0], pool[1:]
        new.deck = pool
        return new

    def hidden_variant(self, state: MacRobberState, owner: int | None, rng: random.Random) -> MacRobberState:
        """Owner None: the deck, the discard pile and the estate numbers in another order.
        Owner seat: its hand (and tossed cards, and a face-down raid card) redealt from the deck."""
        new = state.clone()
        if owner is None:
            rng.shuffle(new.deck)
            rng.shuffle(new.discard)
            rng.shuffle(new.supply)
            return new
        raid = new.raid
        # The raid whose attacker's card, the owner's own, lies face down.
        face_down = raid if raid is not None and raid["a_card"] is not None and raid["attacker"] == owner else None
        held = (new.hands[owner] + new.exchange * (owner == state.active)
                + ([face_down["a_card"]] if face_down is not None else []))
        pool = held + new.deck
        rng.shuffle(pool)
        new.hands[owner] = pool[:len(new.hands[owner])]
        rest = pool[len(new.hands[owner]):]
        if owner == state.active and new.exchange:
            new.exchange, rest = rest[:len(new.exchange)], rest[len(new.exchange):]
        if face_down is not None:
            face_down["a_card"], rest = rest[0], rest[1:]
        new.deck = rest
        return new
