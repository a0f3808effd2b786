"""What leaves: the outbox, reminders, repeating schedules and the routes they take."""
