"""Tests of bot/core: arguments, the callback codec in chats, display, HTML, transport, faults."""
