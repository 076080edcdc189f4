"""How the bot is served: the run loop (`lifecycle`), the webhook server (`webhook`), the health
check (`health`), and the hardened HTTP listener under both (`http`)."""
