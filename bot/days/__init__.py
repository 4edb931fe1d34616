"""Games over days: timers (reminders, deadlines, computer seats' moves), turns that time out,
absences, substitutes, undo, hints and the table options that set them. Its tables live beside
it (`bot.days.storage`); every change it makes to a game goes through the move pipeline."""
