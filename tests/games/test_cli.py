"""The command-line runner plays whole games, the same way for the same seed."""
from __future__ import annotations

import io

import pytest

from games import REGISTRY
from games.__main__ import main, play


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_same_seed_same_game(name, tmp_path):
    game = REGISTRY[name]
    first, second, other = io.StringIO(), io.StringIO(), io.StringIO()
    assert play(name, game.min_players, 11, out=first) == 0
    assert play(name, game.min_players, 11, out=second) == 0
    assert play(name, game.min_players, 12, out=other) == 0
    assert first.getvalue() == second.getvalue()
    assert first.getvalue() != other.getvalue()
    assert "Game over" in first.getvalue()


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_render_writes_a_board_per_move(name, tmp_path, capsys):
    from renderers.__main__ import main as draw

    game = REGISTRY[name]
    assert draw(["play", name, "--players", str(game.min_players), "--seed", "5", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    moves = sum(1 for line in out.splitlines() if line[:5].strip().rstrip(".").isdigit())
    images = sorted(tmp_path.glob("*.png"))
    assert len(images) == moves + 1  # the opening board plus one per move
    assert images[-1].read_bytes().startswith(b"\x89PNG")


def test_player_count_is_checked(capsys):
    with pytest.raises(SystemExit):
        main(["play", "knatsch", "--players", "9"])
    assert "players" in capsys.readouterr().err


def test_computer_seats_and_german_text():
    import io

    from games.__main__ import play

    def run() -> str:
        out = io.StringIO()
        assert play("macrobber", 3, 2, out, computer=True, lang="de") == 0
        return out.getvalue()

    text = run()
    assert "Spiel vorbei nach" in text and "{" not in text
    assert "Runde" in text or "Punkte" in text  # German words from the catalogue
    assert run() == text  # the same seed plays the same game


@pytest.mark.parametrize("name", ["knatsch", "raubritter"])
def test_computer_players_in_german_and_english(name):
    """`--computer --lang de` plays the computer players and prints the catalogues' German."""
    german, english, again = io.StringIO(), io.StringIO(), io.StringIO()
    assert play(name, 2, 3, out=german, computer=True, lang="de") == 0
    assert play(name, 2, 3, out=english, computer=True, lang="en") == 0
    assert play(name, 2, 3, out=again, computer=True, lang="de") == 0
    assert german.getvalue() == again.getvalue()
    assert "Spiel vorbei nach" in german.getvalue() and "Game over after" in english.getvalue()
    assert "Spieler, Startwert 3" in german.getvalue()
    for text in (german.getvalue(), english.getvalue()):
        assert "{" not in text and "knatsch." not in text and "raubritter." not in text
    # The same moves, in other words.
    moves = [line.rsplit("[", 1)[-1] for line in german.getvalue().splitlines() if line.endswith("]")]
    assert moves == [line.rsplit("[", 1)[-1] for line in english.getvalue().splitlines() if line.endswith("]")]
    words = {"knatsch": ("wählt", "Würfel"), "raubritter": ("legt", "Ritter")}[name]
    assert all(word in german.getvalue() for word in words)


def test_main_takes_computer_language_and_options(capsys):
    assert main(["play", "raubritter", "--computer", "--lang", "de", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Raub Ritter: 2 Spieler") and "Spiel vorbei" in out
    with pytest.raises(SystemExit):
        main(["play", "knatsch", "--option", "nonsense"])
