"""A turn message whose players decide in their DMs says what they must do there (Mac Robber's
discards, raid cards and exchanges), in both languages; a decision taken with the buttons under
the board keeps "your move"."""
from __future__ import annotations

import random

import pytest

from bot import presenter
from bot.storage.rows import GameRow, SeatRow
from games import REGISTRY

MACROBBER, KNATSCH = REGISTRY["macrobber"], REGISTRY["knatsch"]
SEATS = 4


def _table(game: str) -> GameRow:
    players = tuple(SeatRow(user_id=100 + seat, name=f"P{seat}", seat=seat, dm_ok=True) for seat in range(SEATS))
    return GameRow(id=1, guild_id=1, channel_id=2, game=game, status="active", host_id=100, options={}, seed=3,
                   state=None, version=0, result=None, lobby_message_id=None, board_message_id=None, created_at=0,
                   updated_at=0, players=players)


def _macrobber_states():
    """A discard owed, a raid card to play, an exchange and a public choice, met in real games."""
    found = {}
    for seed in range(1, 30):
        rng = random.Random(seed)
        state = MACROBBER.new_game(SEATS, seed=seed)
        for _ in range(400):
            if MACROBBER.outcome(state) is not None:
                break
            to_act = sorted(MACROBBER.to_act(state))
            if any(state.owed[seat] for seat in to_act):
                found.setdefault("discard", state)
            else:
                found.setdefault(state.phase, state)
            seat = to_act[0]
            state, _ = MACROBBER.apply(state, seat, MACROBBER.suggest(state, seat, rng))
        if {"discard", "combat", "exchange", "act"} <= set(found):
            return found
    raise AssertionError(f"states not met: {sorted(found)}")


STATES = _macrobber_states()
TABLE = _table("macrobber")


def _line(state, lang):
    to_act = sorted(MACROBBER.to_act(state))
    return presenter.next_move_line(TABLE, to_act, lang, presenter.dm_tasks(MACROBBER, state, to_act, lang))


@pytest.mark.parametrize("lang, words", [("en", ("discard", "card", "in your DM", "My hand")),
                                         ("de", ("abwerfen", "Karte", "DM", "Meine Hand"))])
def test_players_who_owe_cards_are_told_to_discard_how_many_in_their_dm(lang, words):
    state = STATES["discard"]
    line = _line(state, lang)
    owing = [seat for seat in sorted(MACROBBER.to_act(state)) if state.owed[seat]]
    assert all(f"<@{100 + seat}>" in line for seat in owing)
    assert all(word in line for word in words), line
    assert all(f" {state.owed[seat]} " in line for seat in owing), line  # how many, in figures
    assert "your move" not in line and "dran" not in line


@pytest.mark.parametrize("lang, phase, words", [
    ("en", "combat", ("play a raid card", "in your DM")), ("de", "combat", ("eine Überfallkarte spielen", "DM")),
    ("en", "exchange", ("exchange cards", "in your DM")), ("de", "exchange", ("Karten tauschen", "DM"))])
def test_a_raid_card_or_an_exchange_is_named_with_where_to_choose_it(lang, phase, words):
    line = _line(STATES[phase], lang)
    assert line.count("➡️") == 1 and all(word in line for word in words), line


@pytest.mark.parametrize("lang, said", [("en", "your move"), ("de", "du bist dran")])
def test_a_choice_made_with_the_boards_buttons_stays_your_move(lang, said):
    state = STATES["act"]
    assert presenter.dm_tasks(MACROBBER, state, MACROBBER.to_act(state), lang) == {}
    assert said in _line(state, lang)


def test_seats_with_different_tasks_each_get_their_own_line():
    line = presenter.next_move_line(TABLE, [0, 1, 2], "en", {0: "discard 2 cards", 2: "discard 1 card"})
    assert line.splitlines() == ["➡️ <@100> — discard 2 cards in your DM or with **My hand**.",
                                 "➡️ <@101> — your move.",
                                 "➡️ <@102> — discard 1 card in your DM or with **My hand**."]


def test_a_game_without_dm_task_words_is_not_asked_for_its_view(monkeypatch):
    state = KNATSCH.new_game(3, seed=1)
    monkeypatch.setattr(KNATSCH, "view", lambda *args: pytest.fail("view asked for"))
    assert presenter.dm_tasks(KNATSCH, state, KNATSCH.to_act(state)) == {}

