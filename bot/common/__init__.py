"""What every chat gets: /help, /whoami, answers to unknown commands and stray text, the error
handler.

The feature's face, as `bot/app.py` wires it: registered after every other feature."""

from bot.common.handlers import COMMANDS, handlers, on_error

__all__ = ["COMMANDS", "handlers", "on_error"]
