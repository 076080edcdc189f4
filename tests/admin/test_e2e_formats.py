"""/import of every input format and of .zip bundles, end to end: the real Application over
real HTTP against the stand-in, real SQLite. Hostile files (50 MB, a zip bomb, XML with
entities, truncated XML) are refused with their reason and change nothing."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from bot.app import QuizApplication
from bot.config import Settings
from bot.sandbox import FakeBotApi, FakeUser
from content.loader import parse_bank
from tests.support.admin import failed_calls, nothing_stored, seed_banks, upload, zipped
from tests.support.db import rows
from tests.support.harness import make_settings
from tests.support.images import png
from tests.support.learner import Learner
from tests.support.sheets import with_sheet_xml
from tests.support.sheets import workbook_bytes as workbook

ADMIN = FakeUser(970, "Ade", "en")

GIFT = """\
$CATEGORY: Pipeline basics

// the idle time of a pipeline
::bubble:: What is the idle time at the ends of a pipeline called? {
\t=A bubble
\t~A stall
\t####Stages wait for activations at the start and for gradients at the end.
}

::stages:: How many stages does a 4-GPU pipeline have? {=Four ~Two ~Eight}

::escape:: Which character starts a GIFT answer\\: \\= or \\~? {=\\= ~\\~}
"""

AIKEN = """\
What is the idle time at the ends of a pipeline called?
A. A bubble
B. A stall
ANSWER: A

Which split puts layers on different GPUs?
A) Tensor
B) Pipeline
ANSWER: B
"""

CSV = (
    "\ufeffid,type,question,option1,option2,answer,explanation\r\n"
    'bubble,single,What is the idle time?,A bubble,A stall,A,"Stages wait, then work."\r\n'
    "split,,Which split puts layers on GPUs?,Tensor,Pipeline,B,\r\n"
)

MOODLE_XML = """\
<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category"><category><text>$course$/Pipelines</text></category></question>
  <question type="multichoice">
    <name><text>bubble</text></name>
    <questiontext format="html"><text><![CDATA[<p>What is the <b>idle</b> time?</p>]]></text></questiontext>
    <generalfeedback format="html"><text>Stages wait.</text></generalfeedback>
    <single>true</single>
    <answer fraction="100"><text>A bubble</text></answer>
    <answer fraction="0"><text>A stall</text></answer>
  </question>
