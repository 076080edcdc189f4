"""The banks changed through the bot, read back from SQLite at start: each overrides the bank
of its id read from the files."""

from __future__ import annotations

import logging

from bot.admin.pictures import catalog_files
from bot.core.context import Services
from content.images import BundleImages
from content.loader import parse_bank

log = logging.getLogger(__name__)


async def load_stored_banks(services: Services) -> None:
    """At start: banks changed through the bot, parsed once; each overrides a file's bank.
    Their pictures are in the database (a file's bank lends its own, for a bank stored before
    the database kept them); the catalog does not hold their bytes (`pictures.picture_bytes`)."""
    for stored in await services.storage.content.banks():
        files = catalog_files(services, services.catalog.get(stored.quiz_id))
        files.update(await services.storage.media.bank_pictures(stored.quiz_id))
        result = parse_bank(
            stored.yaml,
            f"stored bank {stored.quiz_id}",
            services.settings.default_language,
            images=BundleImages(files),
        )
        if result.quiz is None:
            for error in result.errors:
                log.error("stored bank %s refused: %s", stored.quiz_id, error)
            continue
        if services.catalog.put(result.quiz) is not None:
            log.info("quiz %s: the copy changed through the bot overrides the file", stored.quiz_id)
