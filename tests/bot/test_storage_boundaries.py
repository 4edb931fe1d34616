"""Each feature's SQL names only its own tables and the games' (which every feature builds on):
a feature that needs another's facts asks that feature's repository, never its tables; the
games and the database layer (bot/storage/) name no feature's table at all, and no module outside
a feature's package holds SQL of the bot's tables."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from bot.store import Storage

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"games": "bot/storage", "days": "bot/days", "delivery": "bot/delivery", "league": "bot/league",
            "tournaments": "bot/tournaments"}
# Database tools rather than a feature: SQLite's and PostgreSQL's own catalogue, the bulk copy.
TOOLS = {"bot/postgres.py", "bot/copy_store.py"}
SQL = re.compile(r"(?is)^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP)\b|\b(FROM|JOIN)\s+\w+")
NAMED = re.compile(r"(?i)\b(?:FROM|JOIN|INTO|UPDATE|TABLE|EXISTS|ON)\s+([a-z_]+)")


def owners() -> dict[str, str]:
    """table -> the feature whose migrations create it."""
    owned = {}
    for feature in Storage.features():
        for migration in feature.migrations:
            for table in re.findall(r"(?i)\bCREATE\s+TABLE\s+([a-z_]+)", migration.sql):
                owned[table] = feature.name
    return owned


def sql_strings(path: Path) -> list[str]:
    return [node.value for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.search(node.value)]


def named_tables(path: Path, owned: dict[str, str]) -> set[str]:
    return {name for text in sql_strings(path) for name in NAMED.findall(text) if name in owned}


def test_the_features_own_the_tables_they_create():
    owned = owners()
    assert owned["games"] == "games" and owned["day_seats"] == "days" and owned["seat_dms"] == "delivery"
    assert owned["league_ratings"] == "league" and owned["tournament_tables"] == "tournaments"


def test_no_feature_names_another_features_tables():
    owned = owners()
    strays = []
    for feature, package in PACKAGES.items():
        allowed = {feature} if feature == "games" else {feature, "games"}
        for path in sorted((ROOT / package).rglob("*.py")):
            for table in named_tables(path, owned):
                if owned[table] not in allowed:
                    strays.append(f"{path.relative_to(ROOT)}: {table} ({owned[table]}'s)")
    assert strays == []


def test_no_sql_of_the_bots_tables_outside_the_features():
    owned = owners()
    inside = tuple(package + "/" for package in PACKAGES.values())
    strays = [f"{path.relative_to(ROOT)}: {sorted(tables)}" for path in sorted((ROOT / "bot").rglob("*.py"))
              if not str(path.relative_to(ROOT)).startswith(inside) and str(path.relative_to(ROOT)) not in TOOLS
              and (tables := named_tables(path, owned))]
    assert strays == []


def test_the_check_finds_a_stray_table(tmp_path):
    stray = tmp_path / "stray.py"
    stray.write_text('QUERY = "SELECT since FROM day_seats d JOIN games g ON g.id = d.game_id"\n', encoding="utf-8")
    assert named_tables(stray, owners()) == {"day_seats", "games"}


def test_the_database_layer_and_the_games_import_no_feature():
    for path in sorted((ROOT / "bot/storage").rglob("*.py")):
        imported = {alias.name for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                    if isinstance(node, ast.Import) for alias in node.names}
        imported |= {node.module for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                     if isinstance(node, ast.ImportFrom) and node.module}
        features = {name for name in imported if name.startswith(("bot.days", "bot.delivery", "bot.league",
                                                                   "bot.tournaments", "bot.store"))}
        assert features == set(), path
