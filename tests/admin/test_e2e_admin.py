"""Admins end to end: real Application, real HTTP (documents both ways), real SQLite."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.app import QuizApplication
from bot.config import DEFAULT_CONTENT_DIR, Settings
from bot.sandbox import FakeBotApi, FakeUser, Message
from content.loader import MAX_BANK_BYTES, parse_bank
from tests.support.admin import SMALL_BANK, seed_banks, small_bank_started, upload
from tests.support.db import audit_actions, rows
from tests.support.harness import SEED, make_settings, running_bot
from tests.support.learner import Learner

ADMIN = FakeUser(900, "Ade", "en")


BROKEN = """\
id: Broken Bank
title: {en: ""}
level: impossible
questions:
  - id: b1
    text: "Fine?"
    options: ["yes", "no"]
    answer: 0
  - id: b2
    text: "Answer out of range?"
    options: ["one"]
    answer: 4
    colour: red
"""


@pytest.fixture
def banks(tmp_path: Path) -> Path:
    return seed_banks(tmp_path)


@pytest.fixture
def settings(api: FakeBotApi, db_path: Path, banks: Path) -> Settings:
    return make_settings(api, db_path, content_dir=banks, admin_ids=frozenset({ADMIN.id}))


async def nothing_changed(db_path: Path, learner: Learner) -> None:
    """No bank, retirement, post, schedule or audit entry was stored; the seed quiz is served."""
    for table in (
        "content_banks",
        "retired_questions",
        "group_sessions",
        "push_schedules",
        "audit_log",
    ):
        assert rows(db_path, f"SELECT COUNT(*) FROM {table}") == [(0,)], table
    await learner.send(f"/quiz {SEED}", "Question 1 of 8")


async def test_admin_commands_are_in_the_admins_menu_only(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    admin_scope = json.dumps({"chat_id": ADMIN.id, "type": "chat"}, sort_keys=True)
    for language in ("", "yo"):
        mine = {c["command"] for c in api.commands[f"{admin_scope}|{language}"]}
        assert {"import", "addquestion", "export", "delquestion", "push", "stats"} <= mine
        assert {"quiz", "progress"} <= mine
    for key, commands in api.commands.items():
        if not key.startswith(admin_scope):
            assert not {c["command"] for c in commands} & {"import", "push", "stats"}, key


async def test_non_admins_are_refused_and_nothing_changes(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    eve = Learner(api, FakeUser(901, "Eve", "en"))
    refusal = "for the bot's admins"
    await upload(api, eve.user, SMALL_BANK, refusal)
    for command in (
        "/import",
        f"/export {SEED}",
        f"/delquestion {SEED} mpp-1",
        f"/push {SEED} @news",
        f"/schedule {SEED} @news 09:00",
        "/stats",
        f"/addquestion {SEED}",
    ):
        await eve.send(command, refusal)
    # not even in a conversation: plain text after /addquestion is just text
    await eve.send("Some question?", "I answer to commands")
    assert api.downloads == []
    assert api.calls_to("sendDocument") == []
    await eve.send("/quiz small-bank", "I have no quiz called")
    await nothing_changed(db_path, eve)


async def test_import_a_bank_then_reimport_updates_it_and_it_survives_restarts(
    api: FakeBotApi, settings: Settings, db_path: Path
) -> None:
    ada = Learner(api, FakeUser(902, "Ada", "en"))
    async with running_bot(settings):
        report = await upload(api, ADMIN, SMALL_BANK, "imported")
        assert "Small bank" in report.text and "3 questions" in report.text
        assert "Added 3, updated 0, unchanged 0, retired 0." in report.text
        question = await ada.send("/quiz small-bank", "Question 1 of 3")
        await ada.choose(question, "Three", "Question 2 of 3")  # s1 answered, wrong

        changed = (
            SMALL_BANK.replace("One plus one?", "One plus one, in words?")
            .replace('  - id: s3\n    text: "Legs of a spider?"\n    options: ["Six", "Eight"]\n    answer: 1\n', "")
            + '  - id: s4\n    text: "Wheels of a bicycle?"\n    options: ["Two", "Four"]\n    answer: 0\n'
        )  # fmt: skip
        # `/import` as a reply to a document sent earlier without a caption
        document = api.upload(ADMIN, changed.encode(), "small-v2.yaml")
        seen = len(api.bot_messages(ADMIN.id))
        api.send_text(ADMIN, "/import", reply_to=document)
        report = await api.wait_for_bot_message(ADMIN.id, "imported", after=seen)
        assert "Added 1, updated 1, unchanged 1, retired 1." in report.text
        assert "Updated: s1" in report.html.replace("<code>", "").replace("</code>", "")
        assert "Retired (answers kept): s3" in report.html.replace("<code>", "").replace(
            "</code>", ""
        )
        # the same document again changes nothing
        await upload(api, ADMIN, changed, "Nothing changed")

    # after a restart the imported version is what learners get
    async with running_bot(settings):
        listing = await ada.send("/preview small-bank", "Small bank")
        assert "One plus one, in words?" in listing.text
        assert "Wheels of a bicycle?" in listing.text
        assert "Legs of a spider?" not in listing.text
    assert rows(db_path, "SELECT question_id, correct FROM answers") == [("s1", 0)]
    assert rows(db_path, "SELECT question_id FROM retired_questions") == [("s3",)]
    audit = rows(db_path, "SELECT admin_id, action, quiz_id FROM audit_log ORDER BY id")
    assert audit == [(900, "import", "small-bank"), (900, "import", "small-bank")]


async def test_a_broken_bank_gets_every_error_with_its_place_and_changes_nothing(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    report = await upload(api, ADMIN, BROKEN, "was refused", name="broken.yaml")
    text = "\n".join(m.text for m in api.bot_messages(ADMIN.id)[-3:])
    assert "broken.yaml" in report.text and "nothing was changed" in report.text
    for expected in (
        "field id: 'Broken Bank' is not a quiz id",
        "field title: the en text must be non-empty text",
        "field level",
        "question b2 (#2), field options: List should have at least 2 items",
        "question b2 (#2), field colour: unknown field",
    ):
        assert expected in text, (expected, text)
    # a broken version of an existing quiz leaves the quiz as it was
    seed_text = (DEFAULT_CONTENT_DIR / f"{SEED}.yaml").read_text(encoding="utf-8")
    await upload(api, ADMIN, seed_text.replace("answer: 0", "answer: 7", 1), "was refused")
    await upload(api, ADMIN, "a: *nope\n", "was refused")  # an alias is refused, safely
    await upload(api, ADMIN, "!!python/object:os.system {}\n", "was refused")
    await nothing_changed(db_path, Learner(api, FakeUser(903, "Bo", "en")))


async def test_oversized_documents_are_refused(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    big = SMALL_BANK + "# " + "x" * MAX_BANK_BYTES + "\n"
    report = await upload(api, ADMIN, big, "a bank may have at most")
    assert "nothing" in report.text.lower()
    assert api.downloads == []  # refused on the announced size, before downloading
    # a document whose announced size lies: getFile's size refuses it, still before downloading
    await upload(api, ADMIN, big, "a bank may have at most", declared_size=1000)
    assert api.downloads == []
    assert rows(db_path, "SELECT COUNT(*) FROM content_banks") == [(0,)]


async def test_a_document_of_unannounced_size_is_read_only_up_to_the_limit(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    """Both sizes Telegram announces are optional: a 19 MB document announced by neither (a
    bot may download up to 20 MB) is read up to the limit of a bank and no further, not into
    memory whole."""
    huge = SMALL_BANK.encode() + b"#" * (19 * 1000 * 1000) + b"\n"
    seen = len(api.bot_messages(ADMIN.id))
    api.upload(ADMIN, huge, "huge.yaml", caption="/import", sizes_announced=False)
    report = await api.wait_for_bot_message(ADMIN.id, "a bank may have at most", after=seen)
    assert f"more than {MAX_BANK_BYTES} bytes" in report.text and "Nothing" in report.text
    (path,) = api.downloads
    assert api.download_sent[path] < 8 * 1024 * 1024  # the limit, and what buffers held
    assert rows(db_path, "SELECT COUNT(*) FROM content_banks") == [(0,)]


async def test_export_then_import_round_trips(api: FakeBotApi, bot: QuizApplication) -> None:
    admin = Learner(api, ADMIN)
    seen = len(admin.messages())
    api.send_text(ADMIN, f"/export {SEED}")
    sent = await api.wait_for(
        lambda: next((m for m in admin.messages()[seen:] if m.document), None)
    )
    assert sent.document is not None and sent.document["file_name"] == f"{SEED}.yaml"
    assert sent.caption is not None and "/import" in sent.caption
    exported = api.file_content(sent.document)
    disk = parse_bank((DEFAULT_CONTENT_DIR / f"{SEED}.yaml").read_bytes(), "disk", "en").quiz
    assert parse_bank(exported, "export", "en").quiz == disk  # semantically the same bank
    # sent back unchanged, /import accepts it and finds nothing to change
    await upload(api, ADMIN, exported, "Nothing changed", name=f"{SEED}.yaml")
    # after a change, the export carries it, and exporting again is byte-identical
    await admin.send(f"/delquestion {SEED} mpp-8", "is retired")
    seen = len(admin.messages())
    api.send_text(ADMIN, f"/export {SEED}")
    second = await api.wait_for(
        lambda: next((m for m in admin.messages()[seen:] if m.document), None)
    )
    assert second.document is not None
    smaller = api.file_content(second.document)
    assert b"mpp-8" not in smaller and b"mpp-7" in smaller
    await upload(api, ADMIN, smaller, "Nothing changed")
    seen = len(admin.messages())
    api.send_text(ADMIN, f"/export {SEED}")
    third = await api.wait_for(
        lambda: next((m for m in admin.messages()[seen:] if m.document), None)
    )
    assert third.document is not None
    assert api.file_content(third.document) == smaller


async def _start_draft(admin: Learner) -> Message:
    await admin.send(f"/addquestion {SEED}", "Send the question text")
    await admin.send("Which stage waits first in a pipeline?", "Now the options")
    await admin.send("The first stage\nThe last stage\nNone of them", "Which option is correct")
    await admin.send("Z", "Send a letter from A to C")  # refused, asked again
    await admin.send("B", "explanation")
    await admin.send("The last stage waits for the first microbatch.", "Optional translation")
    await admin.send("yo\nonly two lines", "Send the language code")  # refused, asked again
    return await admin.send(
        "yo\nIpele wo lo duro ni akoko?\nIpele akoko\nIpele ikẹhin\nKo si\nIpele ikẹhin lo duro.",
        "Preview",
    )


async def test_addquestion_cancel_leaves_nothing(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    admin = Learner(api, ADMIN)
    preview = await _start_draft(admin)
    assert "mpp-9" in preview.text and "Ipele wo lo duro" in preview.text
    assert "✅ B. The last stage" in preview.text
    await admin.send("/cancel", "Nothing was saved")
    # the preview's buttons are dead now
    toast = await admin.tap(preview, preview.button_data()[0])
    assert toast["text"] == "This button is no longer active."
    # and the Cancel button of a live preview ends it the same way
    preview = await _start_draft(admin)
    seen = len(admin.messages())
    await admin.tap(preview, preview.button_data()[1])
    await api.wait_for_bot_message(ADMIN.id, "Nothing was saved", after=seen)
    # text now is plain text again, not a step of a draft
    await admin.send("hello", "I answer to commands")
    await admin.send("/cancel", "Nothing was saved")
    await nothing_changed(db_path, Learner(api, FakeUser(904, "Cy", "en")))


async def test_addquestion_confirmed_reaches_learners_in_both_languages(
    api: FakeBotApi, settings: Settings, db_path: Path
) -> None:
    admin = Learner(api, ADMIN)
    async with running_bot(settings):
        preview = await _start_draft(admin)
        seen = len(admin.messages())
        await admin.tap(preview, preview.button_data()[0])
        await api.wait_for_bot_message(ADMIN.id, "Saved as question 9", after=seen)
        assert api.messages[(ADMIN.id, preview.message_id)].reply_markup is None
    async with running_bot(settings):  # stored: it is there after a restart too
        for user, expect, text in (
            (FakeUser(905, "Dee", "en"), "Question 1 of 9", "Which stage waits first"),
            (FakeUser(906, "Ife", "yo"), "Ìbéèrè 1 ti 9", "Ipele wo lo duro ni akoko?"),
        ):
            learner = Learner(api, user)
            await learner.send(f"/quiz {SEED}", expect)
            preview_text = await learner.send(f"/preview {SEED}", text)
            assert text in "".join(m.text for m in learner.messages()[-3:]), preview_text.text
    audit = rows(db_path, "SELECT action, detail FROM audit_log")
    assert audit == [("add_question", '{"question": "mpp-9"}')]


async def test_delquestion_keeps_history_skips_it_and_stats_show_it_retired(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    admin = Learner(api, ADMIN)
    ada, question = await small_bank_started(api, ADMIN, 907)
    await ada.choose(question, "Three", "Question 2 of 3")  # s1 wrong
    await admin.send("/delquestion small-bank nope", "has no question")
    await admin.send("/delquestion small-bank s2", "is retired")
    # Ada's running attempt skips s2 (retired while it was on her screen)
    await ada.send("/quiz small-bank", "Legs of a spider?")
    stats = await admin.send("/stats", "Statistics")
    assert "Learners: 1 · answers: 1" in stats.text
    assert "Small bank (small-bank): 1 learner, 1 answer, 0% right" in stats.text
    assert "Retired: s2" in stats.text
    await admin.send("/delquestion small-bank s1", "is retired")
    stats = await admin.send("/stats", "Statistics")
    assert "s1 0% right of 1: [retired] One plus one?" in stats.text
    await admin.send("/delquestion small-bank s3", "last question")
    assert rows(db_path, "SELECT question_id FROM answers") == [("s1",)]
    assert audit_actions(db_path) == ["import", "retire", "retire"]


async def test_push_to_a_channel_members_answer_once_next_push_reveals(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    admin = Learner(api, ADMIN)
    channel = api.group(-100500, "news", admins={ADMIN.id}, type="channel")
    await upload(api, ADMIN, SMALL_BANK, "imported")
    await admin.send("/push small-bank @nowhere", "I cannot post in @nowhere")
    await admin.send("/push small-bank news", "cannot find a chat by its name")
    done = await admin.send("/push small-bank @news", "posted to @news")
    assert "Question 1 of 3" in done.text
    post = await api.wait_for(lambda: api.bot_messages(channel.id)[-1:])
    post_message = post[0]
    assert "One plus one?" in post_message.text and len(post_message.button_data()) == 2
    ola, tunde = FakeUser(910, "Ola", "en"), FakeUser(911, "Tunde", "yo")
    right = api.tap(ola, post_message, post_message.button_data()[0])
    assert (await api.wait_for_answer(right))["text"] == "✅ Correct!"
    wrong = api.tap(tunde, post_message, post_message.button_data()[1])
    assert "Ìdáhùn tó tọ̀nà ni A" in (await api.wait_for_answer(wrong))["text"]
    await api.wait_for(lambda: "Answers so far: 2" in post_message.text)
    assert post_message.edits == 1  # both answers shown by one edit, not one edit each
    again = api.tap(ola, post_message, post_message.button_data()[1])
    assert (await api.wait_for_answer(again))["text"] == "You already answered this question."

    await admin.send("/push small-bank @news", "Question 2 of 3")
    assert post_message.reply_markup is None and post_message.edits == 2
    assert "2 answered, 1 right" in post_message.text
    assert "✅ A. Two" in post_message.text and "Count them." in post_message.text
    late = api.tap(ola, post_message, "1:adp:1:0", forge=True)
    assert (await api.wait_for_answer(late))["text"] == "This question is closed."
    second = api.bot_messages(channel.id)[-1]
    assert "Colour of a clear sky?" in second.text
    await admin.send("/push small-bank @news", "Question 3 of 3")
    await admin.send("/push small-bank @news", "has been posted to @news already")
    answers = """SELECT s.post_id, a.user_id, a.correct FROM group_answers a
                 JOIN group_sessions s ON s.id = a.session_id ORDER BY a.user_id"""
    assert rows(db_path, answers) == [
        (1, 910, 1),
        (1, 911, 0),
    ]
    stats = await admin.send("/stats", "Statistics")
    assert "2 learners, 2 answers, 50% right" in stats.text


async def test_a_held_up_count_redraw_never_lands_after_the_reveal(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    admin = Learner(api, ADMIN)
    channel = api.group(-100800, "slow", admins={ADMIN.id}, type="channel")
    await upload(api, ADMIN, SMALL_BANK, "imported")
    await admin.send("/push small-bank @slow", "posted to @slow")
    (post,) = await api.wait_for(lambda: api.bot_messages(channel.id))
    api.delay("editMessageText", 2.0)  # Telegram is slow with the count's redraw
    tap = api.tap(FakeUser(920, "Ola", "en"), post, post.button_data()[0])
    assert (await api.wait_for_answer(tap))["text"] == "✅ Correct!"
    await api.wait_for(lambda: "editMessageText" in api.delayed)
    # the next push reveals the question while that redraw is on its way
    await admin.send("/push small-bank @slow", "Question 2 of 3")
    await api.wait_for(lambda: post.edits == 2)
    assert post.reply_markup is None and "1 answered, 1 right" in post.text


async def test_schedule_is_stored_and_rearmed_after_a_restart(
    api: FakeBotApi, settings: Settings, db_path: Path
) -> None:
    admin = Learner(api, ADMIN)
    channel = api.group(-100600, "daily", admins={ADMIN.id}, type="channel")
    async with running_bot(settings):
        await admin.send(f"/schedule {SEED} @daily 25:00", "/schedule")
        await admin.send(f"/schedule {SEED} @daily 07:30", "Every day at 07:30 UTC")
    async with running_bot(settings) as application:
        assert application.job_queue is not None
        jobs = application.job_queue.get_jobs_by_name("push-schedule-1")
        assert len(jobs) == 1
        next_run = jobs[0].next_t
        assert next_run is not None and (next_run.hour, next_run.minute) == (7, 30)
        await jobs[0].run(application)  # what the clock would do at 07:30
        posted = await api.wait_for(lambda: api.bot_messages(channel.id))
        assert "question 1 of 8" in posted[0].text
        await admin.send(f"/schedule {SEED} @daily off", "No more daily questions")
        await api.wait_for(lambda: not application.job_queue.get_jobs_by_name("push-schedule-1"))  # type: ignore[union-attr]
        await admin.send(f"/schedule {SEED} @daily off", "There is no schedule")
    async with running_bot(settings) as application:
        assert application.job_queue is not None
        assert not [j for j in application.job_queue.jobs() if j.name.startswith("push-schedule")]
    assert audit_actions(db_path) == ["schedule", "push", "unschedule"]


async def test_reimporting_a_retired_question_brings_it_back_with_its_answers(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    admin = Learner(api, ADMIN)
    ada, question = await small_bank_started(api, ADMIN, 912)
    await ada.choose(question, "Two", "Question 2 of 3")
    await admin.send("/delquestion small-bank s1", "is retired")
    assert rows(db_path, "SELECT question_id FROM retired_questions") == [("s1",)]
    report = await upload(api, ADMIN, SMALL_BANK, "imported")
    assert "Added 1, updated 0, unchanged 2, retired 0." in report.text
    assert rows(db_path, "SELECT question_id FROM retired_questions") == []
    stats = await admin.send("/stats", "Statistics")
    assert "[retired]" not in stats.text and "Retired:" not in stats.text
    assert rows(db_path, "SELECT question_id, correct FROM answers") == [("s1", 1)]


async def test_a_tap_on_a_question_retired_meanwhile_moves_on(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    admin = Learner(api, ADMIN)
    ada, question = await small_bank_started(api, ADMIN, 913)
    await admin.send("/delquestion small-bank s1", "is retired")
    seen = len(ada.messages())
    toast = await ada.tap(question, question.button_data()[0])
    assert toast["text"] == "This question was retired. Here is the next one."
    # numbered as the quiz is now: the retired question counts nowhere
    following = await api.wait_for_bot_message(ada.chat_id, "Question 1 of 2", after=seen)
    assert "Colour of a clear sky?" in following.text


async def test_shuffle_off_survives_import_and_export(
    api: FakeBotApi, bot: QuizApplication
) -> None:
    fixed = SMALL_BANK.replace("level: easy\n", "level: easy\nshuffle_options: false\n")
    await upload(api, ADMIN, fixed, "imported")
    admin = Learner(api, ADMIN)
    seen = len(admin.messages())
    api.send_text(ADMIN, "/export small-bank")
    sent = await api.wait_for(
        lambda: next((m for m in admin.messages()[seen:] if m.document), None)
    )
    exported = parse_bank(api.file_content(sent.document), "export", "en").quiz
    assert exported is not None and exported.shuffle_options is False
    # turning shuffling back on is a change an import reports, not "nothing changed"
    await upload(api, ADMIN, SMALL_BANK, "imported")


async def test_two_admins_pushing_at_once_leave_one_question_open(
    api: FakeBotApi, db_path: Path, banks: Path
) -> None:
    second_admin = FakeUser(901, "Bisi", "en")
    settings = make_settings(
        api, db_path, content_dir=banks, admin_ids=frozenset({ADMIN.id, second_admin.id})
    )
    channel = api.group(-100700, "both", admins={ADMIN.id, second_admin.id}, type="channel")
    async with running_bot(settings):
        await upload(api, ADMIN, SMALL_BANK, "imported")
        seen = {who.id: len(api.bot_messages(who.id)) for who in (ADMIN, second_admin)}
        api.send_text(ADMIN, "/push small-bank @both")
        api.send_text(second_admin, "/push small-bank @both")
        for who in (ADMIN, second_admin):
            await api.wait_for_bot_message(who.id, "posted to @both", after=seen[who.id])
        posts = api.bot_messages(channel.id)
        assert len(posts) == 2
        assert [bool(post.button_data()) for post in posts] == [False, True]
