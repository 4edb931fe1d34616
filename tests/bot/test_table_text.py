"""The table's words and components: the running account of a turn, DMs that stay one per
decision, no 'My hand' without secrets, the rules mentioned, German labels."""
from __future__ import annotations

import random
import re

import pytest

from bot import presenter
from bot.choices import choices_for, has_secrets, toggles_for
from bot.components import board_view
from bot.storage.rows import GameRow, SeatRow
from bot.turns import ACCOUNT_LINES, ACCOUNT_MARK, account_text, announced_as_steps, merge_account, step, turn_text
from games import REGISTRY
from games.core import SeatRef, msg
from i18n import translate
from tests.bot.harness import bot_factory, buttons, seat_order

KNATSCH, RAUBRITTER = REGISTRY["knatsch"], REGISTRY["raubritter"]


def test_a_line_that_extends_the_one_before_replaces_it():
    account = merge_account(["**Ann** rolls for Blue castle from stack 2."],
                            ["**Ann** rolls for Blue castle from stack 2 (up to 3 rolls)."])
    assert account == ["**Ann** rolls for Blue castle from stack 2 (up to 3 rolls)."]
    assert merge_account(["a."], ["a.", "b."]) == ["a.", "b."]  # an exact repeat is dropped


def test_a_status_that_repeats_the_last_line_takes_its_place():
    text = turn_text(["**Ann** rolls for Blue castle from stack 2."],
                     "**Ann** rolls for Blue castle from stack 2 (up to 3 rolls).", "➡️ next")
    assert text.splitlines() == ["• **Ann** rolls for Blue castle from stack 2 (up to 3 rolls).", "➡️ next"]
    other = turn_text(["**Ann** captures it."], "**Bo** to choose a card.", "")
    assert other.splitlines() == ["• **Ann** captures it.", "**Bo** to choose a card."]


NAMED = ("Anna", "Bob", "Carol", "Dave")


def seated(game: str) -> GameRow:
    players = tuple(SeatRow(user_id=100 + seat, name=name, seat=seat, dm_ok=True) for seat, name in enumerate(NAMED))
    return GameRow(id=1, guild_id=1, channel_id=2, game=game, status="active", host_id=100, options={}, seed=3,
                   state=None, version=0, result=None, lobby_message_id=None, board_message_id=None, created_at=0,
                   updated_at=0, players=players)


def turn_messages(name: str, lang: str, *, calls_one_with_buttons: bool = True):
    """Each turn message of a whole game between four people: the seats it calls, the turn's
    running account, the message's text, and the status it says, as the bot says them
    (bot.turns: a move that calls someone new begins a new turn message). With
    `calls_one_with_buttons`, only those that call one seat to move with the board's buttons (no
    decision in a DM)."""
    game, table = REGISTRY[name], seated(name)
    rng, state = random.Random(5), game.new_game(len(NAMED), seed=5)
    account: list = []
    while game.outcome(state) is None:
        to_act = sorted(game.to_act(state))
        tasks = presenter.dm_tasks(game, state, to_act, lang)
        status = presenter.status_in_message(game.view(state, None)["status"], table, lang)
        if not calls_one_with_buttons or (len(to_act) == 1 and not tasks):
            footer = presenter.next_move_line(table, to_act, lang, tasks, game.view(state, None)["status"])
            yield to_act, account, turn_text(account, status, footer), status
        seat = to_act[0]
        state, events = game.apply(state, seat, game.suggest(state, seat, rng))
        lines = [presenter.account_line(event.text, table, lang, ACCOUNT_MARK)
                 for event in events if event.seat is None] or [presenter.made_a_move(table, seat, lang)]
        lines = announced_as_steps(lines, presenter.status_in_message(game.view(state, None)["status"], table, lang))
        same_wait = set(game.to_act(state)) - {seat} <= set(to_act)
        account = merge_account(account if same_wait else [], lines)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_a_turn_message_names_the_player_whose_turn_it_is_once(name, lang):
    """Whole games of every game: a turn message says whose turn it is once, in the call that
    pings the player, with what the status adds ("➡️ @Bob (green) may lay tile 2 of 3."): the
    status does not name them again above it, nor does the account's "It is Bob's turn." (The
    account's other lines say what was done, whoever did it.)"""
    said_in_the_call = 0
    for (seat,), account, text, _ in turn_messages(name, lang):
        told = [line for line in text.splitlines() if line not in account_text(account)]
        names = sum(line.count(f"<@{100 + seat}>") + line.count(f"**{NAMED[seat]}**") for line in told)
        assert names == 1, text
        said_in_the_call += "—" not in text.splitlines()[-1]
    assert said_in_the_call > 10, said_in_the_call


