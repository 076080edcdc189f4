"""One converter for the CLI and the bot: bytes of any input format (alone, or in a `.zip`
with its images) to a validated quiz, and a quiz to bytes of any output format.

Reading is: the size first, then the format's reader (a `Draft`, or ConversionError with
the places), then the same validation as a YAML bank (content/loader.check_bank), whose
errors name the question and, for other formats, where it is in the source. Nothing here
touches the disk: images come from an ImageSource (a folder, a bundle) and go back as bytes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from posixpath import basename

from content.bundle import BundleError, read_bundle, write_bundle
from content.export import dump_bank
from content.formats.base import (
    ConversionError,
    Draft,
    ReadOptions,
    WriteOptions,
    assign_ids,
    quiz_id_from,
    title_from,
)
from content.formats.registry import FORMATS, Format, bundle_mains, format_of
from content.images import BundleImages, ImageError, ImageSource, NoImages
from content.loader import EVERYTHING, MAX_BANK_BYTES, Accepts, check_bank
from content.model import Quiz

_QUESTION_PLACE = re.compile(r"^question .*? \(#(\d+)\)")


@dataclass(frozen=True)
class Loaded:
    """A converted quiz: validated, with the bytes of its image files by their path, and what
    the conversion skipped (--skip-unsupported) or could not keep (warnings)."""

    quiz: Quiz
    images: Mapping[str, bytes] = field(default_factory=dict, repr=False)
    warnings: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()
    assumed: tuple[str, ...] = ()  # the quiz's fields the file did not give: id, title, level


@dataclass(frozen=True)
class _Carried:
    """The images an input carried itself (Moodle XML), else those of where it came from."""

    carried: Mapping[str, bytes]
    rest: ImageSource

    def read(self, location: str) -> bytes:
        if location in self.carried:
            return self.carried[location]
        return self.rest.read(location)


def read_quiz(
    data: bytes,
    fmt: Format,
    options: ReadOptions,
    images: ImageSource | None = None,
    accepts: Accepts = EVERYTHING,
) -> Loaded:
    """The quiz in `data`, read as `fmt`; ConversionError lists what is wrong and where."""
    if fmt.reader is None:
        raise ConversionError([f"{fmt.label} is written, not read"])
    if len(data) > fmt.max_bytes:
        raise ConversionError([too_big(len(data), fmt)])
    draft = fmt.reader(data, options)
    return _validated(draft, options, _Carried(draft.images, images or NoImages()), accepts)


def too_big(size: int, fmt: Format) -> str:
    article = "an" if fmt.label[0] in "AEIOU" else "a"
    return f"{size:,} bytes; {article} {fmt.label} file may have at most {fmt.max_bytes:,} bytes"


def _validated(draft: Draft, options: ReadOptions, images: ImageSource, accepts: Accepts) -> Loaded:
    bank = dict(draft.bank)
    if options.quiz_id:
        bank["id"] = options.quiz_id
    if options.title:
        bank["title"] = options.title
    assumed = tuple(key for key in ("id", "title", "level") if key not in bank)
    bank.setdefault("title", title_from(options.name))
    bank.setdefault("id", quiz_id_from(title_from(options.name)))
    bank.setdefault("level", "medium")
    if "questions" not in bank:
        if not draft.questions:
            found = f" ({len(draft.skipped)} skipped)" if draft.skipped else ""
            raise ConversionError([f"no questions found{found}"])
        assign_ids(draft)
        bank["questions"] = draft.questions
    source = options.name
    result = check_bank(bank, source, options.language, images=images, accepts=accepts)
    if result.quiz is None:
        raise ConversionError([_placed(error, draft.origins) for error in result.errors])
    size = len(dump_bank(result.quiz).encode())
    if size > MAX_BANK_BYTES:  # what /import and `validate` would refuse
        raise ConversionError(
            [f"the bank would take {size:,} bytes as YAML; a bank has at most {MAX_BANK_BYTES:,}"]
        )
    return Loaded(
        result.quiz,
        result.images,
        tuple(draft.warnings) + result.warnings,
        tuple(draft.skipped),
        assumed,
    )


def _placed(error: str, origins: list[str]) -> str:
    """A validation error with the question's place in the source, when known."""
    match = _QUESTION_PLACE.match(error)
    if match is None:
        return error
    index = int(match.group(1)) - 1
    origin = origins[index] if 0 <= index < len(origins) else ""
    return f"{origin}, {error}" if origin else error


def read_bundle_quiz(
    data: bytes, options: ReadOptions, given: str | None = None, accepts: Accepts = EVERYTHING
) -> Loaded:
    """A quiz in a `.zip` bundle: one file of an input format and its images."""
    try:
        bundle = read_bundle(data, bundle_mains())
    except BundleError as error:
        raise ConversionError([str(error)]) from None
    fmt = format_of(bundle.bank_name, given)
    named = ReadOptions(
        language=options.language,
        quiz_id=options.quiz_id,
        title=options.title,
        skip_unsupported=options.skip_unsupported,
        name=basename(bundle.bank_name),
    )
    return read_quiz(bundle.bank, fmt, named, BundleImages(bundle.images), accepts)


@dataclass(frozen=True)
class Output:
    """A converted file and the images that travel beside it (empty when the format embeds
    them or cannot hold them), with what the format could not carry."""

    data: bytes
    images: Mapping[str, bytes]
    warnings: tuple[str, ...]

    def bundled(self, name: str) -> bytes:
        """The file and its images as one `.zip` (content/bundle.py reads it back)."""
        return write_bundle(name, self.data, self.images)


def write_quiz(
    quiz: Quiz, images: Mapping[str, bytes], fmt: Format, options: WriteOptions
) -> Output:
    if fmt.writer is None:
        raise ConversionError([f"{fmt.label} is read, not written"])
    try:
        written = fmt.writer(quiz, images, options)
    except ImageError as error:
        raise ConversionError([str(error)]) from None
    return Output(written.data, written.images, written.warnings)


__all__ = ["FORMATS", "Loaded", "Output", "read_bundle_quiz", "read_quiz", "write_quiz"]
