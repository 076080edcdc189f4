"""Tests of bot/serving: the webhook, start-up, the command menus."""
