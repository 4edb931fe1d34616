"""Mac Robber components: cubes, raid cards, estates, start scores (values from the rule text
and the component list; where the rules give only a total, the split was chosen by us)."""
from __future__ import annotations

MIN_PLAYERS = 3
MAX_PLAYERS = 5

COLOURS = ("y", "b", "g", "r")          # yellow warriors, blue pipers, green monks, red cattle
Y, B, G, R = range(4)
CUBES = (29, 27, 20, 10)                 # 86 cubes in all (rules)
SET_ASIDE = {3: (8, 4, 0, 0), 4: (4, 2, 0, 0), 5: (0, 0, 0, 0)}   # out of play (rules)
START_COURTYARD = (4, 2, 0, 0)           # 4 warriors, 2 pipers (rules)
START_ESTATES = 2                        # the two printed starting estates (rules)
MAX_ESTATES = 6                          # 2 + up to 4 more (rules)
START_SCORE = {3: 2, 4: 5, 5: 8}         # (rules)
RED_ZONE = 30                            # from 30 points up (chosen: the lowest estate number)
MIN_WARRIORS = 3                         # never fewer warriors (rules)

DISPLAY_SIZE = 6                         # cubes drawn each turn (rules)
MAX_CUBES_USED = 4                       # at most 4 of the 6 for actions (rules)

# Raid cards: 67 cards valued 1 to 4 (rules); split chosen: 17 x 1, 17 x 2, 17 x 3, 16 x 4.
CARD_COUNTS = {1: 17, 2: 17, 3: 17, 4: 16}
START_HAND = 4
RAID_ROUNDS = 3
RAID_DRAW = 5
RAID_DISCARD = 2
EXCHANGE_MAX = 3

# Estates: 25 tiles numbered 30 to 42 on the back (rules); split chosen: two each of 30-41, one 42.
ESTATE_NUMBERS = tuple(sorted([n for n in range(30, 42) for _ in range(2)] + [42]))

# What an estate may hold, and the cubes that make it (rules).
BUILDINGS = {"cattle": (0, 0, 0, 1), "castle": (0, 2, 0, 0), "monastery": (0, 0, 3, 0)}

# Round scoring (rules).
GREEN_FIRST, GREEN_SECOND, GREEN_TIED = 3, 2, 1
RED_EACH, RED_MOST = 1, 2

# Raid results (rules).
RAID_WIN, RAID_WIN_NOTHING, DEFENDER_WIN, ATTACKER_LOSS, RAID_TIE = 1, 2, 2, 1, 1

CLANS = ("Campbell", "MacDonald", "MacGregor", "MacLeod", "MacKenzie")   # (public)


def all_cards() -> list[int]:
    return [value for value, count in CARD_COUNTS.items() for _ in range(count)]


assert sum(CUBES) == 86 and len(all_cards()) == 67 and len(ESTATE_NUMBERS) == 25
