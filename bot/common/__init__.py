"""What every chat gets: /help, answers to unknown commands and stray text, the error handler.

The feature's face, as `bot/app.py` wires it: registered after every other feature."""

from bot.common.handlers import handlers, on_error

__all__ = ["handlers", "on_error"]
