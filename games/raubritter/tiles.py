"""Raub Ritter component data, in one place.

Values marked (rules) come from the rule text. Values marked (chosen) or (public) are the
project's choice, taken from public descriptions of the game where the rules are silent: they
are easy to change here and nothing else in the engine hard-codes them.

A tile is written as a short string: its back letter followed by its face code, e.g. "BFv" is a
B tile showing forest + village. Face codes are a terrain capital (P plain, F forest, M mountain,
L lake) plus an optional building (c castle, v village, t town): "Pc", "Fv", "M", "L", "P".
Players name the tiles in their hand by face code alone ("lay Fv D5").
"""
from __future__ import annotations

from games.core import Msg, msg

# Tile back colours in seat order (public); the knights use the same colours.
COLOURS: tuple[str, ...] = ("blue", "yellow", "green", "red")

KNIGHTS_PER_PLAYER = 30  # (rules)

# Each player's 24 tiles by back letter (public; the totals match the rules: lake 1,
# mountain 2, plain 15, forest 6; 8 castles of which 2 in the forest).
TILES_BY_LETTER: dict[str, tuple[str, ...]] = {
    "A": ("Pc", "P", "Pv", "M"),
    "B": ("L", "Pc", "Pv", "Fv", "Pt"),
    "C": ("Ft", "P", "Pc", "Pv", "Fc"),
    "D": ("Pc", "M", "Fv", "Pc", "Pt"),
    "E": ("Pc", "Fv", "Pt", "Fc", "P"),
}

LETTERS = "ABCDE"
START_LETTER = "A"        # (rules) the tiles chosen from before play: castle kept, one more kept
PILE_LETTERS = "BCDE"     # (rules) draw pile from top to bottom, each letter shuffled on its own

# Starting area as (columns, rows) per player count (chosen). Each player donates two A tiles.
START_AREA: dict[int, tuple[int, int]] = {2: (2, 2), 3: (3, 2), 4: (4, 2)}

# The display may span at most this many tiles per row and per column. Two players 7 x 7 and
# four 10 x 10 (rules). Three players: 9 x 9 by default (public sources; 72 tiles fit, as the
# other counts imply: 48 tiles in 7 x 7, 96 in 10 x 10). The printed translation's 8 x 8 stays a
# table option (AREA_CHOICES); there 72 tiles cannot all fit and the game ends when the area is
# full (see the engine's notes).
AREA_LIMIT: dict[int, int] = {2: 7, 3: 9, 4: 10}
AREA_CHOICES: dict[int, tuple[int, ...]] = {2: (7,), 3: (9, 8), 4: (10,)}
# States stored before the area became a table option were all built with these limits.
LEGACY_AREA_LIMIT: dict[int, int] = {2: 7, 3: 8, 4: 10}

MAX_LAYS_PER_TURN = 3        # (rules)
MAX_KNIGHTS_PLACED = 5       # (rules) per castle
MAX_KNIGHTS_PER_TILE = 4     # (rules, with the translator's reading: after the minimum is left)

TERRAINS = {"P": "plain", "F": "forest", "M": "mountain", "L": "lake"}
BUILDINGS = {"c": "castle", "v": "village", "t": "town"}

# Knights a stack must leave on a tile (and so must hold to enter it); a lake cannot be entered.
KNIGHTS_TO_ENTER: dict[str, int] = {"plain": 1, "forest": 2, "mountain": 3}  # (rules)

POINTS: dict[str, int] = {"castle": 1, "village": 2, "town": 3}  # (rules) for the top knight


def terrain_of(face: str) -> str:
    return TERRAINS[face[0]]


def building_of(face: str) -> str | None:
    return BUILDINGS[face[1]] if len(face) > 1 else None


def face_label(face: str) -> str:
    """"forest+village", "plain", "lake": the name players read on buttons and in the log."""
    building = building_of(face)
    return f"{terrain_of(face)}+{building}" if building else terrain_of(face)


def face_msg(face: str) -> Msg:
    """`face_label` as words for the catalogues: "forest+village" / "Wald+Dorf"."""
    terrain = msg(f"raubritter.terrain.{terrain_of(face)}")
    building = building_of(face)
    if building is None:
        return terrain
    return msg("raubritter.face", terrain=terrain, building=msg(f"raubritter.building.{building}"))


def tile_msg(tile: str) -> Msg:
    """A tile with its back letter: "forest+village (B)"."""
    return msg("raubritter.tile", face=face_msg(tile[1:]), letter=tile[0])


def player_tiles() -> list[str]:
    """One player's full set of tiles as letter+face strings, in data order."""
    return [letter + face for letter in LETTERS for face in TILES_BY_LETTER[letter]]
