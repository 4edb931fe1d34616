"""The conformance suite: every registered game, played at random to the end with fixed seeds.

At every step it checks the contract (see games/core.py): apply never mutates its input, the
state round-trips through JSON, views are JSON with the shared keys, no view leaks another seat's
secrets or the hidden order of a deck, refusals are typed errors, and the renderer accepts views.
At the end: an outcome exists, and replaying seed + action log rebuilds the same state.
"""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games import REGISTRY
from games.core import Action, GameError, GameOver, IllegalAction, Msg, NotYourTurn, reaction_kinds
from i18n import LANGUAGES, translate
from renderers import render_png
from tests.sampling import exhaustive

GAMES = sorted(REGISTRY)
SEEDS = range(6)
MAX_STEPS = 20_000
REQUIRED_VIEW_KEYS = {"game", "seats", "viewer", "to_act", "status", "over"}


def player_counts(game):
    return range(game.min_players, game.max_players + 1)


def cases():
    """Every game at every table size; by default two of the seeds for each size, a different
    two for each (all of them with --exhaustive, tests/sampling.py)."""
    for name in GAMES:
        game = REGISTRY[name]
        for players in player_counts(game):
            seeds = SEEDS if exhaustive() else (players % len(SEEDS), (players + len(SEEDS) // 2) % len(SEEDS))
            for seed in seeds:
                yield pytest.param(name, players, seed, id=f"{name}-{players}p-seed{seed}")


def snapshot(game, state) -> str:
    return json.dumps(game.to_dict(state), sort_keys=True)


def viewers(players):
    return [None, *range(players)]


def check_views(game, state, players):
    for viewer in viewers(players):
        view = game.view(state, viewer)
        json.dumps(view)  # must be JSON
        assert REQUIRED_VIEW_KEYS <= set(view), f"view lacks {REQUIRED_VIEW_KEYS - set(view)}"
        assert view["game"] == game.name
        assert view["seats"] == players
        assert view["viewer"] == viewer
        assert view["to_act"] == sorted(game.to_act(state))
        assert view["over"] == (game.outcome(state) is not None)


def check_no_leaks(game, state, players, rng) -> set:
    """Each owner's secrets (and the hidden-from-all part) may change without any other view
    changing. Returns the owners whose variant really differed, so the caller can check the
    test had teeth."""
    differed = set()
    for owner in viewers(players):
        variant = game.hidden_variant(state, owner, rng)
        if snapshot(game, variant) != snapshot(game, state):
            differed.add(owner)
        for viewer in viewers(players):
            if viewer == owner and owner is not None:
                continue
            assert game.view(variant, viewer) == game.view(state, viewer), (
                f"view of {viewer} changes with the secrets of {owner}: a leak"
            )
    return differed


def check_declared_public_moves(game, state, players, rng):
    """Where an engine says a seat's moves are public, no re-deal of any secret changes them."""
    declared_public = getattr(game, "moves_are_public", None)
    if declared_public is None:
        return
    for seat in sorted(game.to_act(state)):
        if not declared_public(state, seat):
            continue
        moves = [(a, game.describe(state, seat, a)) for a in game.legal_actions(state, seat)]
        for owner in viewers(players):
            for _ in range(3):
                variant = game.hidden_variant(state, owner, rng)
                assert [(a, game.describe(variant, seat, a)) for a in game.legal_actions(variant, seat)] == moves


def check_forced_and_kinds(game, state, players, rng, *, every_seat: bool) -> None:
    """A publicly forced decision is the seat's only move, and everyone can tell: re-dealing the
    secrets hidden from all, the seat's own or any other seat's leaves it the only move and
    reported (another seat's secrets and hidden order leave the very same move; the seat's own
    secret may name another card, never make it one move of several). Whether a decision is
    reported and its reaction kind follow from public information alone, so a decision forced
    by a hidden hand (three cards of one value) is never reported. Checked where a seat has
    one move, where a kind is named, and at `every_seat` steps for every seat."""
    acting = game.to_act(state)
    kinds = reaction_kinds(game)
    for seat in range(players):
        forced = game.publicly_forced(state, seat)
        kind = game.reaction_kind(state, seat)
        if seat not in acting:
            assert forced is None and kind is None, "a seat the game does not wait for has no decision"
            continue
        legal = game.legal_actions(state, seat)
        assert kind is None or kind in kinds, f"{kind!r} is not a declared reaction kind"
        if forced is not None:
            assert legal == [forced], f"reported {forced} but the legal moves are {legal}"
        if not (every_seat or forced is not None or kind is not None or len(legal) == 1):
            continue
        for owner in viewers(players):
            for _ in range(2 if forced is not None else 1):
                variant = game.hidden_variant(state, owner, rng)
                again = game.publicly_forced(variant, seat)
                assert game.reaction_kind(variant, seat) == kind, f"the kind depends on secrets of {owner}"
                assert (again is None) == (forced is None), f"being forced depends on secrets of {owner}"
                if forced is None:
                    continue
                moves = game.legal_actions(variant, seat)
                if owner == seat:
                    assert len(moves) == 1 and again == moves[0]
                else:
                    assert moves == [forced] and again == forced


def words(text, players) -> list[str]:
    """The text in every language, strictly: an unknown id or a missing parameter fails, and no
    seat placeholder or brace survives."""
    names = [f"Player{i + 1}" for i in range(players)]
    out = []
    for lang in LANGUAGES:
        line = translate(text, lang, names, strict=True)
        assert line.strip(), f"empty text for {text!r}"
        assert "{" not in line and "}" not in line, f"placeholder left in {line!r}"
        out.append(line)
    return out


def check_words(game, state, players, events):
    """Everything a player reads says something in German and in English."""
    for viewer in viewers(players):
        words(game.view(state, viewer)["status"], players)
        summary = (game.view(state, viewer).get("private") or {}).get("summary")
        if summary:
            words(summary, players)
    for seat in range(players):  # optional moves of seats outside to_act too (`change`)
        for action in game.legal_actions(state, seat)[:60]:
            for label in words(game.describe(state, seat, action), players):
                assert len(label) <= 100, f"label too long: {label!r}"
    for event in events:
        words(event.text, players)


def check_refusals(game, state, players, rng):
    before = snapshot(game, state)
    acting = game.to_act(state)
    idle = [seat for seat in range(players) if seat not in acting]
    if idle:  # a move of the seats we wait for is not an idle seat's (its optional moves aside)
        seat = rng.choice(idle)
        some_action = (game.legal_actions(state, next(iter(acting))) or [Action("pass")])[0]
        with pytest.raises(NotYourTurn):
            game.apply(state, seat, some_action)
    seat = next(iter(acting))
    with pytest.raises(IllegalAction):
        game.apply(state, seat, Action("no-such-move", ("zz",)))
    assert snapshot(game, state) == before


@pytest.mark.parametrize("name,players,seed", list(cases()))
def test_random_game_keeps_the_contract(name, players, seed):
    game = REGISTRY[name]
    rng = random.Random(f"{name}:{players}:{seed}")
    probes = random.Random(f"probes:{name}:{players}:{seed}")  # apart, so the games stay the same
    state = game.new_game(players, seed=seed)
    log: list[tuple[int, str]] = []
    owners_with_secrets: set = set()
    steps = 0
    while game.outcome(state) is None:
        steps += 1
        assert steps < MAX_STEPS, "random play did not end"
        acting = sorted(game.to_act(state))
        assert acting, "nobody may act but the game is not over"
        # Seats outside to_act may have optional moves (taking back a confirmed secret
        # choice); the game never waits for them.
        optional = [seat for seat in range(players) if seat not in acting and game.legal_actions(state, seat)]
        for seat in acting + optional:
            legal = game.legal_actions(state, seat)
            assert legal, f"seat {seat} must act but has no legal action"
            assert legal == game.legal_actions(state, seat), "legal actions not in a stable order"
            for action in legal:
                assert Action.parse(action.encode()) == action
                assert len(action.encode()) <= 80
                assert game.describe(state, seat, action)
        # Now and then an optional move, so that random play covers them (and still ends).
        seat = rng.choice(optional) if optional and rng.random() < 0.1 else rng.choice(acting)
        action = rng.choice(game.legal_actions(state, seat))

        check_forced_and_kinds(game, state, players, probes, every_seat=steps % 7 == 1)
        if steps % 7 == 1:
            check_views(game, state, players)
            owners_with_secrets |= check_no_leaks(game, state, players, rng)
            check_declared_public_moves(game, state, players, rng)
            check_refusals(game, state, players, rng)
        if steps % 40 == 1:
            for viewer in viewers(players):
                png = render_png(game.view(state, viewer), [f"P{i + 1}" for i in range(players)])
                assert png.startswith(b"\x89PNG")

        before = snapshot(game, state)
        new_state, events = game.apply(state, seat, action)
        assert snapshot(game, state) == before, "apply mutated its input"
        assert all(event.text for event in events)
        if steps % 7 == 1 or game.outcome(new_state) is not None:
            check_words(game, new_state, players, events)
        log.append((seat, action.encode()))
        # JSON round trip at every step.
        data = json.loads(json.dumps(game.to_dict(new_state)))
        assert snapshot(game, game.from_dict(data)) == snapshot(game, new_state)
        state = new_state

    outcome = game.outcome(state)
    assert outcome.reason
    words(outcome.reason, players)
    assert set(outcome.winners) <= set(range(players))
    assert len(outcome.scores) == players
    check_views(game, state, players)
    with pytest.raises(GameOver):
        game.apply(state, 0, Action("end"))
    for viewer in viewers(players):
        assert render_png(game.view(state, viewer), [f"P{i + 1}" for i in range(players)])

    # Replay from seed + log rebuilds the very same state.
    replay = game.new_game(players, seed=seed)
    for seat, text in log:
        replay, _ = game.apply(replay, seat, Action.parse(text))
    assert snapshot(game, replay) == snapshot(game, state)

    # The leak check had teeth: something is hidden from everyone (a deck, a pile, a bag).
    assert None in owners_with_secrets, "hidden_variant(owner=None) never changed anything"


def count_decisions(game, players, seed, reported, held_back, kinds_seen) -> None:
    """Play one random game, counting one-move decisions reported as publicly forced, those not
    reported, and the reaction kinds named (each per decision and seat)."""
    rng = random.Random(f"forced:{game.name}:{players}:{seed}")
    state = game.new_game(players, seed=seed)
    while game.outcome(state) is None:
        for seat in sorted(game.to_act(state)):
            legal = game.legal_actions(state, seat)
            forced = game.publicly_forced(state, seat)
            if forced is not None:
                reported[forced.verb] += 1
            elif len(legal) == 1:
                held_back[legal[0].verb] += 1
            kind = game.reaction_kind(state, seat)
            if kind is not None:
                kinds_seen[kind] += 1
        seat = rng.choice(sorted(game.to_act(state)))
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))


