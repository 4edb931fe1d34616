"""The lines of a Knatsch or Raub Ritter turn message (its account lines and its status) each
take one line of a 390 px phone in both languages, whoever plays: long names (Discord allows 32
characters, in any script) are shortened as the turn message shortens them
(`bot.presenter.named_on_a_line`), as little as the line needs; the words are never cut."""
from __future__ import annotations

import random
from functools import cache
from types import SimpleNamespace

import pytest

from bot.presenter import NAME_LEAST, PHONE_LINE, named_on_a_line, phone_lines, phone_width, status_in_message
from bot.turns import ACCOUNT_MARK
from games.knatsch import GAME as KNATSCH
from games.raubritter import GAME as RAUBRITTER
from i18n import translate
from tests.i18n.test_knatsch_account_lines import roll_line

LONG_NAMES = [
    ["Bartholomew the Unready of Some", "Kunigunde von Hohenzollern-Sig"],
    ["Wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww", "Wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww"],  # one word: cut inside it
    ["Дмитрий Александрович Тимофеев", "Αλέξανδρος Παπαδόπουλος-Ιωάννου"],
]


def table(names: list[str], seats: int) -> SimpleNamespace:
    """What `named_on_a_line` reads of a table: its seats' names."""
    return SimpleNamespace(names=(names * seats)[:seats])


def shown(line: str) -> str:
    return line.replace("**", "")


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("names", LONG_NAMES)
def test_a_roll_with_up_to_three_die_cards_is_one_line_for_the_longest_names(lang, names):
    """Every result the dice make with none to three die cards ("+1, 2, 3"), the largest counts
    among them ("7× 5s", "7× 5er")."""
    from itertools import combinations, combinations_with_replacement

    from games.knatsch.dice import evaluate

    lines = []
    for count in range(4):
        for cards in combinations(range(1, 6), count):
            seen = set()
            for dice in combinations_with_replacement(range(1, 7), 6):
                result = evaluate(dice, cards)
                if result not in seen:
                    seen.add(result)
                    lines.append(named_on_a_line(roll_line(list(dice), list(cards)), table(names, 2), lang,
                                                 ACCOUNT_MARK))
    wrapped = [line for line in lines if phone_lines(ACCOUNT_MARK + line) != 1]
    assert not wrapped, wrapped[:3]
    assert any("+1, 2, 3 →" in line for line in lines) and any("+3, 4, 5 → 7× 5" in line for line in lines)
    names_shown = [shown(line).split(":")[0] for line in lines]
    assert all(name.endswith("…") and len(name) >= NAME_LEAST for name in names_shown), names_shown[:3]


def test_a_name_is_shortened_at_a_word_boundary_and_kept_whole_where_the_line_has_room():
    """The line has room for "Bartholomew t…", not for "Bartholomew the…": the name ends after a
    whole word."""
    names = ["Bartholomew the Unready of Some", "Anna"]
    roll = roll_line([1, 6, 6, 6, 6, 6], [])
    assert shown(named_on_a_line(roll, table(names, 2), "en", ACCOUNT_MARK)) == "Bartholomew…: 1 6 6 6 6 6 → one 1"
    assert phone_lines(ACCOUNT_MARK + translate(roll, "en", ["**Bartholomew t…**"])) == 1
    assert named_on_a_line(roll, table(["Anna", "Bo"], 2), "en", ACCOUNT_MARK) == "**Anna**: 1 6 6 6 6 6 → one 1"


def test_a_name_of_up_to_eight_characters_is_never_shortened():
    """Even where shortening it would make the line fit (seven of a kind with three die cards, in
    German): "Al…" would say less than a line that wraps."""
    for name in ("Alicia", "Kunibert"):
        roll = roll_line([5, 5, 5, 5, 5, 5][:5] + [4], [1, 2, 5])
        line = named_on_a_line(roll, table([name, "Bartholomew the Unready of Some"], 2), "de", ACCOUNT_MARK)
        assert line.startswith(f"**{name}**: ") and "6× 5er + 4" in line, line


def test_a_line_too_long_for_any_name_keeps_the_names_whole():
    """Shortening names there would lose them and still wrap: the line is left as it is (the words
    of a game recorded before its win said the counts)."""
    from games.core import SeatRef, msg

    text = msg("knatsch.event.win_tournaments", player=SeatRef(0))
    assert phone_lines(ACCOUNT_MARK + translate(text, "en", ["Bo"])) > 1
    names = ["Bartholomew the Unready of Some"]
    assert "Bartholomew the Unready of Some" in named_on_a_line(text, table(names, 1), "en", ACCOUNT_MARK)


def played(game, seats: int, seed: int):
    """Every state and public event of a whole game between computer players."""
    rng = random.Random(seed)
    state = game.new_game(seats, seed=seed)
    while game.outcome(state) is None:
        seat = min(game.to_act(state))
        state, events = game.apply(state, seat, game.suggest(state, seat, rng))
        yield state, [event for event in events if event.seat is None]


KNATSCH_RESULT_LINES = {"knatsch.event.rolled", "knatsch.event.rolled_cards", "knatsch.event.leads",
                        "knatsch.event.not_enough", "knatsch.event.toppled", "knatsch.event.tournament_won",
                        "knatsch.event.further"}
