"""Quizzes and their YAML banks: the content model, loading and validation. No Telegram here."""
