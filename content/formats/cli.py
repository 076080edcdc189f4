"""The files side of `python -m content convert` and `template`: read the input (alone, or a
`.zip` with its images), convert, write the output with its images beside it (or all in a
`.zip`), and say what was skipped, dropped or wrong, one line each."""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from pathlib import Path

from content.formats.base import (
    ConversionError,
    ReadOptions,
    WriteOptions,
    check_language,
    check_quiz_id,
)
from content.formats.convert import Loaded, read_bundle_quiz, read_quiz, too_big, write_quiz
from content.formats.registry import FORMATS, input_format, output_format
from content.formats.xlsx_sheet import template
from content.images import BundleImages, FolderImages, image_location
from content.loader import EVERYTHING, parse_bank

MAX_INPUT_BYTES = 20 * 1024 * 1024  # a bundle's limit: nothing bigger is read


def _read_input(path: Path, options: ReadOptions, given: str | None) -> Loaded:
    try:
        size = path.stat().st_size
    except OSError as error:
        raise ConversionError([f"{path}: cannot read ({error.strerror})"]) from None
    if path.suffix.lower() == ".zip":
        if size > MAX_INPUT_BYTES:
            raise ConversionError([f"{path.name}: {size:,} bytes; a .zip may have at most 20 MiB"])
        return read_bundle_quiz(path.read_bytes(), options, given)
    fmt = input_format(path, given)
    if size > fmt.max_bytes:  # said before the file is read
        raise ConversionError([f"{path.name}: {too_big(size, fmt)}"])
    return read_quiz(path.read_bytes(), fmt, options, FolderImages(path.parent))


def _write_beside(output: Path, data: bytes, images: Mapping[str, bytes]) -> None:
    output.parent.mkdir(parents=True, exist_ok=True)
    for location, image in images.items():
        target = output.parent / image_location(location)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(image)
    temporary = output.with_name(output.name + ".part")
    temporary.write_bytes(data)
    os.replace(temporary, output)


def run_convert(args: argparse.Namespace) -> int:
    input_path: Path = args.input
    output: Path = args.output
    try:
        language = check_language(args.language)
        if args.quiz_id is not None:
            check_quiz_id(args.quiz_id)
        if input_path.resolve() == output.resolve():
            raise ConversionError(["the output would overwrite the input"])
        bundled = output.suffix.lower() == ".zip"
        target = output_format(output, args.target_format or ("yaml" if bundled else None))
        options = ReadOptions(
            language=language,
            quiz_id=args.quiz_id,
            title=args.title,
            skip_unsupported=args.skip_unsupported,
            name=input_path.name,
        )
        loaded = _read_input(input_path, options, args.source_format)
        result = write_quiz(loaded.quiz, loaded.images, target, WriteOptions(language))
        if target.name == "yaml":  # the canonical form must read back as itself
            check = parse_bank(
                result.data,
                str(output),
                language,
                images=BundleImages(result.images),
                accepts=EVERYTHING,
            )
            assert check.quiz == loaded.quiz, "the written YAML does not read back the same"
    except ConversionError as error:
        for problem in error.problems:
            print(f"error {input_path.name}: {problem}")
        if error.good_questions:
            good = _count(error.good_questions, "question")
            print(
                f"hint  {input_path.name}: --skip-unsupported converts the {good} that can be "
                "taken and lists the rest"
            )
        return 1
    for line in loaded.skipped:
        print(f"skip  {input_path.name}: {line}")
    for line in (*loaded.warnings, *result.warnings):
        print(f"warn  {input_path.name}: {line}")
    if bundled:
        name = f"{output.stem}{target.extension}"
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_bytes(result.bundled(name))
    else:
        _write_beside(output, result.data, result.images)
    quiz = loaded.quiz
    counted = _count(len(quiz), "question") + (
        f", {_count(len(result.images), 'image')}" if result.images else ""
    )
    print(f"ok    {output}: {quiz.id}, {counted} ({FORMATS[target.name].label})")
    return 0


def _count(number: int, what: str) -> str:
    return f"{number} {what}{'' if number == 1 else 's'}"


def run_template(output: Path) -> int:
    if output.suffix.lower() != ".xlsx":
        print(f"error {output.name}: the template is an .xlsx file")
        return 1
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_bytes(template())
    print(f"ok    {output}: a sheet to fill (one example row per question type)")
    return 0
