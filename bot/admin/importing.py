"""`/import`: a document downloaded within the limits of its kind, read and validated in a
worker thread (`files.check_upload`), stored over the quiz of its id with its pictures and
audit entry (all of it, or nothing), then put into the running catalog; what was refused,
left out or assumed is said to the admin."""

from __future__ import annotations

import asyncio
import html
import logging
from collections.abc import Mapping, Sequence

from telegram import Bot, Document, ReplyParameters
from telegram.error import TelegramError

from bot.admin import files, render
from bot.admin.pictures import bank_pictures, pictures_overflow
from bot.core.context import Services
from bot.core.faults import is_file_too_big
from bot.core.i18n import Locale
from bot.core.transport import BodyTooLarge, body_limit
from content.editing import plan_import
from content.export import dump_bank
from content.images import MIB
from content.loader import MAX_BANK_BYTES
from content.model import Quiz

log = logging.getLogger(__name__)


async def import_document(
    bot: Bot,
    services: Services,
    chat_id: int,
    admin_id: int,
    document: Document,
    locale: Locale,
    skip_unsupported: bool = False,
    document_message_id: int | None = None,
) -> None:
    """Download, read by its extension (any input format, or a `.zip` bundle of one),
    validate with the bank validator, and store: all of it, or nothing. A refusal that
    skipping would get round ends with an offer to import the good questions, replying to the
    document's message (`document_message_id`), whose button imports them from it."""
    name = document.file_name or "document"
    kind = files.kind_of(name)
    if kind is None:
        extensions = ", ".join(files.input_extensions())
        text = locale.t("import_unknown_format", file=html.escape(name), extensions=extensions)
        await bot.send_message(chat_id, text)
        return
    data = await _download(bot, chat_id, document, kind, locale)
    if data is None:
        return
    # Parsing is CPU work: in a worker thread, so that other chats are served meanwhile, and
    # one upload at a time, so that admins sending at once do not multiply it.
    default = services.settings.default_language
    async with services.locks.upload:
        checked = await asyncio.to_thread(
            files.check_upload, data, name, kind, default, skip_unsupported
        )
    if checked.quiz is None or checked.stored is None:
        await send_import_errors(bot, chat_id, name, checked.result.errors, locale)
        if checked.good_questions and not skip_unsupported:
            offer = render.good_questions_offer(name, checked.good_questions, locale)
            replying = (
                ReplyParameters(document_message_id, allow_sending_without_reply=True)
                if document_message_id is not None
                else None
            )
            await bot.send_message(
                chat_id, offer.text, reply_markup=offer.markup, reply_parameters=replying
            )
        return
    stored_size = len(checked.stored.encode())
    if stored_size > MAX_BANK_BYTES:  # stored as canonical YAML, which may be longer
        await bot.send_message(
            chat_id, locale.t("import_too_large", n=stored_size, limit=MAX_BANK_BYTES)
        )
        return
    notes = render.conversion_notes(name, checked.skipped, checked.warnings, locale)
    await _send_listed(bot, chat_id, notes, locale.t("import_notes_file", file=html.escape(name)))
    report = await apply_import(
        services, checked.quiz, admin_id, name, locale, checked.stored, checked.result.images
    )
    if checked.assumed:
        report += "\n" + render.assumed(checked.quiz, checked.assumed, locale)
    await bot.send_message(chat_id, report)
    if services.catalog.get(checked.quiz.id) is not None:
        next_steps = render.next_steps(checked.quiz, locale)
        await bot.send_message(chat_id, next_steps.text, reply_markup=next_steps.markup)