def test_forced_decisions_and_reaction_kinds_are_reported_and_not_vacuous():
    """Per game, over random games of every size: how many one-move decisions are reported as
    publicly forced and how many are not (forced only by a hidden hand: still asked), and which
    reaction kinds came up. Every game reports some; every declared kind comes up and has words;
    and some one-move decisions are held back (Mac Robber's hands, Die Glücksritter's Monk's
    Favour), so the check in the random games has teeth."""
    held_back_anywhere = 0
    for name in GAMES:
        game = REGISTRY[name]
        assert game.features.forced and callable(game.publicly_forced) and callable(game.reaction_kind)
        reported, held_back, kinds_seen = Counter(), Counter(), Counter()
        # Two games of every size; a game whose forced decisions are rare (Raub Ritter) gets more.
        for seed in range(6):
            if seed >= 2 and reported:
                break
            for players in player_counts(game):
                count_decisions(game, players, seed, reported, held_back, kinds_seen)
        print(f"{name}: reported {dict(reported)}; one move but not reported {dict(held_back)}; "
              f"kinds {dict(kinds_seen)}")
        assert reported, f"{name} never reported a forced decision"
        assert set(kinds_seen) == set(reaction_kinds(game)), f"{name}: kinds never seen"
        for kind in reaction_kinds(game):
            for lang in LANGUAGES:
                assert translate(Msg(kind), lang, strict=True).strip()
        held_back_anywhere += sum(held_back.values())
    assert held_back_anywhere, "no one-move decision was ever held back: the check is vacuous"