NAMES_MARKED = re.compile(r"\*\*.+?\*\*|<@\d+>")


def unnamed(text: str) -> str:
    """What a text says of whom: each name (in bold, or a mention) as "@"."""
    return NAMES_MARKED.sub("@", text)


CALLS_IN_DMS = {"macrobber": 40}
"""Turn messages of `turn_messages`'s whole games that send the called players to their DMs (at least)."""
CALLING_SEVERAL = {"gluecksritter": 10, "macrobber": 3, "raubritter": 1}
"""Turn messages of those games that call several players at once (at least)."""


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_a_turn_message_names_each_player_it_calls_once_wherever_they_decide(name, lang):
    """Whole games of every game, every turn message, also where the players decide in their DMs
    ("Kampfrunde 1: Dave spielt aus." was said above "➡️ @Dave — in deiner DM oder mit Meine
    Hand: …") or several are called at once ("Alice and Bob must discard." above "➡️ @Alice,
    @Bob — discard 2 cards …"): outside the account, each called player is named once, by the
    mention that pings them, and the status still says all it said, the names aside."""
    in_dms = several = 0
    for to_act, account, text, status in turn_messages(name, lang, calls_one_with_buttons=False):
        told = "\n".join(line for line in text.splitlines() if line not in account_text(account))
        for seat in to_act:
            assert told.count(f"<@{100 + seat}>") == 1 and f"**{NAMED[seat]}**" not in told, text
        assert unnamed(status).rstrip(".") in unnamed(text), (status, text)
        in_dms += any(words in told for words in ("DM", "Meine Hand"))
        several += len(to_act) > 1
    assert in_dms >= CALLS_IN_DMS.get(name, 0) and several >= CALLING_SEVERAL.get(name, 0), (in_dms, several)


def test_a_call_in_dms_says_the_status_then_where_and_what_the_status_leaves_unsaid():
    table = seated("macrobber")
    combat = msg("macrobber.status.combat", attacker=SeatRef(0), defender=SeatRef(3), round=1, player=SeatRef(3))
    tasks = {3: presenter.DmTask.of("de", "macrobber.your_move.combat")}
    assert presenter.next_move_line(table, [3], "de", tasks, combat) == \
        "➡️ Kampfrunde 1: <@103> spielt aus.\nIn deiner DM oder mit **Meine Hand**."
    discard = msg("macrobber.status.discard", players=[SeatRef(0), SeatRef(1)])
    owing = {seat: presenter.DmTask.of("en", "macrobber.your_move.discard", count=2) for seat in (0, 1)}
    assert presenter.next_move_line(table, [0, 1], "en", owing, discard) == \
        "➡️ <@100> and <@101> must discard.\n2 cards each, in your DMs or **My hand**."
    owing = {seat: presenter.DmTask.of("de", "macrobber.your_move.discard", count=1) for seat in (0, 1)}
    assert presenter.next_move_line(table, [0, 1], "de", owing, discard) == \
        "➡️ <@100> und <@101> werfen ab.\nJe 1 Karte, per DM oder **Meine Hand**."
    owing[0] = presenter.DmTask.of("de", "macrobber.your_move.discard", count=2)  # each DM says how many
    assert presenter.next_move_line(table, [0, 1], "de", owing, discard) == \
        "➡️ <@100> und <@101> werfen ab.\nIn euren DMs oder mit **Meine Hand**."
    exchange = msg("macrobber.status.exchange", player=SeatRef(1))  # a task in words alone is said whole
    assert presenter.next_move_line(table, [1], "en", {1: "trade"}, exchange) == \
        "➡️ <@101> exchanges cards.\nTrade in your DM or with **My hand**."


