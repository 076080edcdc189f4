"""Tests of bot/sandbox: the stand-in refuses what Telegram refuses."""
