"""One converter for the CLI and the bot: bytes of any input format (alone, or in a `.zip`
with its images) to a validated quiz, and a quiz to bytes of any output format.

Reading is: the size first, then the format's reader (a `Draft` with what it found wrong),
then the same validation as a YAML bank (content/loader.check_bank), whose errors name the
question and, for other formats, where it is in the source. Every problem of a file is said
in one run, in the file's order; with `skip_unsupported` every question that cannot be taken,
whatever the reason, is left out and listed. Nothing here touches the disk: images come from
an ImageSource (a folder, a bundle) and go back as bytes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from posixpath import basename
from typing import Any

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
from content.formats.registry import FORMATS, Format, bundle_main_format, bundle_mains
from content.images import BundleImages, ImageError, ImageSource, NoImages
from content.loader import EVERYTHING, MAX_BANK_BYTES, Accepts, check_bank, question_label
from content.model import Quiz

_BANK_FIELD = re.compile(r"^field ([a-z_]+)")


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
    bank = draft.bank
    if options.quiz_id:
        bank["id"] = options.quiz_id
        draft.field_origins.pop("id", None)
    if options.title:
        bank["title"] = options.title
        draft.field_origins.pop("title", None)
    assumed = tuple(key for key in ("id", "title", "level") if key not in bank)
    bank.setdefault("title", title_from(options.name))
    bank.setdefault("id", quiz_id_from(title_from(options.name)))
    bank.setdefault("level", "medium")
    if "questions" in bank:  # not a list: the schema says what is wrong with it
        result = check_bank(bank, options.name, options.language, images=images, accepts=accepts)
        if result.quiz is None:
            raise ConversionError(result.errors)
        loaded = Loaded(result.quiz, result.images, tuple(draft.warnings) + result.warnings)
        return replace(_fitting(loaded), assumed=assumed)
    assign_ids(draft)
    skip = options.skip_unsupported
    loaded = validated(draft, options.name, options.language, skip, images, accepts)
    return replace(_fitting(loaded), assumed=assumed)


def validated(
    draft: Draft,
    source: str,
    language: str,
    skip: bool,
    images: ImageSource | None = None,
    accepts: Accepts = EVERYTHING,
) -> Loaded:
    """The draft's quiz, validated as a bank; every question the reader or the validator
    found wrong is left out and listed when `skip`, else the file is refused with every
    problem. A problem of the quiz's own fields (or of the file's structure) refuses it.
    Whether the bank fits as YAML is the caller's to check, on the YAML it writes."""
    kept = list(range(len(draft.questions)))
    failed: dict[int, list[str]] = {}  # a drafted question's index → its errors, placed
    bank_errors: list[str] = []
    result = None
    while kept:
        raw = {**draft.bank, "questions": [draft.questions[index] for index in kept]}
        result = check_bank(raw, source, language, images=images, accepts=accepts)
        if result.quiz is not None:
            break
        about = result.error_questions or (None,) * len(result.errors)
        newly = False
        for error, index in zip(result.errors, about, strict=True):
            if index is None or index >= len(kept):
                origins = draft.field_origins
                bank_errors.append(_bank_placed(error, origins) if origins else error)
                continue
            drafted = kept[index]
            failed.setdefault(drafted, []).append(_placed(error, raw, index, draft, drafted))
            newly = True
        if bank_errors or not newly:
            break
        kept = [index for index in kept if index not in failed]
    # what the reader found and what the validator found about drafted questions, merged in
    # the file's order (a reader's problem stands after the questions drafted before it),
    # with one entry per question that cannot be taken
    everything: list[str] = []
    skipped: list[list[str]] = []
    reader_groups: dict[int, list[str]] = {}
    invalid = sorted(failed)
    said = 0  # of `invalid`
    file_errors = False
    for problem in draft.problems.found:
        while said < len(invalid) and invalid[said] < problem.drafted:
            everything.extend(failed[invalid[said]])
            skipped.append(failed[invalid[said]])
            said += 1
        text = str(problem)
        everything.append(text)
        if problem.question is None:
            file_errors = True
        elif problem.question in reader_groups:
            reader_groups[problem.question].append(text)
        else:
            reader_groups[problem.question] = [text]
            skipped.append(reader_groups[problem.question])
    for index in invalid[said:]:
        everything.extend(failed[index])
        skipped.append(failed[index])
    if bank_errors or file_errors:
        raise ConversionError([*bank_errors, *everything])
    if not skipped:
        if result is None or result.quiz is None:
            raise ConversionError(["no questions found"])
        return Loaded(result.quiz, result.images, tuple(draft.warnings) + result.warnings)
    good = len(kept) if result is not None and result.quiz is not None else 0
    if not skip:
        raise ConversionError(everything, good_questions=good)
    if result is None or result.quiz is None:
        raise ConversionError([*everything, f"no question can be taken ({len(skipped)} skipped)"])
    listed = tuple("; ".join(texts) for texts in skipped)
    return Loaded(result.quiz, result.images, tuple(draft.warnings) + result.warnings, listed)


def _fitting(loaded: Loaded) -> Loaded:
    """The quiz, if it fits a bank as /import and `validate` would take it."""
    size = len(dump_bank(loaded.quiz).encode())
    if size > MAX_BANK_BYTES:
        raise ConversionError(
            [f"the bank would take {size:,} bytes as YAML; a bank has at most {MAX_BANK_BYTES:,}"]
        )
    return loaded


def _placed(error: str, raw: dict[str, Any], index: int, draft: Draft, drafted: int) -> str:
    """A validation error about question `index` of `raw` (the draft's question `drafted`),
    placed where that question is in the source (as the whole draft counts, for YAML)."""
    label = question_label(raw, index)
    if not error.startswith(label):
        return error
    origin = draft.origins[drafted] or question_label({"questions": draft.questions}, drafted)
    return origin + error[len(label) :]


def _bank_placed(error: str, field_origins: Mapping[str, str]) -> str:
    """A validation error about the quiz's own fields, with the place of the field."""
    match = _BANK_FIELD.match(error)
    origin = field_origins.get(match.group(1)) if match else None
    return f"{origin}, {error}" if origin else error


def read_bundle_quiz(
    data: bytes, options: ReadOptions, given: str | None = None, accepts: Accepts = EVERYTHING
) -> Loaded:
    """A quiz in a `.zip` bundle: one file of an input format and its images."""
    try:
        bundle = read_bundle(data, bundle_mains())
    except BundleError as error:
        raise ConversionError([str(error)]) from None
    fmt = bundle_main_format(bundle.bank_name, bundle.bank, given)
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