"""A roll and what it did for its roller: one line each (the lines naming a card with its dice,
"the Special-card guard (4-4-4+3)", need more)."""
KNATSCH_ROLL_STATUSES = {"knatsch.status.capture", "knatsch.status.defence", "knatsch.status.tournament"}
"""The statuses of a roll for a card, a defence and the tournament's later rolls: the board's
header says them in full (the card with its dice, what to beat), the turn message in a line of its
own (`presenter.status_in_message`)."""
KNATSCH_ONE_LINE_STATUSES = {"knatsch.status.choose", "knatsch.status.further", "knatsch.status.revenge",
                             "knatsch.status.king", "knatsch.status.organiser", *KNATSCH_ROLL_STATUSES}
"""Every status but the game's end (which names the reason it ended)."""


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("seats,seed", [(3, 1), (4, 2), (6, 3)])
def test_knatsch_statuses_and_result_lines_of_whole_games_are_one_line_each(lang, seats, seed):
    seen, wrapped = set(), []
    for names in LONG_NAMES:
        for state, events in played(KNATSCH, seats, seed):
            status = KNATSCH.view(state, None)["status"]
            line = status_in_message(status, table(names, seats), lang)
            seen.add(status["id"])
            if phone_lines(line) != 1 and status["id"] in KNATSCH_ONE_LINE_STATUSES:
                wrapped.append(line)
            for event in events:
                if event.text.id in KNATSCH_RESULT_LINES:
                    seen.add(event.text.id)
                    line = named_on_a_line(event.text, table(names, seats), lang, ACCOUNT_MARK)
                    if phone_lines(ACCOUNT_MARK + line) != 1:
                        wrapped.append(line)
    assert not wrapped, wrapped[:5]
    assert {"knatsch.status.choose", "knatsch.status.further", "knatsch.event.rolled", "knatsch.status.capture"} <= seen


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_kings_roll_and_the_tournaments_first_say_their_status_in_one_line(lang):
    """Whole games seldom stop at them (the computer rolls at once): each status at its longest."""
    from games.core import SeatRef, msg

    for rolls in (msg("knatsch.progress.start", count=4), msg("knatsch.progress.roll", used=3, allowed=4)):
        for status in (msg("knatsch.status.king", player=SeatRef(0), progress=rolls),
                       msg("knatsch.status.organiser", player=SeatRef(0), progress=rolls)):
            for names in [USUAL_NAMES, *LONG_NAMES]:
                line = named_on_a_line(status, table(names, 2), lang)
                assert phone_lines(line) == 1, line
                assert names is not USUAL_NAMES or len(shown(line)) <= USUAL_LINE, line


USUAL_NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"]
USUAL_LINE = 40
"""Characters of words a 390 px phone shows on a line for sure: German lines of 40-42 were seen to
wrap (`bot.presenter.phone_width` measures them: 304-315 px where 302 fit)."""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_with_usual_names_the_knatsch_statuses_and_result_lines_keep_well_inside_a_line(lang):
    long_ones = set()
    for state, events in played(KNATSCH, 6, 3):
        status = KNATSCH.view(state, None)["status"]
        line = shown(status_in_message(status, table(USUAL_NAMES, 6), lang))
        if status["id"] in KNATSCH_ONE_LINE_STATUSES and len(line) > USUAL_LINE:
            long_ones.add(line)
        for event in events:
            line = ACCOUNT_MARK + translate(event.text, lang, USUAL_NAMES)
            if event.text.id in KNATSCH_RESULT_LINES - {"knatsch.event.rolled_cards"} and len(line) > USUAL_LINE:
                long_ones.add(line)
    assert not long_ones, sorted(long_ones)[:5]


KNATSCH_GAMES = ((2, 4), (3, 1), (4, 2), (5, 5), (6, 3), (3, 6))
"""Six whole games of two to six players (seats, seed)."""
KNATSCH_LINES_THAT_WRAPPED = {"knatsch.event.under", "knatsch.event.attack", "knatsch.event.beaten",
                              "knatsch.event.target_stack", "knatsch.event.fail_owned",
                              "knatsch.event.defence_failed", "knatsch.event.take_stack",
                              "knatsch.event.fail_stack", "knatsch.event.defended"}
"""The account lines that took two lines of a phone most often in these games while they named
cards with their dice and said the roll again (issue 36)."""


