"""The Telegram layer of Quiz Tutor: application wiring, handlers and rendering."""