async def _download(
    bot: Bot, chat_id: int, document: Document, kind: files.Kind, locale: Locale
) -> bytes | None:
    """The document's bytes, or None when it is too large for its kind (checked on every
    size Telegram announces, then while reading) or cannot be downloaded (said to the admin)."""
    limit = kind.max_bytes
    yaml = kind.fmt is not None and kind.fmt.name == "yaml"

    def too_large(size: int | None) -> str:
        if yaml:  # the words a YAML bank always had
            if size is None:
                return locale.t("import_too_large_unsized", n=limit)
            return locale.t("import_too_large", n=size, limit=limit)
        shown = {"format": kind.label, "limit": f"{limit:,}"}
        if size is None:
            return locale.t("import_too_large_format_unsized", format=kind.label, n=limit)
        return locale.t("import_too_large_format", n=size, **shown)

    if document.file_size is not None and document.file_size > limit:
        await bot.send_message(chat_id, too_large(document.file_size))
        return None
    try:
        file = await bot.get_file(document.file_id)
        if file.file_size is not None and file.file_size > limit:
            await bot.send_message(chat_id, too_large(file.file_size))
            return None
        with body_limit(limit):  # both sizes above are optional: never trusted
            data = bytes(await file.download_as_bytearray())
    except BodyTooLarge:
        await bot.send_message(chat_id, too_large(None))
        return None
    except TelegramError as error:
        if is_file_too_big(error):  # over Telegram's 20 MB, and its size never announced
            await bot.send_message(chat_id, too_large(None))
            return None
        log.warning("import of %s: download failed: %s", document.file_name, error)
        await bot.send_message(chat_id, locale.t("import_download_failed"))
        return None
    if len(data) > limit:
        await bot.send_message(chat_id, too_large(len(data)))
        return None
    return data


async def send_import_errors(
    bot: Bot, chat_id: int, name: str, errors: Sequence[str], locale: Locale
) -> None:
    """The first errors in a message or two; all of them as a text file when there are more."""
    report = render.import_errors(name, errors, locale)
    caption = locale.t("import_errors_file", file=html.escape(name), n=len(errors))
    await _send_listed(bot, chat_id, report, caption)


async def _send_listed(bot: Bot, chat_id: int, listed: render.Listed, caption: str) -> None:
    """The list's messages, then its whole list as a text file (with `caption`) if it has one."""
    for text in listed.messages:
        await bot.send_message(chat_id, text)
    if listed.full_list is not None:
        await bot.send_document(
            chat_id, listed.full_list.encode(), filename=listed.file_name, caption=caption
        )


async def apply_import(
    services: Services,
    quiz: Quiz,
    admin_id: int,
    source: str,
    locale: Locale,
    stored: str | None = None,
    images: Mapping[str, bytes] = {},
) -> str:
    """Store a valid bank (`stored`: its canonical YAML, if already written; `images`: the
    picture files it came with, by path) over the quiz of its id; the report to send."""
    async with services.locks.bank:
        if stored is None:
            stored = await asyncio.to_thread(dump_bank, quiz)
        return await _apply_import(services, quiz, admin_id, source, locale, stored, images)


async def _apply_import(
    services: Services,
    quiz: Quiz,
    admin_id: int,
    source: str,
    locale: Locale,
    stored: str,
    images: Mapping[str, bytes],
) -> str:
    store = services.storage.content
    existing = services.catalog.get(quiz.id)
    plan = plan_import(existing, quiz)
    if not plan.changes_anything:
        return locale.t("import_unchanged", quiz_id=quiz.id)
    pictures = await bank_pictures(services, quiz, images)
    overflow = await pictures_overflow(services, quiz, pictures)
    if overflow:
        limit = services.settings.stored_pictures_max_bytes
        return locale.t(
            "import_pictures_full",
            file=html.escape(source),
            total=f"{overflow / MIB:,.1f}",
            limit=f"{limit / MIB:,.0f}",
        )
    default = services.settings.default_language
    retired = []
    if existing is not None:
        for question_id in plan.retired:
            gone = existing.question(question_id)
            assert gone is not None
            retired.append((question_id, gone.text.get(default, default)))
    was_retired = {r.question_id for r in await store.retired(quiz.id)}
    stored_ids = {bank.quiz_id for bank in await store.banks()}
    await store.save_bank(
        quiz.id,
        stored,
        admin_id,
        services.clock(),
        "import",
        {
            "file": source,
            "added": list(plan.added),
            "updated": list(plan.updated),
            "retired": list(plan.retired),
        },
        retired=retired,
        restored=[q.id for q in quiz.questions if q.id in was_retired],
        pictures=pictures,
    )
    services.catalog.put(quiz)
    return render.import_report(
        plan, overrides_disk=existing is not None and quiz.id not in stored_ids, locale=locale
    )