def test_a_computer_seat_called_with_people_keeps_its_name_and_is_never_pinged():
    players = tuple(SeatRow(user_id=100 + seat if seat != 2 else -1, name=name, seat=seat, dm_ok=True)
                    for seat, name in enumerate(NAMED))
    table = GameRow(id=1, guild_id=1, channel_id=2, game="gluecksritter", status="active", host_id=100, options={},
                    seed=3, state=None, version=0, result=None, lobby_message_id=None, board_message_id=None,
                    created_at=0, updated_at=0, players=players)
    document = msg("gluecksritter.status.field1", players=[SeatRef(0), SeatRef(2)])
    assert presenter.next_move_line(table, [0, 2], "en", {}, document) == "➡️ Document: <@100> and **Carol**."
    alone = msg("gluecksritter.status.field1", players=[SeatRef(2)])
    assert presenter.next_move_line(table, [2], "en", {}, alone) == "➡️ 🤖 — your move."


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_raub_ritter_turn_message_does_not_say_again_whose_turn_began(lang):
    """"Carol's turn." begins Carol's turn: the call to move says it in its place, and once she
    has laid a tile it is gone from her turn's account, not said again above "➡️ @Carol (red) may
    lay tile 2 of 3."."""
    mid_turn = 0
    for (seat,), _, text, _ in turn_messages("raubritter", lang):
        began = translate(msg("raubritter.event.turn", player=SeatRef(seat)), lang, presenter.bold_names(NAMED))
        assert began not in text, text
        mid_turn += any(words in text for words in ("tile 2 of 3", "Plättchen 2 von 3"))
    assert mid_turn > 10, mid_turn


def test_the_call_to_move_says_the_status_where_it_names_the_player_once():
    table = seated("raubritter")
    lay_more = msg("raubritter.status.lay_more", player=SeatRef(1), colour=msg("raubritter.colour.green"),
                   number=2, most=3)
    assert presenter.next_move_line(table, [1], "en", {}, lay_more) == "➡️ <@101> (green) may lay tile 2 of 3."
    text = turn_text(["**Bob** lays forest on N8."], presenter.status_in_message(lay_more, table, "en"),
                     "➡️ <@101> (green) may lay tile 2 of 3.")
    assert text.splitlines() == ["• **Bob** lays forest on N8.", "➡️ <@101> (green) may lay tile 2 of 3."]
    turn = msg("raubritter.status.lay", player=SeatRef(1), colour=msg("raubritter.colour.green"))
    call = presenter.next_move_line(table, [1], "de", {}, turn)
    assert call == "➡️ <@101> ist am Zug (grün)."
    assert turn_text(["**Anna** hört nach 1 Plättchen auf.", "**Bob** ist am Zug."],
                     presenter.status_in_message(turn, table, "de"), call).splitlines() == [
        "• **Anna** hört nach 1 Plättchen auf.", call]
    # Where the player decides in a DM, the call says the status, then where, and the task where
    # the status does not say it; where the status names nobody or someone else, "your move" stays.
    assert presenter.next_move_line(table, [1], "en", {1: "discard 2 cards"}, lay_more) == \
        "➡️ <@101> (green) may lay tile 2 of 3.\nDiscard 2 cards in your DM or with **My hand**."
    other = msg("raubritter.status.lay", player=SeatRef(0), colour=msg("raubritter.colour.blue"))
    assert presenter.next_move_line(table, [1], "en", {}, other) == "➡️ <@101> — your move."
    assert turn_text([], presenter.status_in_message(other, table, "en"), "➡️ <@101> — your move.").splitlines() == [
        "**Anna**'s turn (blue): lay a tile.", "➡️ <@101> — your move."]


