"""`python -m content validate <path>...`: check banks exactly as the bot does."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from content.loader import bank_files, load_banks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m content")
    commands = parser.add_subparsers(dest="command", required=True)
    validate = commands.add_parser("validate", help="validate bank files or folders of banks")
    validate.add_argument("paths", nargs="+", type=Path)
    validate.add_argument("--default-language", default="en")
    args = parser.parse_args(argv)

    files: list[Path] = []
    for path in args.paths:
        files.extend(bank_files(path) if path.is_dir() else [path])
    failed = 0
    for result in load_banks(files, args.default_language):
        if result.quiz is not None:
            print(f"ok    {result.source}: {result.quiz.id}, {len(result.quiz)} questions")
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
