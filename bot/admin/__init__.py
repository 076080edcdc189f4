"""The bot's admins editing content: import, export, /addquestion, /delquestion, /stats."""
