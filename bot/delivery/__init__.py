"""Delivering what stored changes owe Discord: the board, channel posts and DMs, sent outside the
game's lock, retried until shown (`bot.delivery.worker`), following Discord's own changes
(`bot.delivery.follow`). See docs/architecture.md."""