@cache
def knatsch_account(seats: int, seed: int) -> tuple:
    """Every public event of a whole game, in order."""
    return tuple(event.text for _, events in played(KNATSCH, seats, seed) for event in events)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_knatsch_event_line_of_whole_games_is_one_line(lang):
    """With usual names within `USUAL_LINE` characters (a roll with die cards, "Bob: 6 2 2 6 6 1
    +2, 3, 5 → three 2s + 5", within a phone's line: its own test), with the longest names one
    line as the turn message shortens them."""
    seen, wrapped, long_ones = set(), set(), set()
    for seats, seed in KNATSCH_GAMES:
        for names in [USUAL_NAMES, *LONG_NAMES]:
            for text in knatsch_account(seats, seed):
                seen.add(text.id)
                line = named_on_a_line(text, table(names, seats), lang, ACCOUNT_MARK)
                if phone_lines(ACCOUNT_MARK + line) != 1:
                    wrapped.add(shown(line))
                if names is USUAL_NAMES and text.id != "knatsch.event.rolled_cards" \
                        and len(ACCOUNT_MARK + shown(line)) > USUAL_LINE:
                    long_ones.add(shown(line))
    assert not wrapped, sorted(wrapped)[:5]
    assert not long_ones, sorted(long_ones)[:5]
    assert KNATSCH_LINES_THAT_WRAPPED <= seen, KNATSCH_LINES_THAT_WRAPPED - seen


UNCHECKED = ("rolled", "rolled_cards", "win_tournaments")
"""A roll's lines (their own tests above) and the words of games recorded before a win by
tournaments named its counts."""


def knatsch_event_lines(lang: str) -> list[str]:
    """Every event line with usual names ("Alice" acting, "Carol" the other), each with every card
    it may name and the longest roll result: the lines of an end, a challenged king or a card
    taken from a player that few games show too."""
    from games.core import SeatRef, msg
    from games.knatsch.cards import CARDS, CASTLE, SPECIAL, SPECIAL_GUARD, card_label, card_name
    from games.knatsch.dice import result_msg
    from i18n import entries

    castles = [card for card in CARDS.values() if card.kind == CASTLE]
    specials = [card for card in CARDS.values() if card.kind == SPECIAL]
    guard = next(card for card in specials if card.ability == SPECIAL_GUARD)
    for_castles = {"attack", "attack_catapult", "beaten", "defended", "defence_failed", "revenge",
                   "target_betrayal"}
    for_specials = {"target_owned", "take_owned"}
    lines = []
    for message_id in entries(lang, "knatsch"):
        kind = message_id.removeprefix("knatsch.event.")
        if not message_id.startswith("knatsch.event.") or "." in kind or kind in UNCHECKED:
            continue
        cards = castles if kind in for_castles else specials if kind in for_specials else list(CARDS.values())
        for card in cards:
            params = dict(player=SeatRef(0), owner=SeatRef(2), attacker=SeatRef(2), leader=SeatRef(2),
                          card=card_label(card), top=card_label(card), stack=2, count=4,
                          result=result_msg((3, 4, 2)), combination="4-4-4-4+1",
                          guard=card_name(guard), cards=[card_label(castles[0]), card_label(castles[1])],
                          castles=msg("knatsch.score", count=3))
            lines.append(translate(msg(message_id, **params), lang, USUAL_NAMES, strict=True))
    return lines


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_knatsch_event_line_is_one_line_with_usual_names_whatever_card_it_names(lang):
    lines = knatsch_event_lines(lang)
    wrapped = sorted({line for line in lines if phone_lines(ACCOUNT_MARK + line) != 1})
    assert len(lines) > 200 and not wrapped, wrapped[:5]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("seats", [2, 4])
def test_raub_ritter_statuses_of_whole_games_are_one_line_each(lang, seats):
    seen, wrapped = set(), []
    for names in LONG_NAMES:
        for state, _ in played(RAUBRITTER, seats, seats + 5):
            status = RAUBRITTER.view(state, None)["status"]
            seen.add(status["id"])
            line = named_on_a_line(status, table(names, seats), lang)
            if phone_lines(line) != 1 and status["id"] not in ("raubritter.status.over", "raubritter.status.keep"):
                wrapped.append(line)
    assert not wrapped, wrapped[:5]
    assert {"raubritter.status.lay", "raubritter.status.lay_more", "raubritter.status.knights"} <= seen


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_raub_ritter_turn_message_says_whose_turn_it_is_once(lang):
    """The line a turn's end leaves ("It is Bob's turn.") and the status that follows it begin
    alike, so the turn message shows the status in its place rather than both."""
    from bot.turns import turn_text

    names = table(["Anna", "Bob", "Carol"], 3)
    for state, events in played(RAUBRITTER, 3, 4):
        turn = [event for event in events if event.text.id == "raubritter.event.turn"]
        status = RAUBRITTER.view(state, None)["status"]
        if turn and status["id"] == "raubritter.status.lay":
            account = [named_on_a_line(turn[-1].text, names, lang, ACCOUNT_MARK)]
            text = turn_text(account, named_on_a_line(status, names, lang), "➡️ @Bob")
            assert text.splitlines() == [ACCOUNT_MARK + named_on_a_line(status, names, lang), "➡️ @Bob"], text
            return
    raise AssertionError("no turn began with a tile to lay")


MENTION_PADDING = 4
"""Px a mention's pill adds around the name it shows ("@Carol"), by the phone pictures."""


CALLING_GAMES = {"raubritter": ((2, 4), (3, 1), (4, 2)), "carcassonne": ((2, 4), (3, 1), (4, 2)),
                 "knatsch": ((2, 4), (4, 1), (6, 2)), "macrobber": ((3, 4), (4, 1), (5, 2)),
                 "gluecksritter": ((3, 4), (5, 2), (6, 1))}
