"""What the content tests ask of a bank that was loaded or parsed."""

from __future__ import annotations

from content.loader import BankResult


def the_only_error(result: BankResult) -> str:
    """The one error that refused the bank."""
    assert result.quiz is None
    assert len(result.errors) == 1, result.errors
    return result.errors[0]
