"""A league on every server (issue 32, docs/league.md): ratings per game and server from each
finished game's placings (`ratings`), the server's open games in one message (`overview`), and
catching up on what happened since one's own last move (`recap`). `league.League` is what the
rest of the bot sees of it; its tables live beside it (`storage`), and it follows every change to
a game through the move pipeline (`listener`)."""