"""Seats and seed of the whole games `test_a_call_to_move_that_says_the_status_is_one_line_with_usual_names`
plays, from the fewest seats a game allows to the most."""
CALLS_OF_WHOLE_GAMES = {"raubritter": 3, "carcassonne": 6, "knatsch": 6, "macrobber": 8, "gluecksritter": 9}
"""Statuses those games say in a call to move (all that they reach)."""
NAMING_NOBODY = {"gluecksritter.status.choose"}
"""Statuses that name no one seat when one is left to act (the secret choice of two action cards,
made in the DMs): the call to move does not say them."""


def seated(name: str, seats: int):
    """A table of `seats` people with usual names (`USUAL_NAMES`), user ids from 100."""
    from bot.storage.rows import GameRow, SeatRow

    players = tuple(SeatRow(user_id=100 + seat, name=USUAL_NAMES[seat], seat=seat, dm_ok=True) for seat in range(seats))
    return GameRow(id=1, guild_id=1, channel_id=2, game=name, status="active", host_id=100, options={}, seed=3,
                   state=None, version=0, result=None, lobby_message_id=None, board_message_id=None, created_at=0,
                   updated_at=0, players=players)


def as_shown(line: str) -> float:
    """How wide a phone shows a line of a table of `seated`: each mention as the name Discord
    shows in it, with its pill's padding."""
    import re

    mentions = re.findall(r"<@(\d+)>", line)
    shown = re.sub(r"<@(\d+)>", lambda match: f"**@{USUAL_NAMES[int(match[1]) - 100]}**", line)
    return phone_width(shown) + MENTION_PADDING * len(mentions)


SEVERAL_ON_A_LINE = 2
"""Players a call to move names on one line of a phone: three mentions and what the status says
of them take more ("➡️ Document: @Alice, @Bob and @Carol.", 327 px where 302 fit), and two."""


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", sorted(CALLING_GAMES))
def test_a_call_to_move_that_says_the_status_is_one_line_with_usual_names(lang, name):
    """Every game, whole games of the fewest seats it allows to the most: where the call to move
    says the status ("➡️ @Carol (green) may lay tile 2 of 3.", "➡️ Document: @Alice and
    @Carol."), it takes one line of a phone (two where it names more than `SEVERAL_ON_A_LINE`
    players), the mention as wide as the name Discord shows in it,
    and so does the line that says where players who decide in their DMs act ("In your DM or with
    **My hand**."); the presenter measures them so too (Raub Ritter's secret choice of tiles to
    keep, which names whoever is still choosing, excepted: it is longer than a line whoever plays;
    and the statuses `NAMING_NOBODY`, which no call says)."""
    from bot.presenter import PHONE_TEXT, dm_tasks, mention_names, next_move_line, said_in_call
    from games import REGISTRY

    game, calls, wrapped = REGISTRY[name], set(), set()
    for seats, seed in CALLING_GAMES[name]:
        table = seated(name, seats)
        rng, state = random.Random(seed), game.new_game(seats, seed=seed)
        while game.outcome(state) is None:
            to_act = sorted(game.to_act(state))
            status = game.view(state, None)["status"]
            if status["id"] not in ("raubritter.status.keep", *NAMING_NOBODY):
                footer = next_move_line(table, to_act, lang, dm_tasks(game, state, to_act, lang), status)
                calls.add(status["id"])
                if not said_in_call(status_in_message(status, table, lang), footer):
                    wrapped.add((status["id"], footer))
                for line in footer.splitlines():
                    fits = as_shown(line) <= PHONE_TEXT
                    assert (phone_lines(line, mention_names(table)) == 1) == fits, line
                    if not fits and (len(to_act) <= SEVERAL_ON_A_LINE or phone_lines(line, mention_names(table)) > 2):
                        wrapped.add((status["id"], line))
            seat = to_act[0]
            state, _ = game.apply(state, seat, game.suggest(state, seat, rng))
    assert not wrapped, sorted(wrapped)[:5]
    assert len(calls) >= CALLS_OF_WHOLE_GAMES[name], calls


def test_a_mention_is_measured_as_the_name_it_shows_where_the_table_is_known():
    """"<@102>" shows "@Carol" in a pill: so wide where the presenter knows the table, as a long
    name where it does not (a line that fits with Carol may wrap so)."""
    from bot.presenter import mention_names

    table = seated("macrobber", 4)
    line = "➡️ <@102> and <@103> must discard."
    assert phone_width(line, mention_names(table)) == pytest.approx(as_shown(line))
    assert phone_width(line) > as_shown(line) + 40
    assert phone_lines(line, mention_names(table)) == 1 < phone_lines(line)
    assert phone_lines("<@999> Carol", mention_names(table)) == phone_lines("<@999> Carol")  # not at the table