</quiz>
"""


XLSX_ROWS: list[list[object]] = [
    ["id", "type", "question", "question:yo", "option1", "option1:yo", "option2", "option2:yo",
     "answer", "explanation"],
    ["x1", "single", "Capital of Nigeria?", "Olú ìlú Nàìjíríà?", "Abuja", "Àbújá", "Lagos",
     "Èkó", "A", "Since 1991."],
    ["x2", "", "Capital of Ghana?", None, "Kumasi", None, "Accra", None, "B", None],
]  # fmt: skip
XLSX_QUIZ: list[list[object]] = [["id", "capitals"], ["title", "Capitals"], ["level", "easy"]]


@pytest.fixture
def settings(api: FakeBotApi, db_path: Path, tmp_path: Path) -> Settings:
    banks = seed_banks(tmp_path)
    return make_settings(api, db_path, content_dir=banks, admin_ids=frozenset({ADMIN.id}))


async def test_a_gift_file_is_imported_and_played(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    report = await upload(api, ADMIN, GIFT, "imported", name="Week 3.gift")
    assert "Pipeline basics" in report.text and "<code>week-3</code>" in report.html
    assert "3 questions" in report.text and "Added 3" in report.text
    (stored,) = rows(db_path, "SELECT quiz_id, yaml FROM content_banks")
    assert stored[0] == "week-3"
    assert "bubble" in str(stored[1]) and "Stages wait for activations" in str(stored[1])
    (audit,) = rows(db_path, "SELECT action, detail FROM audit_log")
    assert audit[0] == "import" and "Week 3.gift" in str(audit[1])
    learner = Learner(api, FakeUser(971, "Bo", "en"))
    question = await learner.send("/quiz week-3", "Question 1 of 3")
    assert "idle time" in question.text
    await learner.choose(question, "A bubble", "Question 2 of 3")
    assert any("Stages wait for activations" in m.text for m in learner.messages())
    assert failed_calls(api) == []


async def test_an_xlsx_sheet_is_imported_with_its_quiz_sheet_and_languages(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    data = workbook(XLSX_ROWS, XLSX_QUIZ)
    report = await upload(api, ADMIN, data, "imported", name="anything.xlsx")
    assert "Capitals" in report.text and "<code>capitals</code>" in report.html
    (stored,) = rows(db_path, "SELECT quiz_id, yaml FROM content_banks")
    assert stored[0] == "capitals" and "Àbújá" in str(stored[1])
    yoruba = Learner(api, FakeUser(972, "Ayọ̀", "yo"))
    question = await yoruba.send("/quiz capitals", "Olú ìlú Nàìjíríà?")
    await yoruba.choose(question, "Àbújá", "Accra")
    assert failed_calls(api) == []


@pytest.mark.parametrize(
    ("name", "content", "quiz_id", "n"),
    [
        ("pipes.txt", AIKEN, "pipes", 2),
        ("pipes.csv", CSV, "pipes", 2),
        ("pipes.xml", MOODLE_XML, "pipes", 1),
        ("pipes.yaml", "id: pipes\ntitle: Pipes\nlevel: easy\nquestions:\n"
         "  - {id: a, text: 'Q?', options: [x, y], answer: 1}\n", "pipes", 1),
    ],
)  # fmt: skip
async def test_every_input_format_is_imported(
    api: FakeBotApi,
    bot: QuizApplication,
    db_path: Path,
    name: str,
    content: str,
    quiz_id: str,
    n: int,
) -> None:
    report = await upload(api, ADMIN, content, "imported", name=name)
    shown = f"{n} question" if n == 1 else f"{n} questions"
    assert f"<code>{quiz_id}</code>" in report.html and f"imported: {shown}." in report.text
    assert rows(db_path, "SELECT quiz_id FROM content_banks") == [(quiz_id,)]


async def test_a_zip_bundle_of_a_gift_file_is_imported(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    bundle = zipped(("export/pipes.gift", GIFT.encode()), ("__MACOSX/._pipes.gift", b"junk"))
    report = await upload(api, ADMIN, bundle, "imported", name="pipes.zip")
    assert "<code>pipes</code>" in report.html or "Pipeline basics" in report.text
    assert rows(db_path, "SELECT COUNT(*) FROM content_banks") == [(1,)]


async def test_a_csv_bundle_with_an_image_is_imported_with_the_image_in_the_database(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    sheet = CSV.replace(",explanation\r\n", ",explanation,image\r\n", 1).replace(
        '"Stages wait, then work."', '"Stages wait, then work.",images/p.png'
    )
    bundle = zipped(("pipes.csv", sheet.encode()), ("images/p.png", png()))
    report = await upload(api, ADMIN, bundle, "imported", name="pipes.zip")
    assert "2 questions" in report.text
    assert rows(db_path, "SELECT location FROM bank_pictures") == [("images/p.png",)]
    assert rows(db_path, "SELECT data FROM pictures") == [(png(),)]


async def test_a_true_false_gift_question_is_imported_as_one(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    gift = GIFT + "\n::tf:: Pipelines have bubbles. {TRUE}\n"
    report = await upload(api, ADMIN, gift, "imported", name="pipes.gift")
    assert "4 questions" in report.text
    ((stored,),) = rows(db_path, "SELECT yaml FROM content_banks")
    quiz = parse_bank(str(stored).encode(), "stored", "en").quiz
    assert quiz is not None and quiz.questions[-1].type == "true_false"


async def test_moodles_weights_come_through_import_and_the_bot_scores_them(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    gift = (
        "::tomb:: What two people are entombed in Grant's tomb? "
        "{~%-100%No one ~%50%Grant ~%50%Grant's wife ~%-100%Grant's father}\n\n"
        "::best:: Which is best? {=right ~%50%half right ~wrong}\n\n"
        "::legs:: How many legs has a spider? {#=%100%8:0#Correct =%0%6:0#An insect ~#Wrong}\n"
    )
    report = await upload(api, ADMIN, gift, "imported", name="tomb.gift")
    assert "3 questions" in report.text
    ((stored,),) = rows(db_path, "SELECT yaml FROM content_banks")
    quiz = parse_bank(str(stored).encode(), "stored", "en").quiz
    assert quiz is not None
    assert [q.weights for q in quiz.questions[:2]] == [
        tuple(Decimal(w) for w in (-100, 50, 50, -100)),
        (Decimal(100), Decimal(50), Decimal(0)),
    ]
    learner = Learner(api, FakeUser(972, "Cy", "en"))
    first = await learner.send("/quiz tomb", "Question 1 of 3")
    for data in first.button_data()[:4]:  # every option ticked: Moodle gives 0
        await learner.tap(api.messages[(first.chat.id, first.message_id)], data)
    submit = api.messages[(first.chat.id, first.message_id)].button_data()[-1]
    assert (await learner.tap(first, submit))["text"].startswith("❌ Not quite.")
    second = await api.wait_for_bot_message(learner.chat_id, "Question 2 of 3")
    toast, _ = await learner.choose(second, "half right", "Question 3 of 3")
    assert toast["text"] == "🟡 Partly right: 1/2."
    assert failed_calls(api) == []


PAIRS = "\n::pairs:: Match them. { =cat -> food =dog -> bone }\n"


async def test_a_question_a_bank_cannot_hold_is_refused_with_its_name(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    report = await upload(api, ADMIN, GIFT + PAIRS, "was refused", name="pipes.gift")
    assert "::pairs::" in report.text and "a matching question" in report.text
    assert nothing_stored(db_path)


async def test_what_a_bank_cannot_hold_is_skipped_when_asked(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    gift = GIFT + PAIRS
    seen = len(api.bot_messages(ADMIN.id))
    api.upload(ADMIN, gift.encode(), "pipes.gift", caption="/import --skip-unsupported")
    done = await api.wait_for_bot_message(ADMIN.id, "imported", after=seen)
    notes = "\n".join(m.text for m in api.bot_messages(ADMIN.id)[seen:])
    assert "Skipped from pipes.gift (1)" in notes and "::pairs::" in notes
    assert "3 questions" in done.text
    await upload(api, ADMIN, gift, "one word too many", name="pipes.gift", caption="/import now")


async def test_a_file_of_no_input_format_is_refused_with_the_formats_taken(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    report = await upload(api, ADMIN, b"%PDF-1.4", "cannot read", name="quiz.pdf")
    assert ".gift" in report.text and ".xlsx" in report.text and ".zip" in report.text
    assert api.downloads == [] and nothing_stored(db_path)


# hostile files


async def test_fifty_megabytes_are_refused_before_downloading(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    fifty = b"PK" + b"\0" * (50 * 1000 * 1000)
    report = await upload(api, ADMIN, fifty, "may have at most 5,242,880", name="big.xlsx")
    assert "50,000,002 bytes" in report.text and "Nothing was changed" in report.text
    report = await upload(api, ADMIN, fifty, "may have at most 20,971,520", name="big.zip")
    assert api.downloads == [] and failed_calls(api) == []
    # announced by neither the message nor getFile: Telegram's getFile refuses over 20 MB
    seen = len(api.bot_messages(ADMIN.id))
    api.upload(ADMIN, fifty, "big.gift", caption="/import", sizes_announced=False)
    report = await api.wait_for_bot_message(ADMIN.id, "more than 524,288 bytes", after=seen)
    assert failed_calls(api) == ["getFile: Bad Request: file is too big"]
    assert api.downloads == [] and nothing_stored(db_path)


def zip_bomb() -> bytes:
    """A .zip holding one GIFT file of 30 MiB of spaces: 30 KiB packed."""
    return zipped(("bomb.gift", b" " * (30 * 1024 * 1024)))


def sheet_bomb() -> bytes:
    """A valid .xlsx whose sheet is padded with 30 MiB of spaces."""
    return with_sheet_xml(
        workbook(XLSX_ROWS),
        lambda xml: xml.replace(b"<sheetData>", b"<sheetData>" + b" " * 30 * 2**20),
    )


async def test_zip_bombs_are_refused_from_their_declared_sizes(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    bomb = zip_bomb()
    assert len(bomb) < 100 * 1024
    report = await upload(api, ADMIN, bomb, "was refused", name="bomb.zip")
    assert "bomb.gift: 31,457,280 bytes unpacked" in report.text
    report = await upload(api, ADMIN, sheet_bomb(), "was refused", name="bomb.xlsx")
    assert "(a zip bomb?)" in report.text
    assert nothing_stored(db_path)


async def test_xml_with_entities_and_truncated_xml_are_refused_with_their_line(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    laughs = (
        '<?xml version="1.0"?>\n<!DOCTYPE quiz [\n<!ENTITY lol "lol">\n'
        '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n]>\n'
        "<quiz>&lol2;</quiz>\n"
    )
    report = await upload(api, ADMIN, laughs, "was refused", name="laughs.xml")
    assert "line 3" in report.text and "entit" in report.text
    truncated = MOODLE_XML[: MOODLE_XML.index('<answer fraction="0">')]
    report = await upload(api, ADMIN, truncated, "was refused", name="cut.xml")
    assert "line" in report.text
    assert nothing_stored(db_path)


SYMBOL_GIFT = (
    "::symbol:: Which network element does this symbol stand for? "
    '<img src="@@PLUGINFILE@@/symbols/router%201.png" alt="A round symbol"> '
    "{=A router ~A switch ~A hub}\n\n"
    '::listen:: What do you hear? <a href="@@PLUGINFILE@@/beep.mp3">Listen</a> {=A beep ~A tune}\n'
)


async def test_a_gift_with_media_bundle_is_imported_with_its_picture_and_played(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    """The layout of Moodle's GIFT-with-media importer: a .txt at the root of the .zip, the
    pictures it names as @@PLUGINFILE@@/<path>; the question with sound is skipped by name."""
    bundle = zipped(
        ("questions.txt", SYMBOL_GIFT.encode()),
        ("symbols/router 1.png", png()),
        ("beep.mp3", b"ID3" + bytes(2000)),
    )
    seen = len(api.bot_messages(ADMIN.id))
    api.upload(ADMIN, bundle, "network.zip", caption="/import --skip-unsupported")
    done = await api.wait_for_bot_message(ADMIN.id, "imported", after=seen)
    notes = "\n".join(m.text for m in api.bot_messages(ADMIN.id)[seen:])
    assert "::listen::" in notes and "sound or video (beep.mp3)" in notes
    assert "1 question" in done.text
    assert rows(db_path, "SELECT location FROM bank_pictures") == [("symbols/router 1.png",)]
    assert rows(db_path, "SELECT data FROM pictures") == [(png(),)]
    ada = Learner(api, FakeUser(5101, "Ada", "en"))
    question = await ada.send("/quiz questions", "Question 1 of 1")
    assert question.photo is not None and "A round symbol" in (question.caption or "")
    assert failed_calls(api) == []


async def test_a_gift_picture_sent_without_its_file_is_refused_by_name(
    api: FakeBotApi, bot: QuizApplication, db_path: Path
) -> None:
    symbol_only = SYMBOL_GIFT.split("\n\n")[0]
    report = await upload(api, ADMIN, symbol_only, "was refused", name="network.gift")
    assert "::symbol::" in report.text and "symbols/router 1.png" in report.text
    assert "as a .zip" in report.text
    assert nothing_stored(db_path)