def test_the_account_keeps_its_latest_lines_and_the_message_shows_them():
    account = merge_account([], [f"line {i}." for i in range(30)])
    assert account == ["line 28.", "line 29."] and len(account) == ACCOUNT_LINES  # no line of only "…"
    content = turn_text(account, "status", "➡️ <@1> — your move.")
    assert content.splitlines() == ["• line 28.", "• line 29.", "status", "➡️ <@1> — your move."]
    # An account stored with the old mark for the lines left out shows and keeps only lines.
    assert account_text(["…", "a.", "b."]) == ["• a.", "• b."]
    assert merge_account(["…", "a.", "b."], ["c."]) == ["b.", "c."]


def test_the_account_says_what_was_done_not_the_steps_taken_back():
    account = merge_account(["**Ann** drew a tile."], [step("**Ann** picks square 2,3.")])
    assert account_text(account) == ["• **Ann** drew a tile.", "• **Ann** picks square 2,3."]  # shown while newest
    account = merge_account(account, [step("**Ann** picks another square.")])
    account = merge_account(account, [step("**Ann** picks square 4,5.")])
    assert account_text(account)[-1] == "• **Ann** picks square 4,5." and len(account) == 2
    account = merge_account(account, ["**Ann** places the tile on square 4,5."])
    assert account_text(account) == ["• **Ann** drew a tile.", "• **Ann** places the tile on square 4,5."]


def test_secrets_decide_the_hand_button():
    knatsch = KNATSCH.new_game(3, seed=1)
    raubritter = RAUBRITTER.new_game(3, seed=1)
    assert not has_secrets(KNATSCH, knatsch, 3)
    assert has_secrets(RAUBRITTER, raubritter, 3)
    no_hand = board_view(1, 0, choices_for(KNATSCH, knatsch, 0, ["A", "B", "C"]), hand=False)
    assert all(getattr(item, "custom_id", "").startswith("rk:move:") for item in no_hand.children)
    with_hand = board_view(1, 0, [], hand=True, lang="de")
    assert [item.item.label for item in with_hand.children] == ["Meine Hand"]


def knatsch_mid_roll():
    state = KNATSCH.new_game(2, seed=4)
    rng = random.Random(4)
    while not (state.phase == "roll" and state.roll.rolls_used >= 1 and toggles_for(KNATSCH, state, state.roll.roller)):
        seat = min(KNATSCH.to_act(state))
        state, _ = KNATSCH.apply(state, seat, rng.choice(KNATSCH.legal_actions(state, seat)))
    return state


def test_labels_name_the_players_in_the_table_language():
    state = knatsch_mid_roll()
    seat = state.roll.roller
    for lang in ("en", "de"):
        for choice in choices_for(KNATSCH, state, seat, ["Ann", "王小明"], lang):
            assert "{s" not in choice.label and choice.label != choice.action
    (family,) = toggles_for(KNATSCH, state, seat, ["Ann", "Bo"], "de")
    dice = state.roll.dice
    assert [label for _, label in family.items] == [f"Würfel {i + 1}: {d}" for i, d in enumerate(dice) if d != 6]


@pytest.fixture
def make_bot(database_path, renderer):
    return bot_factory(database_path, games={"knatsch": KNATSCH, "raubritter": RAUBRITTER}, seed=5, render=renderer)


async def test_lobby_and_start_mention_the_rules_and_knatsch_sends_no_dms(world):
    alice, bob = world.player("alice"), world.player("bob")
    await world.slash(alice, "game new", game="knatsch")
    assert "/game rules game:knatsch" in world.latest().content
    await world.click(bob, world.latest(), label="Join")
    await world.click(alice, world.latest(), label="Start")
    board = world.latest_board()
    assert "`/game rules`" in board.content
    assert world.dms(alice) == [] and world.dms(bob) == []
    assert "My hand" not in [b.get("label") for b in buttons(board)]