def test_a_call_gives_a_mention_the_possessive_of_the_name_it_shows():
    """German writes "Alice' Barde", "Bobs Barde": the call says "@Alice' Barde" as the status
    says it ("@Alices Barde" did not match the status, which was said again above it)."""
    from bot.presenter import next_move_line, said_in_call
    from games.core import SeatRef, msg

    table = seated("macrobber", 4)
    for seat, owned in ((0, "<@100>' Barde"), (1, "<@101>s Barde")):
        bard = msg("macrobber.status.bard", player=SeatRef(seat), victim=SeatRef(2))
        call = next_move_line(table, [seat], "de", {}, bard)
        assert call.startswith(f"➡️ {owned} nimmt") and said_in_call(status_in_message(bard, table, "de"), call)
    bard = msg("macrobber.status.bard", player=SeatRef(0), victim=SeatRef(2))
    assert next_move_line(table, [0], "en", {}, bard).startswith("➡️ <@100>'s bard takes")


MENU_SUMMARY = 31
"""Characters of a menu's summary a 390 px phone shows uncut ("Keine Ritter … 4 Ritter, alle
bleib…" was cut after 33)."""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_menu_of_knights_staying_on_their_castle_says_what_it_holds_uncut(lang):
    """Placing no knights up to all of them on the castle: the menu's summary (its first and last
    labels) reads whole on a phone."""
    from bot.components import Choice, menu_placeholder
    from games.core import Action
    from tests.games.test_raubritter_rules import act, build

    state = build(2, {"F6": (1, "P", [])}, hands={0: ["Pc", "P"]})
    state, _ = act(state, 0, "lay Pc E6")
    staying = [action for action in RAUBRITTER.legal_actions(state, 0) if action.args[0] == "-"]
    labels = [translate(RAUBRITTER.describe(state, 0, action), lang) for action in staying]
    summary = menu_placeholder([Choice(action.encode(), label) for action, label in zip(staying, labels)])
    assert len(summary) <= MENU_SUMMARY and summary.endswith(labels[-1].split(" ", 1)[1]), summary
    assert Action.parse("knights - 4") in staying


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_roll_for_any_card_says_in_one_line_who_rolls_for_what_while_the_board_says_it_in_full(lang):
    """Every card a roll or a defence is for, the longest names too: the message names the card
    without its dice; the board's header (the view's status) keeps the dice and what to beat."""
    from games.core import SeatRef, msg
    from games.knatsch.cards import CARDS, card_label
    from games.knatsch.views import KING_LABEL

    labels = [KING_LABEL, *(card_label(card) for card in CARDS.values() if card.combination is not None)]
    to_beat = msg("knatsch.result.nothing")
    rolls = msg("knatsch.progress.roll", used=2, allowed=3)
    for label in labels:
        statuses = [msg("knatsch.status.capture", player=SeatRef(0), card=label, progress=rolls, target=to_beat),
                    msg("knatsch.status.defence", player=SeatRef(0), card=label, attacker=SeatRef(1),
                        result=to_beat, progress=rolls)]
        for status in statuses:
            full = translate(status, lang, USUAL_NAMES)
            for names in [USUAL_NAMES, *LONG_NAMES]:
                line = status_in_message(status, table(names, 2), lang)
                assert phone_lines(line) == 1 and "(" not in line and "{" not in line, line
                assert names is not USUAL_NAMES or phone_width(line) <= PHONE_LINE - phone_width("xx"), line
            said = shown(status_in_message(status, table(USUAL_NAMES, 2), lang))
            assert said.rstrip(".").split(" ", 2)[-1] in full and len(said) < len(full), (said, full)
    tournament = msg("knatsch.status.tournament", player=SeatRef(0), leader=SeatRef(1), result=to_beat,
                     progress=rolls)
    for names in [USUAL_NAMES, *LONG_NAMES]:
        line = status_in_message(tournament, table(names, 2), lang)
        assert phone_lines(line) == 1 and names[1 % len(names)].split()[0][:3] in shown(line), line


def test_a_status_without_a_form_of_its_own_is_said_in_the_message_as_on_the_board():
    from games.core import SeatRef, msg

    status, names = msg("knatsch.status.choose", player=SeatRef(0)), table(USUAL_NAMES, 2)
    said = status_in_message(status, names, "en")
    assert said == named_on_a_line(status, names, "en") == "**Alice** to choose a card to roll for."


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_only_move_note_costs_a_roll_line_no_line_of_a_phone(lang):
    """After a short line the whole note; where it would make the line wrap, its mark alone; where
    even the mark would, nothing."""
    from bot.turns import noted
    from i18n import t

    note = t(lang, "bot.days.forced_move")
    assert note.startswith("(⚡ ") and note.endswith(")")
    short = "**Bo** lays a tile on C4."
    assert noted(short, note) == f"{short} {note}"
    for names in [USUAL_NAMES, *LONG_NAMES]:
        for dice, cards in (([5, 1, 1, 1, 5, 6], []), ([5, 5, 5, 5, 5, 4], [1, 2, 5])):
            line = named_on_a_line(roll_line(dice, cards), table(names, 2), lang, ACCOUNT_MARK)
            said = noted(line, note)
            assert phone_lines(ACCOUNT_MARK + said) == phone_lines(ACCOUNT_MARK + line), said
            assert said in (f"{line} {note}", f"{line} ⚡", line), said
    wrapping = named_on_a_line(roll_line([5, 1, 1, 1, 5, 6], []), table(["Carol"], 1), "de", ACCOUNT_MARK)
    assert noted(wrapping, t("de", "bot.days.forced_move")) == f"{wrapping} ⚡"
    full = filling(ACCOUNT_MARK)
    assert phone_lines(ACCOUNT_MARK + full + "x") > 1 and noted(full, note) == full


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_knatsch_rules_say_what_the_mark_of_a_roll_made_at_once_means(lang):
    """The roll lines the mark stands after are too long for the whole note: `/game rules` says it."""
    assert "⚡" in translate(KNATSCH.rules_summary, lang)


