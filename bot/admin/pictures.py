"""The pictures of the banks stored in SQLite: which files a quiz names, their bytes (from the
catalog for a bank on disk, from the database for a stored one), what the database must keep
with a bank, and whether it fits the limit on stored pictures."""

from __future__ import annotations

from collections.abc import Mapping

from bot.core.context import Services
from content.images import BundleImages
from content.model import Quiz
from storage.media_store import BankPictures


def catalog_files(services: Services, quiz: Quiz | None) -> dict[str, bytes]:
    """The picture files of a quiz that the catalog holds (a bank on disk's), by path."""
    found: dict[str, bytes] = {}
    for question in quiz.questions if quiz is not None else ():
        for image in question.images:
            data = services.catalog.image(image.sha256) if image.sha256 else None
            if data is not None:
                found[image.location] = data
    return found


def _files_named(quiz: Quiz) -> dict[str, str]:
    """Every picture file the quiz names: its path in the bank, and its SHA-256."""
    return {
        image.location: image.sha256
        for question in quiz.questions
        for image in question.images
        if not image.is_url and image.sha256 is not None
    }


async def picture_bytes(services: Services, sha256: str) -> bytes | None:
    """A picture file of any bank: a file's bank's from the catalog, a stored one's from the
    database."""
    data = services.catalog.image(sha256)
    return data if data is not None else await services.storage.media.picture(sha256)


async def quiz_images(services: Services, quiz: Quiz) -> BundleImages:
    """The quiz's picture files by their path in the bank (for /export)."""
    files = {}
    for location, sha256 in _files_named(quiz).items():
        data = await picture_bytes(services, sha256)
        if data is not None:
            files[location] = data
    return BundleImages(files, missing="its file is no longer stored (import the bank again)")


async def bank_pictures(
    services: Services, quiz: Quiz, fresh: Mapping[str, bytes] = {}
) -> BankPictures:
    """What the database must keep for the quiz: every file it names, with the bytes of
    those it does not hold yet (`fresh`: files just uploaded, by path)."""
    uses = _files_named(quiz)
    missing = set(uses.values()) - await services.storage.media.stored(uses.values())
    files = {}
    for location, sha256 in uses.items():
        if sha256 in missing and sha256 not in files:
            data = fresh.get(location) or services.catalog.image(sha256)
            if data is not None:
                files[sha256] = data
    return BankPictures(uses, files)


async def pictures_overflow(services: Services, quiz: Quiz, pictures: BankPictures) -> int:
    """How many bytes the stored pictures would weigh with the quiz's, when that is over the
    limit (`Settings.stored_pictures_max_bytes`); 0 when it fits."""
    media = services.storage.media
    others = await media.sizes_of_other_banks(quiz.id)
    own = set(pictures.uses.values()) - set(others)
    stored = await media.sizes(own - set(pictures.files))
    total = sum(others.values()) + sum(
        len(pictures.files[sha256]) if sha256 in pictures.files else stored.get(sha256, 0)
        for sha256 in own
    )
    return total if total > services.settings.stored_pictures_max_bytes else 0