@pytest.mark.parametrize("name", GAMES)
def test_bad_setups_are_refused(name):
    game = REGISTRY[name]
    for players in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(GameError):
            game.new_game(players, seed=1)


@pytest.mark.parametrize("name", GAMES)
def test_corrupt_state_is_refused_on_load(name):
    from games.core import InvalidState

    game = REGISTRY[name]
    data = game.to_dict(game.new_game(game.min_players, seed=3))
    for broken in ({}, {"nonsense": True}, {**data, "seed": "not a number"}):
        with pytest.raises(InvalidState):
            game.from_dict(broken)


@pytest.mark.parametrize("name", GAMES)
def test_game_definition_is_complete(name):
    game = REGISTRY[name]
    assert game.name == name
    assert game.title
    assert 2 <= game.min_players <= game.max_players <= 6
    for lang in LANGUAGES:  # the summary and every option in both languages, from the catalogues
        assert 50 < len(translate(game.rules_summary, lang, strict=True)) < 1800
        for option in game.options:
            assert translate(option.description, lang, strict=True).strip()


# Each declared feature and search flag, with the optional method it promises (games.core).
DECLARED_METHODS = {
    "computer": ("suggest",), "hints": ("hint",), "scores": ("scores",), "undo": ("exposure",),
    "toggles": ("subset_choices",), "public_moves": ("moves_are_public",), "forced": ("publicly_forced",),
    "reactions": ("reaction_kind",), "search.determinize": ("determinize",), "search.timing": ("search_time",),
    "search.order": ("search_order",), "search.standing": ("search_scores",),
}