BUTTON_TEXT = 41
"""Characters of a label a button as wide as the message shows on one line of a 390 px phone
("Roll for the Stack (2-2-2+2) from stack 1" was seen to fit, "Aufhören mit drei 1er + 5:
übernimmt die Führung" to wrap after 40)."""
LONG_NAMED = ("castle_guard", "special_guard", "champion")
"""The cards of the longest names ("Wächter für Sonderkarten", "Tournament Champion", 19-24
characters): a label naming one of them may take two lines of its button."""


def long_card_names(lang: str) -> set[str]:
    from games.core import msg

    return {translate(msg(f"knatsch.card.{kind}{form}"), lang) for kind in LONG_NAMED for form in ("", ".acc")}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_knatsch_buttons_of_whole_games_take_one_line_each(lang):
    """Every move the channel's board offers as a button (up to `MAX_BUTTONS` of them), with
    usual names: the card and what it takes, the verb, and no more (the board shows the stacks)."""
    from bot.choices import public_choices
    from bot.components import DICE_VERBS, MAX_BUTTONS
    from games.core import Action

    exempt, shown_ones, wrapped = long_card_names(lang), 0, set()
    for seats, seed in ((3, 1), (4, 2), (6, 3)):
        names = USUAL_NAMES[:seats]
        for state, _ in played(KNATSCH, seats, seed):
            choices = [choice for choice in public_choices(KNATSCH, state, seats, names, lang)
                       if Action.parse(choice.action).verb not in DICE_VERBS]  # the dice: toggles
            if len(choices) > MAX_BUTTONS:
                continue  # a menu
            for choice in choices:
                shown_ones += 1
                if len(choice.label) > BUTTON_TEXT and not any(name in choice.label for name in exempt):
                    wrapped.add(choice.label)
    assert shown_ones > 100 and not wrapped, sorted(wrapped)[:5]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_knatsch_recap_line_of_whole_games_is_one_line(lang):
    """The turn recap says each move of the others on one line of a phone, with the longest names
    too: a roll by its result, and where the move did more, what it did without the roll. (The
    move that wins the game is never recapped: no turn follows it.)"""
    from bot.league.recap import MARK, said_on_a_line

    wrapped, moves, without_the_roll = set(), 0, 0
    for seats, seed in KNATSCH_GAMES:
        for names in [USUAL_NAMES, *LONG_NAMES]:
            for state, events in played(KNATSCH, seats, seed):
                if not events or KNATSCH.outcome(state) is not None:
                    continue
                moves += 1
                line = said_on_a_line([event.text for event in events], table(names, seats), lang)
                if phone_lines(MARK + line) != 1:
                    wrapped.add(shown(line))
                without_the_roll += len(events) > 1 and "→" not in line and not any(
                    word in shown(line) for word in ("rolls", "würfelt"))
    assert not wrapped, sorted(wrapped)[:5]
    assert moves > 1000 and without_the_roll > 100, (moves, without_the_roll)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_raub_ritter_recap_line_of_whole_games_is_one_line(lang):
    """Knights spread from a castle: where they went, without each square they stand on (the
    board shows them); the start: who begins, without who chose last; a turn ended by choice:
    who ended it after how many tiles, never only whose turn follows."""
    from bot.league.recap import MARK, said_on_a_line

    wrapped, spread, ended, only_whose_turn = set(), 0, 0, []
    for seats in (2, 3, 4):
        for names in [USUAL_NAMES, *LONG_NAMES]:
            for state, events in played(RAUBRITTER, seats, seats + 5):
                if not events or RAUBRITTER.outcome(state) is not None:
                    continue
                line = said_on_a_line([event.text for event in events], table(names, seats), lang)
                if phone_lines(MARK + line) != 1:
                    wrapped.add(shown(line))
                spread += any(event.text.id == "raubritter.event.knights_move" for event in events)
                if [event.text.id for event in events] == ["raubritter.event.turn"]:
                    only_whose_turn.append(shown(line))
                ended += any(event.text.id == "raubritter.event.ends" for event in events) and any(
                    words in shown(line) for words in ("ends the turn after", "hört nach"))
    assert not wrapped, sorted(wrapped)[:5]
    assert spread > 20 and ended > 5 and not only_whose_turn, (spread, ended, only_whose_turn[:3])


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", ["macrobber", "gluecksritter", "carcassonne"])
def test_the_statuses_of_whole_games_take_one_line_of_the_turn_message(lang, name):
    """Mac Robber, Die Glücksritter and Carcassonne, two to four usual players: the line the turn
    message says a status in (its `.line` form where the full one is longer than a phone's line:
    the board's header says it in full) takes one line of a phone."""
    from games import REGISTRY

    game, seen, wrapped = REGISTRY[name], set(), set()
    for seats, seed in ((2, 4), (3, 1), (4, 2)):
        if not game.min_players <= seats <= game.max_players:
            continue
        rng = random.Random(seed)
        state = game.new_game(seats, seed=seed)
        while game.outcome(state) is None:
            status = game.view(state, None)["status"]
            seen.add(status["id"])
            line = status_in_message(status, table(USUAL_NAMES, seats), lang)
            if phone_lines(line) != 1:
                wrapped.add(shown(line))
            seat = min(game.to_act(state))
            state, _ = game.apply(state, seat, game.suggest(state, seat, rng))
    assert not wrapped, sorted(wrapped)[:5]
    assert len(seen) >= 4, seen


