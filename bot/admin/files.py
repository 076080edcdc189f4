"""The files admins send and get: which format a document is, how large it may be, and the
quiz read from it or written into it. Pure (no Telegram): bytes in, a checked bank or a file
out, so that it runs in a worker thread and tests call it without a bot.

One converter for the CLI and the bot (content/formats/): a document's format is its
extension (a `.txt` is Aiken: the bot has nothing else a text file could be), a `.zip` is a
bundle of any input format and its images. Our YAML keeps the bank loader's rules (a bank
without an id is an error, not named after its file) and, like every format, has its broken
questions left out and listed when the admin asks to skip them.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from content.bundle import MAX_BUNDLE_BYTES, BundleError, read_bundle
from content.export import dump_bank
from content.formats.base import ConversionError, Draft, ReadOptions, WriteOptions
from content.formats.convert import Loaded, read_quiz, validated, write_quiz
from content.formats.registry import (
    FORMATS,
    INPUT_FORMATS,
    Format,
    bundle_main_format,
    bundle_mains,
)
from content.images import BundleImages, ImageError, ImageSource
from content.loader import (
    MAX_BANK_BYTES,
    PLAYABLE,
    Accepts,
    BankResult,
    check_bank,
    parse_bank,
)
from content.model import Quiz
from content.safe_yaml import BankYamlError, load_bank_yaml

# Telegram lets a bot download files of at most 20 MB: no input may be larger, whatever its
# format allows (Moodle XML allows 28 MiB for the images it carries in base64).
MAX_DOWNLOAD_BYTES = MAX_BUNDLE_BYTES
BUNDLE = ".zip"
MAX_SEND_BYTES = 50 * 1000 * 1000  # what Telegram takes from a bot in sendDocument

# What /import takes: what the bot can play, pictures included (kept in SQLite with the bank,
# storage/media_store.py).
IMPORTABLE = PLAYABLE


@dataclass(frozen=True)
class Kind:
    """What a document is, by its name: a format, or a bundle (`fmt` None)."""

    label: str
    max_bytes: int
    fmt: Format | None = None


def kind_of(name: str) -> Kind | None:
    """The kind of a document named `name`, or None when no input format has its extension."""
    suffix = posixpath.splitext(name.lower())[1]
    if suffix == BUNDLE:
        return Kind(".zip", MAX_BUNDLE_BYTES)
    if suffix == ".txt":
        return _kind(FORMATS["aiken"])
    for fmt in FORMATS.values():
        if suffix in fmt.extensions and fmt.reader is not None:
            return _kind(fmt)
    return None


def _kind(fmt: Format) -> Kind:
    return Kind(fmt.label, min(fmt.max_bytes, MAX_DOWNLOAD_BYTES), fmt)


def input_extensions() -> list[str]:
    """The extensions /import takes, for the refusal of another one."""
    found = [ext for name in INPUT_FORMATS for ext in FORMATS[name].extensions]
    return [*dict.fromkeys(found), BUNDLE]


@dataclass(frozen=True)
class CheckedUpload:
    result: BankResult  # the quiz, or every error with its place
    stored: str | None  # the bank as canonical YAML, as it will be stored, when valid
    warnings: tuple[str, ...] = ()  # what the conversion could not keep
    skipped: tuple[str, ...] = ()  # the questions `/import skip` left out, with why
    # refused: how many questions `/import skip` would take (none: skipping cannot help)
    good_questions: int | None = None
    assumed: tuple[str, ...] = ()  # the quiz's fields the file did not give (id, title, level)

    @property
    def quiz(self) -> Quiz | None:
        return self.result.quiz


def check_upload(
    data: bytes,
    name: str,
    kind: Kind,
    default_language: str,
    skip_unsupported: bool = False,
    accepts: Accepts = IMPORTABLE,
) -> CheckedUpload:
    """Read an uploaded document of `kind`, validated as a bank, and write it as it would be
    stored (CPU work: run it in a worker thread). Never raises for any input."""
    options = ReadOptions(language=default_language, skip_unsupported=skip_unsupported, name=name)
    try:
        if kind.fmt is None:
            return _bundle(data, name, options, accepts)
        return _read(data, name, kind.fmt, options, None, accepts)
    except ConversionError as error:
        return CheckedUpload(
            BankResult(name, None, error.problems), None, good_questions=error.good_questions
        )


def _bundle(data: bytes, name: str, options: ReadOptions, accepts: Accepts) -> CheckedUpload:
    try:
        bundle = read_bundle(data, bundle_mains())
    except BundleError as error:
        return CheckedUpload(BankResult(name, None, (str(error),)), None)
    fmt = bundle_main_format(bundle.bank_name, bundle.bank)  # as the converter reads a .zip
    inner = ReadOptions(
        language=options.language,
        skip_unsupported=options.skip_unsupported,
        name=posixpath.basename(bundle.bank_name),
    )
    source = f"{name}: {bundle.bank_name}"
    return _read(bundle.bank, source, fmt, inner, BundleImages(bundle.images), accepts)


def _read(
    data: bytes,
    source: str,
    fmt: Format,
    options: ReadOptions,
    images: ImageSource | None,
    accepts: Accepts,
) -> CheckedUpload:
    if fmt.name == "yaml":
        return _yaml(data, source, options, images, accepts)
    loaded = read_quiz(data, fmt, options, images, accepts)
    return CheckedUpload(
        BankResult(source, loaded.quiz, images=loaded.images),
        dump_bank(loaded.quiz),
        loaded.warnings,
        loaded.skipped,
        assumed=loaded.assumed,
    )


def _yaml(
    data: bytes, source: str, options: ReadOptions, images: ImageSource | None, accepts: Accepts
) -> CheckedUpload:
    """Our YAML with the loader's rules; its questions checked one by one as the converter
    checks any format's, so that `/import skip` leaves out the broken ones."""
    if len(data) > MAX_BANK_BYTES:  # the loader's words for it
        return CheckedUpload(parse_bank(data, source, options.language), None)
    try:
        raw = load_bank_yaml(data)
    except BankYamlError as error:
        return CheckedUpload(BankResult(source, None, (str(error),)), None)
    questions = raw.get("questions") if isinstance(raw, dict) else None
    if not isinstance(raw, dict) or not isinstance(questions, list):  # the loader says why
        result = check_bank(raw, source, options.language, images=images, accepts=accepts)
        return CheckedUpload(result, dump_bank(result.quiz) if result.quiz is not None else None)
    draft = Draft(bank={key: value for key, value in raw.items() if key != "questions"})
    for question in questions:
        draft.add(question, "")
    loaded: Loaded = validated(
        draft, source, options.language, options.skip_unsupported, images, accepts
    )
    return CheckedUpload(
        BankResult(source, loaded.quiz, images=loaded.images),
        dump_bank(loaded.quiz),
        skipped=loaded.skipped,
    )


@dataclass(frozen=True)
class ExportFile:
    name: str
    data: bytes
    warnings: tuple[str, ...]


def export_file(quiz: Quiz, images: ImageSource, fmt: Format, language: str) -> ExportFile:
    """The quiz as a file of `fmt`: a `.zip` of the file and its images where they travel
    beside it. ConversionError names what stops it (an image file that cannot be read)."""
    named = sorted({i.location for q in quiz.questions for i in q.images if not i.is_url})
    found, missing = {}, []
    for location in named:
        try:
            found[location] = images.read(location)
        except ImageError as error:
            missing.append(f"{location}: {error}")
    if missing:
        raise ConversionError(missing)
    output = write_quiz(quiz, found, fmt, WriteOptions(language))
    name = f"{quiz.id}{fmt.extension}"
    if fmt.images_beside and output.images:
        return ExportFile(f"{quiz.id}.zip", output.bundled(name), output.warnings)
    return ExportFile(name, output.data, output.warnings)
