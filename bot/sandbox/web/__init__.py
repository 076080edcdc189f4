"""The sandbox's chat page: the people (`cast.py`), the page and its JSON/event API
(`page.py`), messages as the page draws them (`views.py`, `markup.py`) and the static files
(`static/`). Like the stand-in, it imports nothing of the bot."""
