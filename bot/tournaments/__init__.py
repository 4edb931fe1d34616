"""Tournaments over weeks, run by the bot (docs/tournaments.md): the pairings (`pairing`, pure),
what is stored (`storage`), the rounds that run themselves (`runner`: tables in threads, the next
round when the last table of a round ends, tables past their time ended by the rule), the one
message that shows the sign-up and later the standings (`message`), and their words (`texts`).
`runner.Tournaments` is what the rest of the bot sees of it; it follows every change to a game
through the move pipeline (`listener`)."""
