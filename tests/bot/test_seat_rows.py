"""Who sits at a seat: a computer player or a person, decided in one place (`is_computer_user`)."""
from __future__ import annotations

import pytest

from bot.days.computer import is_computer
from bot.presenter import mention
from bot.storage.rows import SeatRow, is_computer_user


@pytest.mark.parametrize("user_id", [-1, -2, -6])
def test_a_negative_user_id_is_a_computer_seat_added_in_the_lobby(user_id: int) -> None:
    assert is_computer_user(user_id)
    assert SeatRow(user_id, f"Computer {-user_id}", 0, None).computer


@pytest.mark.parametrize("user_id", [1, 42, 1_234_567_890_123_456_789])
def test_a_discord_user_id_is_a_person(user_id: int) -> None:
    assert not is_computer_user(user_id)
    assert not SeatRow(user_id, "Ada", 0, True).computer


def test_the_computer_may_keep_a_persons_seat_without_making_it_a_computer_seat() -> None:
    kept = {"computer": "timeout"}
    assert is_computer(42, kept)
    assert not SeatRow(42, "Ada", 0, True).computer
    assert is_computer(-1, None) and not is_computer(42, None)


def test_a_computer_seat_is_never_pinged() -> None:
    assert mention(-1) == "🤖"
    assert mention(42) == "<@42>"
