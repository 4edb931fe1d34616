"""Every change to a game or a lobby goes through the move pipeline (bot/moves.py): no other
module of bot/ calls the games repository's methods that open a lobby, seat it, start, change or
end a game (bot/storage/games.py)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHANGING = {"create_lobby", "add_player", "change_lobby", "start_game", "record_change", "end_game"}


def changing_calls(path: Path) -> set[str]:
    """The changing methods `path` calls on a games repository (`<...>.games.<method>(...)`)."""
    return {node.func.attr for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in CHANGING
            and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "games"}


def test_only_the_move_pipeline_changes_games_and_lobbies():
    strays = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        name = str(path.relative_to(ROOT))
        if name == "bot/moves.py" or name.startswith("bot/storage/"):
            continue
        strays += [f"{name}: {method}" for method in sorted(changing_calls(path))]
    assert strays == []


def test_the_check_finds_a_lobby_filled_beside_the_pipeline(tmp_path):
    stray = tmp_path / "stray.py"
    stray.write_text("async def fill(storage):\n    await storage.games.add_player(1, 2, 'Bob')\n", encoding="utf-8")
    assert changing_calls(stray) == {"add_player"}