def test_bold_names_count_wider_than_regular_words():
    """A phone draws bold text wider (Discord's font at weight 700): a line that just fits when
    its long name is regular wraps when the name is bold; a short bold name adds less than a
    letter."""
    from bot.presenter import phone_width

    name = "Kunigunde von Hohenzollern"
    rest = filling(f"{name} ")
    assert phone_lines(f"{name} {rest}") == 1 and phone_lines(f"**{name}** {rest}") == 2
    assert phone_width(f"**{name}**") > phone_width(name) * 1.05
    short = filling("Bo ")
    assert phone_lines(f"**Bo** {short}") == 1 and phone_width(f"**Bo** {short}") - phone_width(f"Bo {short}") < 1


def filling(before: str, letter: str = "x") -> str:
    """The most `letter`s that fit a phone's line after `before`."""
    from bot.presenter import phone_width

    room = PHONE_LINE - (phone_width(before + letter) - phone_width(letter))  # a space at the end hangs
    return letter * int(room // phone_width(letter))


SHORTENED_EVENTS = {
    "gluecksritter": {"collect", "round", "free_document", "collect_nothing", "ransom", "privilege_shut_out",
                      "raid_money", "rob", "tax", "grant", "paid", "accepted", "haggle_die", "raid_castle",
                      "change", "document", "alibi", "pardon"},
    "carcassonne": {"robber_placed", "robber_moved", "robbed", "robber_along", "robber_end"}}
"""The account lines of Die Glücksritter and Carcassonne that took two lines of a phone in whole
games (issue 36): each has a `.line` form, its gist, that the turn message says instead."""


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name,games", [("gluecksritter", ((5, 1), (5, 2), (3, 3))), ("carcassonne", ((3, 1), (3, 2)))])
def test_the_account_lines_with_a_short_form_are_one_line_in_whole_games(lang, name, games):
    """Die Glücksritter's round ("Round 10: 3 coins to field 5, 2 to 6.") and what players collect,
    Carcassonne's robbers: one line as the turn message says them, with the longest names too (the
    full text where it fits, else its gist); each gist with usual names within `USUAL_LINE`
    characters. The full text stays for the log."""
    from bot.presenter import account_line
    from games import REGISTRY
    from games.core import Msg

    game, seen, wrapped, long_ones = REGISTRY[name], set(), set(), set()
    for seats, seed in games:
        for names in [USUAL_NAMES, *LONG_NAMES]:
            for _, events in played(game, seats, seed):
                for event in events:
                    kind = event.text.id.removeprefix(f"{name}.event.")
                    if kind not in SHORTENED_EVENTS[name]:
                        continue
                    seen.add(kind)
                    line = account_line(event.text, table(names, seats), lang, ACCOUNT_MARK)
                    if phone_lines(ACCOUNT_MARK + line) != 1:
                        wrapped.add(shown(line))
                    gist = translate(Msg(f"{event.text.id}.line", event.text.params), lang, names)
                    if names is USUAL_NAMES and len(ACCOUNT_MARK + gist) > USUAL_LINE:
                        long_ones.add(gist)
                    assert "{" not in line and shown(line).split()[0] not in ("…", "")
    assert not wrapped and not long_ones, (sorted(wrapped)[:5], sorted(long_ones)[:5])
    assert len(seen) >= {"gluecksritter": 8, "carcassonne": 3}[name], seen


GAME_END_LINES = {"raubritter.event.over", "carcassonne.event.final", "gluecksritter.outcome.castle"}
"""Lines of a game's end, said once in its final message with the results: they may take two."""


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", ["knatsch", "macrobber", "gluecksritter", "raubritter", "carcassonne"])
def test_every_account_line_of_whole_games_is_one_line_with_usual_names(lang, name):
    """Whatever happens in a turn, the turn message's account says each event in one line of a
    phone with usual names: in full where it fits, else in its `.line` form ("Carol: Wegelagerer
    auf N15.", "Alice leads 5 knights east from D9."); the board and `/game log` keep the rest."""
    from bot.presenter import account_line
    from games import REGISTRY

    game, kinds, wrapped = REGISTRY[name], set(), {}
    seatings = {"raubritter": ((2, 4), (3, 4), (4, 1)), "carcassonne": ((3, 4), (4, 1), (5, 2))}
    for seats, seed in seatings.get(name, ((3, 4), (4, 1), (5, 2))):
        for _, events in played(game, seats, seed):
            for event in events:
                kinds.add(event.text.id)
                line = account_line(event.text, table(USUAL_NAMES, seats), lang, ACCOUNT_MARK)
                if event.text.id not in GAME_END_LINES and phone_lines(ACCOUNT_MARK + line) != 1:
                    wrapped[event.text.id] = shown(line)
    assert not wrapped, sorted(wrapped.items())[:5]
    assert len(kinds) >= 8, kinds


@pytest.mark.parametrize("lang", ["en", "de"])
def test_an_account_line_that_fits_keeps_its_full_words(lang):
    """The short form is for lines that would wrap: Kunibert's collecting is said in its gist, Bo's
    finding nothing in full where it fits."""
    from bot.presenter import account_line
    from games.core import SeatRef, msg

    text = msg("gluecksritter.event.collect", player=SeatRef(0), silver=10, gold=10, field=6)
    full = translate(text, lang, ["Kunibert"])
    assert phone_lines(ACCOUNT_MARK + "**Kunibert**" + full.removeprefix("Kunibert")) > 1
    short = shown(account_line(text, table(["Kunibert"], 1), lang, ACCOUNT_MARK))
    assert short == {"en": "Kunibert: 10 silver, 10 gold from field 6.",
                     "de": "Kunibert: 10 Silber, 10 Gold von Feld 6."}[lang]
    nothing = msg("gluecksritter.event.collect_nothing", player=SeatRef(0), field=5)
    assert shown(account_line(nothing, table(["Bo"], 1), lang, ACCOUNT_MARK)) == translate(nothing, lang, ["Bo"])


@pytest.mark.parametrize("lang", ["en", "de"])
def test_die_gluecksritter_recap_leaves_out_who_bought_nothing_and_the_revealed_cards(lang):
    """Whole games of five: "Bob buys no wall." is a detail, left out where the move's line has no
    room (it made a line of five such sentences cut in a name: "… Carol buys no wall. Erin…"); the
    revealed action cards are on the board, the recap says that they were revealed."""
    from bot.league.recap import MARK, said_on_a_line
    from games.gluecksritter import GAME as GLUECKSRITTER

    details = {f"gluecksritter.event.nothing.{number}" for number in (1, 2, 3)}
    said, wrapped = 0, set()
    for state, events in played(GLUECKSRITTER, 5, 1):
        ids = [event.text.id for event in events]
        own = set(ids) - details - {"gluecksritter.event.chosen", "gluecksritter.event.cards"}
        if GLUECKSRITTER.outcome(state) is not None or own or set(ids) <= details:
            continue  # moves that did more, and moves of nothing but details (said in full)
        line = shown(said_on_a_line([event.text for event in events], table(USUAL_NAMES, 5), lang))
        said += 1
        if phone_lines(MARK + line) != 1 or line.endswith("…"):
            wrapped.add(line)
        assert "gluecksritter.event.cards" not in ids or " · " not in line, line
    assert said > 30 and not wrapped, (said, sorted(wrapped)[:5])


def test_a_german_recap_line_of_a_bought_document_is_short_of_the_width_that_wrapped():
    """"› **Carol** zahlt 4 Dukaten für eine Urkunde." (41 characters) was seen to wrap on a phone:
    the recap says the gist, the log keeps the full words."""
    from bot.league.recap import MARK, said_on_a_line
    from games.core import SeatRef, msg

    bought = msg("gluecksritter.event.bought_document", player=SeatRef(2), price=4)
    line = shown(said_on_a_line([bought.to_json()], table(USUAL_NAMES, 3), "de"))
    assert line == "Carol kauft eine Urkunde (4 Dukaten)." and len(MARK + line) < 41
    assert translate(bought, "de", USUAL_NAMES) == "Carol zahlt 4 Dukaten für eine Urkunde."


def test_the_measure_agrees_with_what_a_phone_was_seen_to_wrap():
    """Lines photographed on a 390 px phone (Discord's font, 16 px): these fit, these wrapped; the
    German lines of 40-42 characters that wrapped measure wider than the phone's text."""
    from bot.presenter import PHONE_TEXT

    fitted = ["Carol setzt einen Wegelagerer auf .ttt.....", "**Carol setzt einen Wegelagerer auf iiit.**",
              "🕑 10 Züge seit deinem letzten, **Dave**:"]
    wrapped = ["Carol setzt einen Wegelagerer auf tttt.....", "**Carol setzt einen Wegelagerer auf i.tt.**",
               "• **Carol** setzt einen Wegelagerer auf N15.", "**Alice** (blau) darf Plättchen 2 von 3 legen.",
               "Secret choice: **Alice**, **Bob**, **Dave** and **Carol**."]
    assert all(phone_width(line) <= PHONE_TEXT for line in fitted), [phone_width(line) for line in fitted]
    assert all(phone_width(line) > PHONE_TEXT for line in wrapped), [phone_width(line) for line in wrapped]
    assert 280 < phone_width(fitted[-1]) < 290  # seen 284 px wide
