"""Unit tests of bot/render.py, bot/callbacks.py and the stand-in's HTML checker."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.core import callbacks
from bot.core.i18n import Locale
from bot.core.render import MAX_BUTTON_LABEL, MAX_MESSAGE_LENGTH, Rendered, shorten
from bot.learner.render import (
    Overview,
    Placed,
    language_menu,
    preview_messages,
    progress_message,
    question_message,
    quiz_list,
    reveal_message,
    summary_message,
)
from bot.sandbox.html_check import EntityParseError, telegram_length, visible_text
from content import schema
from content.grading import Choice, Grade, grade
from content.model import Guide, Question, Quiz
from content.progress import Mastery, mastery
from content.rules import Summary
from storage import Answer, QuizRecord
from tests.support.quizzes import (
    EN,
    LOCALES,
    LONGEST_QUIZ_ID,
    NASTY,
    buttons,
    make_question,
    make_quiz,
    nasty_quiz,
    text,
    visible,
    worst_case_quiz,
)


def tapped(question: Question, choice: int) -> Grade:
    """The grade of a tap on `choice` (the bank's order), as the flow computes it."""
    return grade(question, Choice(choice))


def mastery_of(quiz: Quiz, latest: dict[str, dict[str, Answer]]) -> dict[str, Mastery]:
    correct = {qid: answer.correct for qid, answer in latest.get(quiz.id, {}).items()}
    return {quiz.id: mastery(quiz, {}, correct, 0.0)}


def record(**values: int | None) -> QuizRecord:
    fields: dict[str, int | None] = {
        "attempts_finished": 0, "best_score": None, "best_total": None, "last_score": None,
        "last_total": None, "running_answered": None, "running_total": None,
    }  # fmt: skip
    fields.update(values)
    return QuizRecord(quiz_id="nasty", **fields)  # type: ignore[arg-type]


def every_rendering(quiz: Quiz, locale: Locale) -> list[Rendered]:
    first = quiz.questions[0]
    records = {
        quiz.id: record(
            attempts_finished=2, best_score=1, best_total=2, last_score=0, last_total=2,
            running_answered=1, running_total=2,
        )
    }  # fmt: skip
    latest = {quiz.id: {first.id: Answer(first.id, 0, False, 1.0)}}
    return [
        question_message(Placed(quiz, first, 0), 12, locale),
        reveal_message(Placed(quiz, first, 0), tapped(first, 0), locale),
        reveal_message(Placed(quiz, first, 0), tapped(first, first.answer), locale),
        summary_message(quiz, Summary(1, 2, (first.id,)), (1, 2), locale),
        summary_message(quiz, Summary(2, 2, ()), None, locale),
        *quiz_list([quiz], records, locale),
        *quiz_list([quiz], {}, locale),
        *preview_messages(quiz, locale),
        *progress_message([quiz], records, mastery_of(quiz, latest), Overview(2, 1, 3), locale),
        language_menu(["en", "yo"], locale.language, locale),
    ]


# --- the HTML checker itself ---------------------------------------------------------------


def test_html_checker_decodes_entities_and_drops_tags() -> None:
    assert visible_text("<b>a &lt;b&gt; &amp; &quot;q&quot; &#x27;s&#39;</b>", "HTML") == (
        "a <b> & \"q\" 's'"
    )


@pytest.mark.parametrize(
    "bad", ["a < b", "Tom & Jerry", "<b>open", "<p>x</p>", "<b><i>x</b></i>", "&nbsp;", "<br/>"]
)
def test_html_checker_refuses_what_telegram_refuses(bad: str) -> None:
    with pytest.raises(EntityParseError):
        visible_text(bad, "HTML")


def test_telegram_length_counts_utf16_units() -> None:
    assert telegram_length("ab") == 2
    assert telegram_length("é") == 1
    assert telegram_length("😀") == 2


# --- escaping ----------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", LOCALES, ids=lambda loc: loc.language)
def test_every_rendering_of_the_seed_like_quiz_is_valid_html(locale: Locale) -> None:
    quiz = make_quiz(
        [make_question("q1", "Two plus two?", ["three", "four"], 1, "Count them.")],
        description="Sums.",
        guide=Guide(text("Guide"), "https://example.org/guide"),
    )
    for rendered in every_rendering(quiz, locale):
        assert visible(rendered).strip() != ""


@pytest.mark.parametrize("locale", LOCALES, ids=lambda loc: loc.language)
def test_every_rendering_passes_the_html_check_with_markup_in_content(locale: Locale) -> None:
    quiz = nasty_quiz()
    for rendered in every_rendering(quiz, locale):
        visible(rendered)  # raises EntityParseError where Telegram would refuse the message


@pytest.mark.parametrize(
    ("render", "answer", "fragments"),
    [
        (question_message, 0, ("T ", "Q0 ", "A. opt0a ", "B. opt0b ")),
        (reveal_message, tapped(nasty_quiz().questions[0], 0), ("Q0 ", "opt0a ", "opt0b ", "E0 ")),
    ],
    ids=["question", "reveal"],
)
def test_a_question_and_its_reveal_show_content_markup_verbatim(
    render: Callable[..., Rendered], answer: object, fragments: tuple[str, ...]
) -> None:
    quiz = nasty_quiz()
    shown = visible(render(Placed(quiz, quiz.questions[0], 0), answer, EN))
    for fragment in fragments:
        assert fragment + NASTY in shown


def test_content_markup_is_escaped_in_the_html() -> None:
    quiz = nasty_quiz()
    raw = question_message(Placed(quiz, quiz.questions[0], 0), 12, EN).text
    assert "<b>Tom" not in raw
    assert "&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;" in raw
    assert "&amp;amp;" in raw  # a literal "&amp;" in content is escaped once more


def test_summary_shows_missed_question_verbatim() -> None:
    quiz = nasty_quiz()
    shown = visible(summary_message(quiz, Summary(1, 2, ("n1",)), None, EN))
    assert f"T {NASTY}" in shown
    assert '2. Q1 <b>Tom & "Jerry"</b>' in shown
    assert f"G {NASTY}" in shown


def test_quiz_list_and_preview_show_content_markup_verbatim() -> None:
    quiz = nasty_quiz()
    [listing] = quiz_list([quiz], {}, EN)
    listed = visible(listing)
    assert f"T {NASTY}" in listed
    assert f"D {NASTY}" in listed
    previewed = "".join(visible(r) for r in preview_messages(quiz, EN))
    for fragment in (f"T {NASTY}", f"D {NASTY}", f"G {NASTY}", f"Q1 {NASTY}", f"opt1b {NASTY}"):
        assert fragment in previewed


def test_guide_url_is_escaped_in_its_href() -> None:
    quiz = nasty_quiz()
    raw = summary_message(quiz, Summary(2, 2, ()), None, EN).text
    assert 'href="https://example.org/a?b=1&amp;c=&lt;2&gt;"' in raw


def test_progress_shows_title_verbatim_and_weak_questions() -> None:
    quiz = nasty_quiz()
    latest = {quiz.id: {"n1": Answer("n1", 0, False, 1.0), "n0": Answer("n0", 1, True, 1.0)}}
    [rendered] = progress_message(
        [quiz],
        {quiz.id: record(best_score=1, best_total=2)},
        mastery_of(quiz, latest),
        Overview(0, 0, 0),
        EN,
    )
    shown = visible(rendered)
    assert f"T {NASTY}" in shown
    assert "#2" in shown
    assert "#1" not in shown


def test_language_menu_marks_the_current_language() -> None:
    rendered = language_menu(["en", "yo"], "yo", EN)
    assert visible(rendered) == "Choose your language:"
    assert buttons(rendered) == [("English", "1:l:en"), ("• Yorùbá", "1:l:yo")]


def test_empty_quiz_list_has_no_keyboard() -> None:
    [rendered] = quiz_list([], {}, EN)
    assert visible(rendered) == "There are no quizzes yet."
    assert rendered.markup is None


# --- lengths -------------------------------------------------------------------------------------


@pytest.mark.parametrize("weighted", [False, True], ids=["plain", "weights"])
@pytest.mark.parametrize("locale", LOCALES, ids=lambda loc: loc.language)
def test_worst_case_question_and_reveal_fit_one_message(locale: Locale, weighted: bool) -> None:
    quiz, question = worst_case_quiz(weighted=weighted)
    for rendered in (
        question_message(Placed(quiz, question, 0), 10**17, locale),
        reveal_message(Placed(quiz, question, 0), tapped(question, 0), locale),
        reveal_message(Placed(quiz, question, 0), tapped(question, question.answer), locale),
    ):
        shown = visible(rendered)
        assert telegram_length(shown) <= MAX_MESSAGE_LENGTH
        assert "w" * schema.MAX_QUESTION_LENGTH in shown


def test_worst_case_reveal_keeps_the_whole_explanation() -> None:
    quiz, question = worst_case_quiz()
    shown = visible(reveal_message(Placed(quiz, question, 0), tapped(question, 0), EN))
    assert "w" * schema.MAX_EXPLANATION_LENGTH in shown
    assert shown.count("w" * schema.MAX_OPTION_LENGTH) >= schema.MAX_OPTIONS


def test_worst_case_question_of_emoji_fits_one_message() -> None:
    quiz, question = worst_case_quiz("😀")
    for rendered in (
        question_message(Placed(quiz, question, 0), 1, EN),
        reveal_message(Placed(quiz, question, 0), tapped(question, 0), EN),
    ):
        assert telegram_length(visible(rendered)) <= MAX_MESSAGE_LENGTH


def test_button_labels_are_shortened_but_the_message_keeps_the_full_option() -> None:
    quiz, question = worst_case_quiz()
    rendered = question_message(Placed(quiz, question, 0), 1, EN)
    labels = [label for label, _ in buttons(rendered)]
    assert len(labels) == schema.MAX_OPTIONS
    assert labels[0].startswith("A. ")
    assert labels[9].startswith("J. ")
    assert all(len(label) <= MAX_BUTTON_LABEL + len("A. ") for label in labels)
    assert all(label.endswith("…") for label in labels)
    assert "w" * schema.MAX_OPTION_LENGTH in visible(rendered)


def test_short_button_labels_are_kept_whole() -> None:
    question = make_question("q1", "Two plus two?", ["three", "four"], 1)
    rendered = question_message(Placed(make_quiz([question]), question, 0), 5, EN)
    assert buttons(rendered) == [("A. three", "1:a:5:0:0"), ("B. four", "1:a:5:0:1")]


def test_shorten_cuts_at_a_word_boundary() -> None:
    assert shorten("one two three four", 100) == "one two three four"
    assert shorten("  one\n two  ", 100) == "one two"
    assert shorten("alpha beta gamma delta", 15) == "alpha beta…"
    assert shorten("x" * 60, 48) == "x" * 47 + "…"
    assert len(shorten("word " * 40, MAX_BUTTON_LABEL)) <= MAX_BUTTON_LABEL


# --- callback data ---------------------------------------------------------------------------


def all_callback_data(quiz: Quiz) -> list[str]:
    data: list[str] = []
    for locale in LOCALES:
        for rendered in every_rendering(quiz, locale):
            if rendered.markup is not None:
                data.extend(d for _, d in buttons(rendered))
    return data


def test_every_rendered_callback_data_fits_and_decodes() -> None:
    quiz, question = worst_case_quiz()
    quiz = make_quiz(
        [question, make_question("q2", "x", ["a", "b"])],
        quiz_id=LONGEST_QUIZ_ID,
        title="t" * schema.MAX_TITLE_LENGTH,
    )
    data = all_callback_data(quiz)
    assert len(data) >= 20
    for item in data:
        assert len(item.encode()) <= callbacks.MAX_BYTES
        decoded = callbacks.decode(item)
        assert decoded is not None, item
        assert decoded.encode() == item


@pytest.mark.parametrize(
    "callback",
    [
        callbacks.AnswerTap(0, 0, 0),
        callbacks.AnswerTap(10**18 - 1, 499, schema.MAX_OPTIONS - 1),
        callbacks.OpenQuiz(LONGEST_QUIZ_ID),
        callbacks.OpenQuiz("a" * schema.MAX_QUIZ_ID_LENGTH),
        callbacks.PreviewQuiz(LONGEST_QUIZ_ID),
        callbacks.ChooseLanguage("yo"),
        callbacks.ChooseLanguage("pt-br"),
        callbacks.ListQuizzes(),
    ],
    ids=repr,
)
def test_callback_round_trip(callback: callbacks.Tap) -> None:
    data = callback.encode()
    assert len(data.encode()) <= callbacks.MAX_BYTES
    assert callbacks.decode(data) == callback
    assert type(callbacks.decode(data)) is type(callback)


def test_longest_quiz_id_of_these_tests_is_the_schema_maximum() -> None:
    assert len(LONGEST_QUIZ_ID) == schema.MAX_QUIZ_ID_LENGTH
    assert callbacks.decode(f"1:q:{LONGEST_QUIZ_ID}") == callbacks.OpenQuiz(LONGEST_QUIZ_ID)


def test_encoding_over_64_bytes_is_refused() -> None:
    with pytest.raises(ValueError, match="64 bytes"):
        callbacks.OpenQuiz("a" * 61).encode()


@pytest.mark.parametrize(
    "data",
    [
        None,
        "",
        "1:q:" + "a" * 61,  # 65 bytes
        "2:q:arith",
        "0:ls",
        "1:a:-1:0:0",
        "1:a:1:-2:0",
        "1:a:x:0:0",
        "1:a:1:0:",
        "1:a:1.5:0:0",
        "1:a:1:2:3:4",
        "1:q:arith:extra",
        "1:ls:",
        "1:ls:x",
        "1:a:01:0:0",
        "1:a:1:00:0",
        "1:a:1:0:007",
        "1:a:" + "9" * 19 + ":0:0",
        "1:a:١:0:0",  # an Arabic-Indic digit
        "1:q:Arith",
        "1:q:arith-",
        "1:q:ar--ith",
        "1:q:arith\n",
        " 1:ls",
        "1:l:EN",
        "1:l:english",
        "1:z:arith",
        "1:a",
        "garbage",
    ],
)
def test_decode_refuses_forged_or_odd_data(data: str | None) -> None:
    assert callbacks.decode(data) is None


# --- preview splitting ------------------------------------------------------------------------


def big_quiz(count: int = 60, char: str = "x") -> Quiz:
    return make_quiz(
        [
            make_question(
                f"q{n}",
                f"QUESTION-{n:03d} " + char * 700,
                [f"option {k} " + char * 150 for k in range(4)],
            )
            for n in range(count)
        ],
        title="Big quiz",
        quiz_id="big",
        description="Many long questions.",
    )


def test_preview_splits_a_big_quiz_into_messages_that_fit() -> None:
    quiz = big_quiz()
    messages = preview_messages(quiz, EN)
    assert len(messages) > 1
    for message in messages:
        shown = visible(message)
        assert shown.strip() != ""
        assert telegram_length(shown) <= MAX_MESSAGE_LENGTH


def test_preview_lists_every_question_once_in_order() -> None:
    quiz = big_quiz()
    shown = "\n".join(visible(message) for message in preview_messages(quiz, EN))
    for n in range(60):
        assert shown.count(f"QUESTION-{n:03d} ") == 1
    positions = [shown.index(f"QUESTION-{n:03d} ") for n in range(60)]
    assert positions == sorted(positions)
    assert shown.count("option 3 ") == 60


def test_preview_puts_the_start_button_on_the_last_message_only() -> None:
    messages = preview_messages(big_quiz(), EN)
    assert all(message.markup is None for message in messages[:-1])
    assert [data for _, data in buttons(messages[-1])] == ["1:q:big"]


def test_preview_never_shows_the_answers() -> None:
    quiz = make_quiz([make_question("q1", "Two plus two?", ["three", "four"], 1, "Count.")])
    shown = "".join(visible(m) for m in preview_messages(quiz, EN))
    assert "✅" not in shown
    assert "Count." not in shown


def test_preview_of_emoji_content_fits() -> None:
    for message in preview_messages(big_quiz(char="😀"), EN):
        assert telegram_length(visible(message)) <= MAX_MESSAGE_LENGTH


def test_every_interface_string_has_a_yoruba_translation_with_the_same_placeholders() -> None:
    import string

    from bot.core.i18n import STRINGS

    def fields(template: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}

    def templates(entry: str | dict[str, str]) -> list[str]:  # a plural has one per form
        return list(entry.values()) if isinstance(entry, dict) else [entry]

    assert set(STRINGS["yo"]) == set(STRINGS["en"])
    for key, english in STRINGS["en"].items():
        wanted = set().union(*(fields(template) for template in templates(english)))
        for template in templates(STRINGS["yo"][key]):
            assert fields(template) == wanted, key
            visible(Rendered(template.format(**dict.fromkeys(wanted, 1))))


def test_a_block_over_the_limit_is_cut_at_line_ends() -> None:
    from bot.core.render import split_blocks

    lines = [f"line {n}: " + "x" * 90 for n in range(100)]
    messages = split_blocks(["intro", "\n".join(lines), "outro"])
    assert all(telegram_length(m) <= MAX_MESSAGE_LENGTH for m in messages)
    joined = "\n".join(messages)
    assert all(line in joined for line in lines)
    assert messages[0].startswith("intro") and messages[-1].endswith("outro")


def test_a_practice_round_with_many_sections_to_read_fits_one_message() -> None:
    from bot.learner.render import Practice, practice_summary
    from content.model import LocalizedText
    from content.rules import Summary

    sections = [
        Guide(
            LocalizedText({"en": f"{n} " + "Sëction & <more> " * 12}),
            f"https://e.org/{n}#" + "x" * 400,
        )
        for n in range(30)
    ]
    summary = Summary(score=0, total=500, missed=tuple(f"q{n}" for n in range(500)))
    shown = practice_summary(summary, None, 0, sections, Practice(7, 500), Locale("en", "en"))
    visible = visible_text(shown.text, "HTML")
    assert telegram_length(visible) <= MAX_MESSAGE_LENGTH
    assert visible.count("• ") == 10 and "… and 20 more" in visible
    assert shown.markup is not None
    assert shown.markup.inline_keyboard[0][0].text == "🎯 Practise the 500 still missed"
