"""The shared Telegram plumbing every feature stands on: the callback codec, the per-update
context and services, handler classes and filters, i18n, rendering primitives, the transport."""