@pytest.mark.parametrize("name", GAMES)
def test_an_engine_has_exactly_the_optional_methods_it_declares(name):
    """The bot and the search call an optional method only where the declaration says so: one
    declared but missing would fail mid game, one present but undeclared would never be used."""
    game = REGISTRY[name]
    for flag, methods in DECLARED_METHODS.items():
        owner, _, field = flag.rpartition(".")
        declared = bool(getattr(game.features.search if owner else game.features, field))
        for method in methods:
            present = callable(getattr(type(game), method, None))
            # A game without reactions may still answer reaction_kind (always None): never asked.
            assert present == declared or (flag == "reactions" and present), (flag, method)
    assert game.features.search.candidates >= 1 and game.features.search.playout_actions >= 1


def test_both_builtin_games_are_registered():
    assert {"knatsch", "raubritter"} <= set(REGISTRY)


TOGGLE_GAMES = [name for name in GAMES if hasattr(REGISTRY[name], "subset_choices")]


def test_knatsch_offers_its_rerolls_as_toggles():
    assert {"knatsch", "gluecksritter"} <= set(TOGGLE_GAMES)


@pytest.mark.parametrize("name", TOGGLE_GAMES)
def test_subset_choices_describe_only_legal_actions(name):
    """Where an engine offers toggles (e.g. Knatsch dice), every subset is a legal action and
    every legal action of that verb is some subset."""
    import itertools

    game = REGISTRY[name]
    rng = random.Random(4)
    seen = 0
    for seed in range(3):
        state = game.new_game(game.max_players, seed=seed)
        for _ in range(300):
            if game.outcome(state) is not None:
                break
            seat = rng.choice(sorted(game.to_act(state)))
            legal = game.legal_actions(state, seat)
            for family in game.subset_choices(state, seat):
                seen += 1
                values = [value for value, _ in family.items]
                sizes = [family.size] if family.size is not None else range(1, len(values) + 1)
                subsets = {family.action(combo) for size in sizes
                           for combo in itertools.combinations(values, size)}
                of_verb = {action for action in legal if action.verb == family.verb}
                assert subsets == of_verb
                assert set(family.chosen) <= set(values), "pre-selected items that are not offered"
                assert family.size is None or len(family.chosen) in (0, family.size)
            state, _ = game.apply(state, seat, rng.choice(legal))
    assert seen, "no toggles were ever offered"


def test_optional_moves_reveal_nothing_of_their_seat():
    """A move a seat makes outside to_act (taking back a confirmed secret choice) tells the
    others nothing: with that seat's secrets re-dealt, the public events and every other view
    after the move are the same."""
    seen = 0
    for name in GAMES:
        game = REGISTRY[name]
        rng = random.Random(f"optional:{name}")
        for players in (game.min_players, game.max_players):
            state = game.new_game(players, seed=players)
            for _ in range(400):
                if game.outcome(state) is not None:
                    break
                for seat in range(players):
                    if seat in game.to_act(state):
                        continue
                    for action in game.legal_actions(state, seat):
                        seen += 1
                        after, events = game.apply(state, seat, action)
                        variant = game.hidden_variant(state, seat, rng)
                        after_variant, events_variant = game.apply(variant, seat, action)
                        public = [e.text for e in events if e.seat is None]
                        assert public == [e.text for e in events_variant if e.seat is None]
                        assert not any(e.seat not in (None, seat) for e in events)
                        for viewer in viewers(players):
                            if viewer != seat:
                                assert game.view(after, viewer) == game.view(after_variant, viewer)
                acting = sorted(game.to_act(state))
                seat = rng.choice(acting)
                state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert seen, "no game offered an optional move (Die Glücksritter's `change`)"


