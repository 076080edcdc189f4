"""Tests of bot/admin: imports, drafts, retiring, statistics."""
