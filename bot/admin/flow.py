"""What the bot's admins do to content: import a bank, add or retire a question, statistics.

Every change is validated like a bank on disk, stored in SQLite (one transaction with its
audit entry), and only then put into the running catalog. Telegram-facing, but the rules
live in `content.editing` and the SQL in `storage.content_store`.
"""

from __future__ import annotations

import asyncio
import html
import logging
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, cast

from telegram import Bot, Document, ReplyParameters
from telegram.error import TelegramError

from bot.admin import files, render
from bot.admin.collecting import Collection
from bot.core.arguments import ascii_number, echo
from bot.core.context import Services
from bot.core.faults import is_file_too_big
from bot.core.i18n import Locale
from bot.core.render import LETTERS, Reply, letter
from bot.core.transport import BodyTooLarge, body_limit
from content.answers import DigitGrouping, Number, normalize, read_number
from content.editing import add_question, add_questions, plan_import, retire_question
from content.export import dump_bank
from content.formats.base import ConversionError
from content.formats.registry import FORMATS
from content.images import MIB, BundleImages
from content.loader import MAX_BANK_BYTES, BankResult, parse_bank
from content.model import Question, QuestionType, Quiz, utf16_length
from content.schema import (
    LANGUAGE_CODE,
    MAX_ACCEPTED_ANSWERS,
    MAX_ACCEPTED_LENGTH,
    MAX_EXPLANATION_LENGTH,
    MAX_NUMBER_EXPONENT,
    MAX_OPTION_LENGTH,
    MAX_OPTIONS,
    MAX_QUESTION_LENGTH,
    MAX_UNIT_LENGTH,
    MIN_OPTIONS,
)
from storage.media_store import BankPictures

log = logging.getLogger(__name__)


def _default(services: Services) -> str:
    return services.settings.default_language


# banks stored in SQLite


async def load_stored_banks(services: Services) -> None:
    """At start: banks changed through the bot, parsed once; each overrides a file's bank.
    Their pictures are in the database (a file's bank lends its own, for a bank stored before
    the database kept them); the catalog does not hold their bytes (`picture_bytes`)."""
    for stored in await services.storage.content.banks():
        files = _catalog_files(services, services.catalog.get(stored.quiz_id))
        files.update(await services.storage.media.bank_pictures(stored.quiz_id))
        result = parse_bank(
            stored.yaml,
            f"stored bank {stored.quiz_id}",
            _default(services),
            images=BundleImages(files),
        )
        if result.quiz is None:
            for error in result.errors:
                log.error("stored bank %s refused: %s", stored.quiz_id, error)
            continue
        if services.catalog.put(result.quiz) is not None:
            log.info("quiz %s: the copy changed through the bot overrides the file", stored.quiz_id)


# pictures of banks stored in SQLite


def _catalog_files(services: Services, quiz: Quiz | None) -> dict[str, bytes]:
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


# import


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
    default = _default(services)
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
    for text in notes.messages:
        await bot.send_message(chat_id, text)
    if notes.full_list is not None:
        await bot.send_document(
            chat_id,
            notes.full_list.encode(),
            filename=notes.file_name,
            caption=locale.t("import_notes_file", file=html.escape(name)),
        )
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


# export


async def export_quiz(
    bot: Bot, services: Services, chat_id: int, quiz: Quiz, format_name: str, locale: Locale
) -> None:
    """The quiz as a document of the format named (CPU work for a large bank: in a worker
    thread); what the format cannot hold is named under it."""
    fmt = FORMATS[format_name]
    images = await quiz_images(services, quiz)
    try:
        exported = await asyncio.to_thread(files.export_file, quiz, images, fmt, _default(services))
    except ConversionError as error:
        shown = {"quiz_id": quiz.id, "format": fmt.label}
        await send_blocks(bot, chat_id, locale.t("export_failed", **shown), error.problems)
        return
    if len(exported.data) > files.MAX_SEND_BYTES:
        await bot.send_message(chat_id, locale.t("export_too_large", n=len(exported.data)))
        return
    key = "export_caption" if fmt.name == "yaml" else "export_caption_format"
    caption = locale.t(key, quiz_id=quiz.id, n=len(quiz), format=fmt.label)
    await bot.send_document(chat_id, exported.data, filename=exported.name, caption=caption)
    if exported.warnings:
        head = locale.t("export_warnings", format=fmt.label, n=len(exported.warnings))
        await send_blocks(bot, chat_id, head, exported.warnings)


async def send_blocks(bot: Bot, chat_id: int, head: str, lines: Sequence[str]) -> None:
    for text in render.listing(head, lines):
        await bot.send_message(chat_id, text)