async def test_raubritter_keep_choice_edits_the_one_dm_of_that_decision(world):
    alice, bob = world.player("alice"), world.player("bob")
    await world.slash(alice, "game new", game="raubritter")
    await world.click(bob, world.latest(), label="Join")
    await world.click(alice, world.latest(), label="Start")
    players = seat_order(world, 1, [alice, bob])
    first = players[0]
    (dm,) = world.dms(first)
    assert dm.content.count("(A)") == 4  # four A tiles to choose from
    state = RAUBRITTER.from_dict(world.stored_state(1))
    keep = RAUBRITTER.legal_actions(state, 0)[0]
    await world.slash(first, "move", action=keep.encode())
    (edited,) = world.dms(first)  # the same DM, edited: no second one
    assert edited.id == dm.id and "You keep your castle" in edited.content
    assert "pick below" not in edited.content and not buttons(edited)  # the decision is made
    assert edited.attachments, "the hand is private: its picture stays"


async def test_after_a_restart_the_open_dm_is_still_edited_not_repeated(world):
    alice, bob = world.player("alice"), world.player("bob")
    await world.slash(alice, "game new", game="raubritter")
    await world.click(bob, world.latest(), label="Join")
    await world.click(alice, world.latest(), label="Start")
    first = seat_order(world, 1, [alice, bob])[0]
    await world.restart()
    state = RAUBRITTER.from_dict(world.stored_state(1))
    await world.slash(first, "move", action=RAUBRITTER.legal_actions(state, 0)[0].encode())
    (dm,) = world.dms(first)
    assert "You keep your castle" in dm.content


@pytest.mark.parametrize("lang, now_mine, now_computer", [("en", "I answer (tap: the computer does)",
                                                            "the computer answers (tap: I do)"),
                                                           ("de", "ich antworte (Tippen: der Computer)",
                                                            "der Computer antwortet (Tippen: ich selbst)")])
def test_a_standing_order_toggle_says_what_is_set_and_what_a_tap_changes(lang, now_mine, now_computer):
    from bot.components import BUTTON_LABEL_LIMIT, private_view
    from games.core import msg
    from i18n import t, translate

    for game in REGISTRY.values():
        for kind in game.features.reactions:
            words = translate(msg(kind), lang)
            off = t(lang, "bot.days.order_button_off", kind=words)
            on = t(lang, "bot.days.order_button_on", kind=words)
            assert off.endswith(f"{words}: {now_mine}") and on.endswith(f"{words}: {now_computer}")
            view = private_view(1, 1, [], lang=lang, orders=[(off, False), (on, True)])
            assert [item.item.label for item in view.children] == [off, on]  # whole, never cut
            assert max(len(off), len(on)) <= BUTTON_LABEL_LIMIT


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_move_label_starts_with_a_capital(lang):
    """A button or menu label that starts with a word starts with a capital ("Katapult unter
    Stapel 1 legen", never "das Katapult unter Stapel 1 legen")."""
    from i18n import translate

    for name, game in sorted(REGISTRY.items()):
        rng = random.Random(2)
        state = game.new_game(min(game.max_players, 4), seed=2)
        for _ in range(200):
            if game.outcome(state) is not None:
                break
            seat = min(game.to_act(state))
            legal = game.legal_actions(state, seat)
            for action in legal[:30]:
                label = translate(game.describe(state, seat, action), lang, ["Anna", "Bo", "Cleo", "Dan"])
                first = next((char for char in label if char.isalpha()), "A")
                assert label[:1].isdigit() or not first.islower(), (name, label)
            state, _ = game.apply(state, seat, rng.choice(legal))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_knatsch_roll_in_the_account_is_one_line_of_a_phone(lang):
    """A roll and its best result ("Anna: 2 2 4 4 2 1 → three 2s + 4"): one line of a
    390 px phone each, never two."""
    from bot.presenter import phone_lines
    from bot.turns import ACCOUNT_MARK
    from i18n import translate

    rng, state, rolls = random.Random(3), KNATSCH.new_game(4, seed=3), 0
    while KNATSCH.outcome(state) is None and rolls < 40:
        seat = min(KNATSCH.to_act(state))
        state, events = KNATSCH.apply(state, seat, rng.choice(KNATSCH.legal_actions(state, seat)))
        for event in events:
            if event.seat is None and getattr(event.text, "id", "") == "knatsch.event.rolled":
                line = translate(event.text, lang, ["**Anna**", "**Bo**", "**Cleo**", "**Dan**"])
                assert phone_lines(ACCOUNT_MARK + line) == 1, line
                rolls += 1
    assert rolls >= 10


