"""Die Glücksritter: every component, from the rule text and our chosen values.

Values marked *rules* come from the rule text, *public* from public sources about the game,
*chosen* are ours (the rule text does not list them) and easy to change.
"""
from __future__ import annotations

MIN_PLAYERS, MAX_PLAYERS = 3, 6

# Coins (rules): 100 in all, 60 silver worth 1 Ducat and 40 gold worth 2.
SILVER_COINS, GOLD_COINS = 60, 40
START_SILVER, START_GOLD = 2, 2          # each player's starting purse (rules)
SILVER, GOLD = 0, 1                      # index of a coin kind in a [silver, gold] pair
COIN_VALUE = (1, 2)

# Castle pieces (rules): 24 walls, 24 towers; a castle is 4 walls and 4 towers.
WALLS_IN_GAME, TOWERS_IN_GAME = 24, 24
CASTLE_WALLS, CASTLE_TOWERS = 4, 4
WALL_WORTH, TOWER_WORTH = 4, 5           # barter value while haggling (rules)

# The action cards (rules): six per player, one per field of the board.
FIELDS = (1, 2, 3, 4, 5, 6)
KNIGHT = 4
CARDS_PER_ROUND = 2

# Prices (rules, summary table): (one visitor, two or more visitors).
DOCUMENT_PRICE = (0, 4)
WALL_PRICE = (4, 6)
TOWER_PRICE = (5, 7)
RANSOM = 4                               # Ducats to ransom a knight from the dungeon (rules)

# Royal taxes (rules): 8 or more coins of one kind: half of them back to the sack, the odd one kept.
TAX_THRESHOLD = 8

# The special die (public): four faces show the money sack, two the castle.
SPECIAL_DIE = ("sack", "sack", "sack", "sack", "castle", "castle")

# Ducat cards (chosen): (coins for field 5, coins for field 6); reshuffled when used up.
DUCAT_CARDS = (
    (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (3, 4), (4, 3), (4, 4), (2, 5),
    (5, 2), (3, 5), (5, 3), (4, 5), (5, 4), (5, 5), (6, 3), (3, 6), (6, 6),
)

# Documents (chosen; the rules name only "Gift"): code -> (seal, copies).
#   permit   Building Permit: this round the single price at fields 2 and 3 even when crowded.
#   master   Master Builder: this round up to 3 pieces (not 2) at field 2 and at field 3.
#   grant    Royal Grant: draw 3 coins blind from the sack at once.
#   pardon   Pardon: your Black Knight leaves the dungeon free (not playable this round).
#   taxpriv  Tax Privilege: at field 5 this round the privileged visitors take the coins.
#   tollpriv Toll Privilege: the same for field 6.
#   favour   Monk's Favour: draw 2 documents, keep 1, the other goes under the pile.
#   gift     Gift (yellow): cancels one royal tax on you.
#   veto     Veto (yellow): cancels one red document of another player as it is revealed.
#   alibi    Alibi (yellow): cancels a Black Knight raid on you.
RED, YELLOW = "red", "yellow"
DOCUMENTS = {
    "permit": (RED, 3),
    "master": (RED, 2),
    "grant": (RED, 3),
    "pardon": (RED, 2),
    "taxpriv": (RED, 2),
    "tollpriv": (RED, 2),
    "favour": (RED, 2),
    "gift": (YELLOW, 3),
    "veto": (YELLOW, 3),
    "alibi": (YELLOW, 3),
}
DOCUMENT_ORDER = tuple(DOCUMENTS)
RED_DOCUMENTS = tuple(code for code, (seal, _) in DOCUMENTS.items() if seal == RED)
YELLOW_DOCUMENTS = tuple(code for code, (seal, _) in DOCUMENTS.items() if seal == YELLOW)
ROYAL_GRANT_COINS = 3
MASTER_BUILDER_PIECES = 3
NORMAL_PIECES = 2


def all_documents() -> list[str]:
    """The 25 document cards, in a fixed order (shuffled at set-up)."""
    return [code for code in DOCUMENT_ORDER for _ in range(DOCUMENTS[code][1])]


assert len(all_documents()) == 25
assert len(DUCAT_CARDS) == 18
