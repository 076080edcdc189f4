"""What every chat gets: /help, answers to unknown commands and stray text, the error handler."""