async def send_import_errors(
    bot: Bot, chat_id: int, name: str, errors: Sequence[str], locale: Locale
) -> None:
    """The first errors in a message or two; all of them as a text file when there are more."""
    report = render.import_errors(name, errors, locale)
    for text in report.messages:
        await bot.send_message(chat_id, text)
    if report.full_list is not None:
        await bot.send_document(
            chat_id,
            report.full_list.encode(),
            filename=report.file_name,
            caption=locale.t("import_errors_file", file=html.escape(name), n=len(errors)),
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
    default = _default(services)
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


# a question added step by step: its type (buttons under the first prompt; one right option
# unless another is tapped), its text, what its type needs (options, the right one(s), a
# number with its tolerance and unit, the accepted replies), an explanation (or /skip), a
# translation (or /skip); each step's answer is checked before the next is asked

TEXT, OPTIONS, ANSWER, TOLERANCE, UNIT, EXPLANATION, TRANSLATION = range(7)
STEPS = 7
SKIPPABLE = frozenset({TOLERANCE, UNIT, EXPLANATION, TRANSLATION})
_STEPS_OF: dict[QuestionType, tuple[int, ...]] = {
    QuestionType.SINGLE: (TEXT, OPTIONS, ANSWER, EXPLANATION, TRANSLATION),
    QuestionType.MULTIPLE: (TEXT, OPTIONS, ANSWER, EXPLANATION, TRANSLATION),
    QuestionType.TRUE_FALSE: (TEXT, ANSWER, EXPLANATION, TRANSLATION),
    QuestionType.NUMERIC: (TEXT, ANSWER, TOLERANCE, UNIT, EXPLANATION, TRANSLATION),
    QuestionType.TYPED: (TEXT, ANSWER, EXPLANATION, TRANSLATION),
}
DRAFT_TYPES = tuple(QuestionType)  # the type buttons, in this order


@dataclass
class Draft:
    """An admin's question in the making; lives in the conversation, never half-stored.
    `answer` is what its type takes: an option, options, a bool, a number, accepted replies."""

    quiz_id: str
    nonce: int
    text: str = ""
    options: list[str] = field(default_factory=list)
    answer: int | list[int] | bool | Decimal | list[str] = 0
    explanation: str | None = None
    language: str | None = None
    translated: list[str] = field(default_factory=list)  # text, options..., [explanation]
    kind: QuestionType = QuestionType.SINGLE
    tolerance: Decimal | None = None
    unit: str | None = None

    def next_step(self, step: int) -> int | None:
        """The step after `step` for this draft's type; None after the last."""
        steps = _STEPS_OF[self.kind]
        following = steps.index(step) + 1
        return steps[following] if following < len(steps) else None

    def question_data(self, default_language: str) -> dict[str, Any]:
        """The question as bank data (without an id), translation included."""
        n = len(self.options)

        def localized(base: str, index: int) -> dict[str, str]:
            value = {default_language: base}
            if self.language and index < len(self.translated):
                value[self.language] = self.translated[index]
            return value

        data: dict[str, Any] = {"text": localized(self.text, 0)}
        if self.kind is not QuestionType.SINGLE:
            data["type"] = self.kind.value
        if self.kind in (QuestionType.SINGLE, QuestionType.MULTIPLE):
            data["options"] = [localized(option, 1 + i) for i, option in enumerate(self.options)]
        data["answer"] = _bank_value(self.answer)
        if self.tolerance is not None:
            data["tolerance"] = _bank_value(self.tolerance)
        if self.unit is not None:
            data["unit"] = {default_language: self.unit}
        if self.explanation is not None:
            data["explanation"] = localized(self.explanation, 1 + n)
        return data

    def take(self, step: int, text: str) -> Reply | None:
        """The answer to `step` put into the draft; or why it is refused (nothing changed)."""
        parsers: dict[int, Callable[[str], object]] = {
            TEXT: lambda text: check_text(text, MAX_QUESTION_LENGTH),
            OPTIONS: parse_options,
            ANSWER: self._parse_answer,
            TOLERANCE: parse_tolerance,
            UNIT: lambda text: check_text(text, MAX_UNIT_LENGTH),
            EXPLANATION: lambda text: check_text(text, MAX_EXPLANATION_LENGTH),
            TRANSLATION: lambda text: parse_translation(text, self),
        }
        value = parsers[step](text)
        if isinstance(value, Reply):
            return value
        if step == TRANSLATION:
            self.language, self.translated = cast(tuple[str, list[str]], value)
        else:
            names = ("text", "options", "answer", "tolerance", "unit", "explanation")
            setattr(self, names[step], value)
        return None

    def _parse_answer(self, text: str) -> object:
        match self.kind:
            case QuestionType.MULTIPLE:
                return parse_answers(text, len(self.options))
            case QuestionType.TRUE_FALSE:
                return parse_true_false(text)
            case QuestionType.NUMERIC:
                return parse_number(text)
            case QuestionType.TYPED:
                return parse_accepted(text)
        return parse_answer(text, len(self.options))

    def question(self, step: int) -> Reply:
        """What is asked for `step` (the text is asked by `/addquestion` itself)."""
        n = len(self.options)
        if step == ANSWER and self.kind is not QuestionType.SINGLE:
            return Reply(f"draft_answer_{self.kind.value}", {"last": letter(max(n, 1) - 1)})
        return {
            OPTIONS: Reply("draft_options"),
            ANSWER: Reply("draft_answer", {"last": letter(max(n, 1) - 1)}),
            TOLERANCE: Reply("draft_tolerance"),
            UNIT: Reply("draft_unit"),
            EXPLANATION: Reply("draft_explanation"),
            TRANSLATION: Reply("draft_translation", {"n": n}),
        }[step]


def _bank_value(value: object) -> object:
    """A draft's answer as a bank holds it (numbers as YAML reads them: int, else float)."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def check_text(text: str | None, limit: int) -> str | Reply:
    value = (text or "").strip()
    if not value:
        return Reply("draft_empty")
    if utf16_length(value) > limit:
        return Reply("draft_too_long", {"n": utf16_length(value), "limit": limit})
    return value


def parse_options(text: str | None) -> list[str] | Reply:
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    if not MIN_OPTIONS <= len(lines) <= MAX_OPTIONS:
        return Reply("draft_options_count", {"n": len(lines)})
    for line in lines:
        if utf16_length(line) > MAX_OPTION_LENGTH:
            return Reply("draft_too_long", {"n": utf16_length(line), "limit": MAX_OPTION_LENGTH})
    return lines


def parse_answer(text: str | None, options: int) -> int | Reply:
    """The right option: its letter, or its number from 1 in ASCII digits."""
    value = (text or "").strip().upper().rstrip(".")
    if len(value) == 1 and value in LETTERS[:options]:
        return LETTERS.index(value)
    number = ascii_number(value)
    if number is not None and 1 <= number <= options:
        return number - 1
    return Reply("draft_bad_answer", {"last": letter(options - 1)})


def parse_answers(text: str | None, options: int) -> list[int] | Reply:
    """The right options of a multiple question: letters (or numbers from 1), separated by
    commas or spaces; at least one, each once."""
    parts = [part for part in re.split(r"[\s,;]+", (text or "").strip()) if part]
    found = [parse_answer(part, options) for part in parts]
    if not found or any(isinstance(item, Reply) for item in found):
        return Reply("draft_bad_answers", {"last": letter(options - 1)})
    return sorted({cast(int, item) for item in found})


_TRUE = frozenset({"true", "t", "yes", "1", "òótọ́", "ootọ", "ooto", "bẹ́ẹ̀ni"})
_FALSE = frozenset({"false", "f", "no", "0", "irọ́", "irọ", "iro", "rárá"})


def parse_true_false(text: str | None) -> bool | Reply:
    value = unicodedata.normalize("NFC", (text or "").strip().rstrip(".").casefold())
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    return Reply("draft_bad_true_false")


def parse_number(text: str | None) -> Decimal | Reply:
    """A number as learners may write one (`14`, `14,5`, `1.4e1`), within a bank's range."""
    reading = read_number(text or "")
    if isinstance(reading, DigitGrouping):
        return Reply("draft_digit_grouping", {"number": reading.ungrouped})
    if not isinstance(reading, Number) or (
        reading.value and abs(reading.value.adjusted()) > MAX_NUMBER_EXPONENT
    ):
        return Reply("draft_not_a_number")
    return reading.value


def parse_tolerance(text: str | None) -> Decimal | Reply:
    value = parse_number(text)
    if isinstance(value, Decimal) and value < 0:
        return Reply("draft_bad_tolerance")
    return value


def parse_accepted(text: str | None) -> list[str] | Reply:
    """The accepted replies of a typed question, one a line."""
    lines = list(dict.fromkeys(line.strip() for line in (text or "").splitlines() if line.strip()))
    if not 1 <= len(lines) <= MAX_ACCEPTED_ANSWERS:
        return Reply("draft_accepted_count", {"got": len(lines), "n": MAX_ACCEPTED_ANSWERS})
    for line in lines:
        if utf16_length(line) > MAX_ACCEPTED_LENGTH:
            return Reply("draft_too_long", {"n": utf16_length(line), "limit": MAX_ACCEPTED_LENGTH})
        if not normalize(line):  # a bank refuses it: no reply could ever match it
            return Reply("draft_accepted_punctuation", {"text": echo(line)})
    return lines


def parse_translation(text: str | None, draft: Draft) -> tuple[str, list[str]] | Reply:
    """`code`, question, the options, optionally the explanation: one per line."""
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    n = len(draft.options)
    wanted = {1 + 1 + n} | ({2 + 1 + n} if draft.explanation is not None else set())
    if len(lines) not in wanted:
        return Reply("draft_bad_translation", {"n": n})
    code = lines[0].lower()
    if not LANGUAGE_CODE.match(code):
        return Reply("draft_bad_language", {"code": echo(lines[0])})
    limits = [MAX_QUESTION_LENGTH] + [MAX_OPTION_LENGTH] * n + [MAX_EXPLANATION_LENGTH]
    for line, limit in zip(lines[1:], limits, strict=False):
        if utf16_length(line) > limit:
            return Reply("draft_too_long", {"n": utf16_length(line), "limit": limit})
    return code, lines[1:]


async def draft_result(services: Services, draft: Draft) -> BankResult:
    """The quiz with the draft added, validated like a bank on disk (nothing stored)."""
    quiz = services.catalog.get(draft.quiz_id)
    if quiz is None:
        return BankResult(draft.quiz_id, None, (f"quiz {draft.quiz_id} no longer exists",))
    taken = await services.storage.content.known_question_ids(quiz.id)
    data = draft.question_data(_default(services))
    # validated and written as YAML like a whole bank: CPU work for a large quiz
    return await asyncio.to_thread(add_question, quiz, data, taken, _default(services))


async def save_draft(services: Services, draft: Draft, admin_id: int) -> BankResult:
    """Validate against the quiz as it is now, store, and put it into the catalog."""
    async with services.locks.bank:
        return await _save_draft(services, draft, admin_id)


async def _save_draft(services: Services, draft: Draft, admin_id: int) -> BankResult:
    result = await draft_result(services, draft)
    if result.quiz is None:
        return result
    added = result.quiz.questions[-1]
    await services.storage.content.save_bank(
        result.quiz.id,
        await asyncio.to_thread(dump_bank, result.quiz),
        admin_id,
        services.clock(),
        "add_question",
        {"question": added.id},
        pictures=await bank_pictures(services, result.quiz),
    )
    services.catalog.put(result.quiz)
    return result


# quiz polls collected (/collect ... /done)


async def save_collection(
    services: Services, collection: Collection, admin_id: int
) -> tuple[BankResult, list[Question]]:
    """Add the collected questions to the quiz as it is now: validated, stored with new ids
    and one audit entry, put into the catalog; or the errors (nothing stored)."""
    async with services.locks.bank:
        quiz = services.catalog.get(collection.quiz_id)
        if quiz is None:
            missing = f"quiz {collection.quiz_id} no longer exists"
            return BankResult(collection.quiz_id, None, (missing,)), []
        taken = await services.storage.content.known_question_ids(quiz.id)
        result = await asyncio.to_thread(
            add_questions, quiz, collection.questions, taken, _default(services)
        )
        if result.quiz is None:
            return result, []
        added = list(result.quiz.questions[len(quiz.questions) :])
        await services.storage.content.save_bank(
            quiz.id,
            await asyncio.to_thread(dump_bank, result.quiz),
            admin_id,
            services.clock(),
            "collect",
            {"questions": [q.id for q in added]},
            pictures=await bank_pictures(services, result.quiz),
        )
        services.catalog.put(result.quiz)
        return result, added


# retiring


async def retire(services: Services, quiz: Quiz, question_id: str, admin_id: int) -> Quiz:
    """Retire a question: stored, audited, out of the catalog; answers stay where they are."""
    async with services.locks.bank:
        current = services.catalog.get(quiz.id) or quiz
        return await _retire(services, current, question_id, admin_id)


async def _retire(services: Services, quiz: Quiz, question_id: str, admin_id: int) -> Quiz:
    smaller, gone = retire_question(quiz, question_id)
    default = _default(services)
    await services.storage.content.save_bank(
        quiz.id,
        await asyncio.to_thread(dump_bank, smaller),
        admin_id,
        services.clock(),
        "retire",
        {"question": question_id},
        retired=[(question_id, gone.text.get(default, default))],
        pictures=await bank_pictures(services, smaller),
    )
    services.catalog.put(smaller)
    return smaller


# statistics


async def stats(services: Services, locale: Locale) -> list[str]:
    store = services.storage.content
    return render.stats_messages(
        list(services.catalog),
        await store.learner_count(),
        await store.quiz_totals(),
        await store.question_stats(),
        await store.retired(),
        locale,
        await store.wrong_replies(),
        await store.questions_with_credit(),
    )