@pytest.mark.parametrize("name", GAMES)
def test_no_view_shows_the_seed(name):
    """The seed would let anyone work out every future shuffle and roll."""
    game = REGISTRY[name]
    seed = 918273645546372819
    state = game.new_game(game.max_players, seed=seed)
    rng = random.Random(1)
    for _ in range(30):
        for viewer in viewers(game.max_players):
            assert str(seed) not in json.dumps(game.view(state, viewer))
        if game.outcome(state) is not None:
            break
        seat = rng.choice(sorted(game.to_act(state)))
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))


SUGGEST_GAMES = [name for name in GAMES if hasattr(REGISTRY[name], "suggest")]


@pytest.mark.parametrize("name", SUGGEST_GAMES)
def test_computer_player_always_suggests_a_legal_move(name):
    """`suggest(state, seat, rng)` plays whole games, always from the legal actions."""
    game = REGISTRY[name]
    for players in (game.min_players, game.max_players):
        rng = random.Random(players)
        state = game.new_game(players, seed=players)
        for _ in range(MAX_STEPS):
            if game.outcome(state) is not None:
                break
            seat = min(game.to_act(state))
            action = game.suggest(state, seat, rng)
            assert action in game.legal_actions(state, seat)
            state, _ = game.apply(state, seat, action)
        assert game.outcome(state) is not None


@pytest.mark.parametrize("name", [name for name in GAMES if hasattr(REGISTRY[name], "suggest")])
def test_the_computer_player_never_uses_what_its_seat_cannot_see(name):
    """Re-dealing any secret hidden from the computer's seat (another hand, the order of a deck
    or bag) never changes its move."""
    game = REGISTRY[name]
    players = max(3, game.min_players)
    checked = 0
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_game(players, seed=seed)
        for _ in range(60):
            if game.outcome(state) is not None:
                break
            seat = min(game.to_act(state))
            choice = game.suggest(state, seat, random.Random(7))
            for owner in [None] + [s for s in range(players) if s != seat]:
                variant = game.hidden_variant(state, owner, rng)
                assert game.suggest(variant, seat, random.Random(7)) == choice
                checked += 1
            state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert checked > 100


class SteppingClock:
    """A fake clock: every reading is `step` seconds after the one before."""

    def __init__(self, step: float = 0.05) -> None:
        self.now, self.step = 0.0, step
        self.readings = 0

    def __call__(self) -> float:
        self.now += self.step
        self.readings += 1
        return self.now


@pytest.mark.parametrize("name", SUGGEST_GAMES)
def test_the_strong_player_and_its_hints_never_use_what_their_seat_cannot_see(name):
    """The search re-deals what its seat cannot see, so re-dealing it beforehand changes
    nothing: the same move, the same hint, on a fake clock with the same budget."""
    game = REGISTRY[name]
    players = max(3, game.min_players)
    checked = 0
    rng = random.Random(3)
    state = game.new_game(players, seed=3)
    for step in range(16):
        if game.outcome(state) is None and step % 5 == 4:
            seat = min(game.to_act(state))
            choice = game.suggest(state, seat, random.Random(7), strength="strong", clock=SteppingClock())
            assert choice in game.legal_actions(state, seat)
            hint = game.hint(state, seat, random.Random(9), clock=SteppingClock())
            for owner in [None] + [s for s in range(players) if s != seat]:
                variant = game.hidden_variant(state, owner, rng)
                again = game.suggest(variant, seat, random.Random(7), strength="strong", clock=SteppingClock())
                assert again == choice
                assert game.hint(variant, seat, random.Random(9), clock=SteppingClock()) == hint
                checked += 1
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert checked >= 3


@pytest.mark.parametrize("name", SUGGEST_GAMES)
def test_the_strong_player_keeps_to_its_time_budget(name):
    game = REGISTRY[name]
    state = game.new_game(max(3, game.min_players), seed=1)
    seat = min(game.to_act(state))
    clock = SteppingClock(step=0.05)
    from games.search import BUDGET, TURN_DECISION

    # A turn's big choice may take TURN_DECISION budgets (an engine's search_time), never more.
    factor = game.search_time(state) if game.features.search.timing else 1.0
    assert factor in (1.0, TURN_DECISION)
    game.suggest(state, seat, random.Random(1), strength="strong", clock=clock)
    # Each reading advances 0.05 s; it stops within one playout round of the budget.
    assert clock.now <= factor * BUDGET + 0.05 * (1 + 2 * 8)