@pytest.mark.parametrize("lang", ["en", "de"])
def test_die_gluecksritter_last_raid_is_one_line_under_the_board(lang):
    """The last round's raid and its die take one line under the board in both languages, so
    the newest events ("Bob hat gewählt.") keep their room there."""
    from i18n import t
    from renderers.gluecksritter import MARGIN, SMALL, WIDTH, _wrapped

    for die in ("die_sack", "die_castle", "die_alibi"):
        line = (f"{t(lang, 'gluecksritter.board.raid_previous', thief='Carol', victim='Alice')} · "
                f"{t(lang, 'gluecksritter.board.' + die)}")
        assert len(_wrapped(line, SMALL, WIDTH - 2 * MARGIN)) == 1, line


def test_lines_said_on_one_line_end_as_sentences():
    """A Knatsch roll has no full stop: said with what it did (`/game log`, the recap), it does
    not run into the next sentence ("→ two 5s **Bob** fails")."""
    from bot.presenter import sentences

    assert sentences(["**Bob**: 5 5 6 6 6 6 → two 5s", "**Bob** fails, **Ann** keeps it."]) == \
        "**Bob**: 5 5 6 6 6 6 → two 5s. **Bob** fails, **Ann** keeps it."
    assert sentences(["Anna wins!", "", "Game over"]) == "Anna wins! Game over"


def test_the_start_tells_players_whose_dms_are_closed_in_the_form_for_one_or_several():
    from types import SimpleNamespace

    from bot.presenter import start_text

    table = SimpleNamespace(names=["Anna", "Bo", "Cleo"], id=7)
    one = start_text(table, KNATSCH, ["Bo"], "de")
    several = start_text(table, KNATSCH, ["Bo", "Cleo"], "de")
    assert "**Bo** keine Direktnachricht" in one and "siehst du deine geheime Ansicht" in one
    assert "**Bo** und **Cleo** keine Direktnachricht" in several and "seht ihr eure geheime Ansicht" in several
    assert "DM **Bo** and **Cleo** (DMs closed)" in start_text(table, KNATSCH, ["Bo", "Cleo"], "en")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_start_names_every_seat_within_its_lines_of_a_phone_however_long_the_names(lang):
    """Four names of 32 letters made the start seven lines of a phone, and the first turn message
    longer than eight: they are shortened (whole words first) as little as `START_LINES` needs;
    usual names stay whole."""
    from types import SimpleNamespace

    from bot.presenter import START_LINES, phone_lines, start_text
    from games.macrobber import GAME as MACROBBER

    longest = ["Дмитрий Александрович Тимофеев", "Bartholomew the Unready of Some", "Kunigunde von Hohenzollern-Sig",
               "Αλέξανδρος Παπαδόπουλος-Ιωάννου"]
    text = start_text(SimpleNamespace(names=longest, id=7), MACROBBER, [], lang)
    assert phone_lines("• " + text) <= START_LINES
    assert "1. **Дмитрий" in text and "2. **Bartholomew…**, 3. **Kunigunde" in text and "4. **Αλέξανδρος…**" in text
    usual = start_text(SimpleNamespace(names=["Alice", "Bob", "Carol", "Dave"], id=7), MACROBBER, [], lang)
    assert "1. **Alice**, 2. **Bob**, 3. **Carol**, 4. **Dave**" in usual
