"""An organiser changes a tournament's settings during its sign-up (`/game tournament settings`):
the tables' options (only those named) and the sign-up's time, shown in its message and given
to its tables; the game, its own options and the format stay as opened; once it has begun the
answer says its settings stay. In English and German, only to the asker."""
from __future__ import annotations

import json

from tests.bot.harness import reply
from tests.bot.tournaments.helpers import DAY, NAMES, announcement, open_swiss, settle, sign_up, tables

HOUR = 3600


def stored(world) -> tuple[dict, int | None]:
    ((settings, signup_until),) = world.query("SELECT settings, signup_until FROM tournaments WHERE id = 1")
    return json.loads(settings), signup_until


async def test_the_tables_options_and_the_sign_ups_time_change_before_the_start_and_reach_the_tables(world, clock):
    organiser = world.player("orga", manage_server=True)
    member = world.player("mia")
    players = [world.player(name) for name in NAMES[:4]]
    await open_swiss(world, organiser, players=2, rounds=2, options="rounds=1 deadline=24h reminder=6h")
    assert ("Tables: a move within 1 day, else the computer plays it · a reminder after 6 hours · "
            "computer players: normal.") in announcement(world).content
    await sign_up(world, players[:2])

    refused = reply(await world.slash(member, "game tournament settings", options="deadline=48h"))
    assert refused.ephemeral and "Only its organiser" in refused.content
    nothing = reply(await world.slash(organiser, "game tournament settings"))
    assert nothing.ephemeral and "say what to change" in nothing.content

    # Only the options named change; the message shows them.
    changed = reply(await world.slash(organiser, "game tournament settings", options="deadline=48h computer=strong"))
    assert changed.ephemeral and "Tournament #1 is changed" in changed.content
    assert "a move within 2 days, else the computer plays it · a reminder after 6 hours" in changed.content
    await settle(world)
    content = announcement(world).content
    assert ("Tables: a move within 2 days, else the computer plays it · a reminder after 6 hours · "
            "computer players: strong.") in content
    assert "Signed up (2)" in content  # the sign-ups stay
    settings, signup_until = stored(world)
    assert (settings["deadline"], settings["reminder"], settings["strength"]) == (2 * DAY, 6 * HOUR, "strong")
    assert signup_until is None

    # The game's own options, the format and the like stay as opened; a word it does not know is named.
    fixed = reply(await world.slash(organiser, "game tournament settings", options="rounds=2 deadline=7d"))
    assert fixed.ephemeral and "the format, the players per table and the rounds stay" in fixed.content
    assert "`rounds=2`" in fixed.content
    assert stored(world)[0]["deadline"] == 2 * DAY  # nothing of a refused change is kept
    bad = reply(await world.slash(organiser, "game tournament settings", options="deadline=5h"))
    assert bad.ephemeral and "deadline" in bad.content and "24h" in bad.content

    # The sign-up's time: from now on; when it is up the first round is seated.
    timed = reply(await world.slash(organiser, "game tournament settings", signup="24h"))
    assert "Sign-up until" in timed.content
    assert stored(world)[1] == int(clock.now()) + DAY
    await settle(world)
    assert "Sign-up until" in announcement(world).content
    await sign_up(world, players[2:])
    clock.advance(DAY)
    await world.run_timers()
    await settle(world)
    assert world.query("SELECT status FROM tournaments WHERE id = 1") == [("running",)]
    games = [row[5] for row in tables(world, round_no=1)]
    assert len(games) == 2 and all(game is not None for game in games)
    for game_id in games:
        assert world.query("SELECT deadline, reminder, strength FROM day_tables WHERE game_id = ?", (game_id,)) == \
            [(2 * DAY, 6 * HOUR, "strong")]

    # Once it has begun: said clearly, nothing changes.
    late = reply(await world.slash(organiser, "game tournament settings", options="deadline=none"))
    assert late.ephemeral and "Tournament #1 has begun: its settings stay as they are" in late.content
    assert stored(world)[0]["deadline"] == 2 * DAY


async def test_the_answers_about_settings_speak_german(world, clock, client_languages):
    organiser = world.player("orga", manage_server=True)
    client_languages[organiser.id] = "de"
    players = [world.player(name) for name in NAMES[:4]]
    await open_swiss(world, organiser, players=2, rounds=2, language="de")
    assert ("Tische: keine Zeitgrenze je Zug · eine Erinnerung nach 12 Stunden · Computerspieler: normal."
            in announcement(world).content)
    changed = reply(await world.slash(organiser, "game tournament settings", options="deadline=72h timeout=skip"))
    assert "Turnier #1 ist geändert" in changed.content
    await settle(world)
    assert "Tische: ein Zug hat 3 Tage Zeit, sonst wird der Zug übersprungen" in announcement(world).content
    fixed = reply(await world.slash(organiser, "game tournament settings", options="rounds=2"))
    assert "Ändern lassen sich nur die Tischoptionen" in fixed.content
    await sign_up(world, players, label="Mitmachen")
    await world.slash(organiser, "game tournament start")
    await settle(world)
    late = reply(await world.slash(organiser, "game tournament settings", signup="48h"))
    assert late.ephemeral and "Turnier #1 hat begonnen: Seine Einstellungen bleiben, wie sie sind" in late.content
