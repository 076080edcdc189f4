"""An admin's /import at the edges: a refusal with hundreds of errors is a short report
and a file, not a flood."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bot.app import QuizApplication
from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser
from tests.support.admin import SMALL_BANK, failed_calls, seed_banks, upload
from tests.support.formats import HERE
from tests.support.harness import make_settings
from tests.support.learner import Learner

ADMIN = FakeUser(960, "Ade", "en")


@pytest.fixture
def settings(api: FakeBotApi, db_path: Path, tmp_path: Path) -> Settings:
    banks = seed_banks(tmp_path)
    return make_settings(api, db_path, content_dir=banks, admin_ids=frozenset({ADMIN.id}))


# item 14: a refusal with hundreds of errors


def bank_with_errors(count: int) -> str:
    questions = [
        {"id": f"e{i}", "text": f"Question {i}?", "options": ["only one"], "answer": 0}
        for i in range(count)
    ]
    return yaml.safe_dump(
        {"id": "errors", "title": "Errors", "level": "easy", "questions": questions}
    )


async def test_a_bank_with_500_errors_gets_a_short_report_and_the_full_list_as_a_file(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    seen = len(api.bot_messages(ADMIN.id))
    api.upload(ADMIN, bank_with_errors(500).encode(), "errors.yaml", caption="/import")
    document = await api.wait_for(
        lambda: next((m for m in api.bot_messages(ADMIN.id)[seen:] if m.document), None)
    )
    await api.wait_until_polled()
    sent = api.bot_messages(ADMIN.id)[seen:]
    assert len(sent) <= 3, [m.text[:80] for m in sent]
    report = "\n".join(m.text for m in sent if not m.document)
    assert "errors.yaml was refused; nothing was changed. Errors (500):" in report
    assert "question e0 (#1), field options: List should have at least 2 items" in report
    assert "question e29 (#30)" in report and "question e30 (#31)" not in report
    assert "… and 470 more" in report
    listing = api.file_content(document.document or {}).decode()
    assert len(listing.splitlines()) == 500
    assert "question e499 (#500), field options" in listing.splitlines()[-1]
    assert (
        document.document is not None and document.document["file_name"] == "errors.yaml.errors.txt"
    )
    assert failed_calls(api) == []


async def test_a_bank_with_few_errors_gets_them_all_in_one_message_and_no_file(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    seen = len(api.bot_messages(ADMIN.id))
    await upload(api, ADMIN, bank_with_errors(3), "Errors (3)", "three.yaml")
    await api.wait_until_polled()
    sent = api.bot_messages(ADMIN.id)[seen:]
    assert len(sent) == 1 and sent[0].document is None
    assert "question e2 (#3)" in sent[0].text and "more" not in sent[0].text


GIFT_WITHOUT_TITLE = """::q1:: Two plus two? {=four ~three ~five}

::q2:: The sky is blue. {T}
"""


async def test_an_import_says_what_it_assumed_and_offers_the_next_steps(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    report = await upload(api, ADMIN, GIFT_WITHOUT_TITLE, "imported", "week-3.gift")
    assert "Assumed, as the file does not say:" in report.text
    assert "the id week-3, from the file's name" in report.text
    assert "the title “week-3”, from the file's name" in report.text
    assert "the level medium" in report.text
    steps = await api.wait_for_bot_message(ADMIN.id, "What next for")
    assert [b["text"] for b in steps.buttons] == [
        "▶️ Try it", "📣 Post to a group", "📝 Set as homework", "📦 Export",
    ]  # fmt: skip
    admin = Learner(api, ADMIN)
    seen = len(admin.messages())
    await admin.tap(steps, steps.button_data()[2])  # set as homework: its options, in place
    await api.wait_for(lambda: "until when" in api.messages[(ADMIN.id, steps.message_id)].text)
    steps = await upload(api, ADMIN, GIFT_WITHOUT_TITLE + "\n::q3:: One? {=one ~two}\n", "What next",
                         "week-3.gift")  # fmt: skip
    await admin.tap(steps, steps.button_data()[0])  # try it
    await api.wait_for_bot_message(ADMIN.id, "Question 1 of 3", after=seen)
    # a bank with its own fields assumes nothing
    yaml_report = await upload(api, ADMIN, SMALL_BANK, "imported", "small.yaml")
    assert "Assumed" not in yaml_report.text


async def test_a_refusal_numbers_its_errors(api: FakeBotApi, bot: QuizApplication) -> None:
    data = (HERE / "unsupported.gift").read_bytes()
    refusal = await upload(api, ADMIN, data, "was refused", "unsupported.gift")
    assert "Errors (4):" in refusal.text
    assert "1. line 4 ::match::" in refusal.text and "4. line 10:" in refusal.text
    assert "5." not in refusal.text  # what to do about them is no error of its own
