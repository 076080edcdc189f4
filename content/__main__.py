"""`python -m content validate <path>...`: check banks exactly as the bot does, with every type
and feature of the format (what the bot cannot play yet is said, not refused).
`python -m content convert INPUT OUTPUT`: between our YAML and GIFT, Aiken, Moodle XML, CSV,
Excel and Anki (content/formats/). `python -m content template quiz.xlsx`: a sheet to fill."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from content.exams import draw
from content.formats.cli import run_convert, run_template
from content.formats.registry import INPUT_FORMATS, OUTPUT_FORMATS
from content.loader import EVERYTHING, IN_GROUPS, PLAYABLE, Accepts, bank_files, load_banks
from content.model import Quiz


def _missing(quiz: Quiz, accepts: Accepts) -> list[str]:
    parts = sorted({str(question.type) for question in quiz.questions} - set(accepts.types))
    if not accepts.images and any(question.images for question in quiz.questions):
        parts.append("images")
    return parts


def _exam_note(quiz: Quiz) -> str:
    """What the bank's exam block makes of it: the paper's size and time limit."""
    if quiz.exam is None:
        return ""
    paper = draw(quiz, quiz.exam, seed=0)
    sections = f" from {len(paper.parts)} sections" if paper.sectioned else ""
    minutes = f"{paper.seconds / 60:g}"
    return f"; exam: {len(paper.items)} questions drawn{sections}, {minutes} minutes"


def _not_playable(quiz: Quiz) -> str:
    notes = []
    if parts := _missing(quiz, PLAYABLE):
        notes.append(f"the bot cannot play yet: {', '.join(parts)}")
    if parts := _missing(quiz, IN_GROUPS):
        notes.append(f"groups skip: {', '.join(parts)}")
    return f" ({'; '.join(notes)})" if notes else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m content")
    commands = parser.add_subparsers(dest="command", required=True)
    validate = commands.add_parser("validate", help="validate bank files or folders of banks")
    validate.add_argument("paths", nargs="+", type=Path)
    validate.add_argument("--default-language", default="en")
    convert = commands.add_parser(
        "convert", help="convert a quiz between formats (by extension, or --from/--to)"
    )
    convert.add_argument("input", type=Path)
    convert.add_argument("output", type=Path)
    convert.add_argument("--from", dest="source_format", metavar="FORMAT", choices=INPUT_FORMATS)
    convert.add_argument("--to", dest="target_format", metavar="FORMAT", choices=OUTPUT_FORMATS)
    convert.add_argument("--id", dest="quiz_id", help="the quiz id (default: from the file name)")
    convert.add_argument("--title", help="the quiz title (default: from the file or its name)")
    convert.add_argument(
        "--language", default="en", help="the language of texts without one (default: en)"
    )
    convert.add_argument(
        "--skip-unsupported",
        action="store_true",
        help="convert what can be represented and list what was skipped",
    )
    template = commands.add_parser("template", help="write an .xlsx template to fill")
    template.add_argument("output", type=Path)
    args = parser.parse_args(argv)
    if args.command == "convert":
        return run_convert(args)
    if args.command == "template":
        return run_template(args.output)

    files: list[Path] = []
    for path in args.paths:
        files.extend(bank_files(path) if path.is_dir() else [path])
    failed = 0
    for result in load_banks(files, args.default_language, EVERYTHING):
        for warning in result.warnings:
            print(f"warn  {result.source}: {warning}")
        if result.quiz is not None:
            quiz = result.quiz
            print(
                f"ok    {result.source}: {quiz.id}, {len(quiz)} questions"
                f"{_exam_note(quiz)}{_not_playable(quiz)}"
            )
            continue
        failed += 1
        for error in result.errors:
            print(f"error {result.source}: {error}")
    if not files:
        print("error: no .yaml banks found")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
