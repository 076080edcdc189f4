"""Unit tests of the bank validator and loader (content/), and of the pure rules (content.rules)."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from content.loader import MAX_BANK_BYTES, BankResult, bank_files, load_banks, parse_bank
from content.model import Level, LocalizedText
from content.rules import Summary, next_position, resolve_language, summarize
from content.safe_yaml import MAX_NUMBER_LENGTH, BankYamlError, load_bank_yaml
from content.schema import MAX_OPTIONS, MAX_QUESTION_LENGTH, MAX_QUIZ_ID_LENGTH
from tests.support.banks import the_only_error

REPO = Path(__file__).resolve().parents[2]
BANKS = REPO / "content" / "banks"
SEED = BANKS / "model-pipeline-parallelism.yaml"

# From /work/shared/seed/README.md ("The questions in English, and the correct answers").
SEED_ANSWER_KEY = [0, 1, 2, 3, 0, 1, 2, 3]


def question_yaml(
    qid: str = "q1",
    text: str = "What is two plus two?",
    options: str = "[three, four, five]",
    answer: str = "1",
    extra: str = "",
) -> str:
    return f"  - id: {qid}\n    text: {text}\n    options: {options}\n    answer: {answer}\n{extra}"


def bank_yaml(*questions: str, quiz_id: str = "arith", head: str = "") -> str:
    body = "".join(questions) if questions else question_yaml()
    return f"id: {quiz_id}\ntitle: Arithmetic\nlevel: easy\n{head}questions:\n{body}"


def parse(text: str | bytes, default_language: str = "en") -> BankResult:
    return parse_bank(text, "test.yaml", default_language)


def only_error(text: str) -> str:
    return the_only_error(parse(text))


# --- the seed bank ------------------------------------------------------------------------


def test_seed_bank_loads_with_the_answer_key_of_the_seed_readme() -> None:
    result = parse_bank(SEED.read_bytes(), str(SEED), "en")
    assert result.errors == ()
    quiz = result.quiz
    assert quiz is not None
    assert quiz.id == "model-pipeline-parallelism"
    assert quiz.level is Level.HARD
    assert len(quiz) == 8
    assert [q.answer for q in quiz.questions] == SEED_ANSWER_KEY
    assert [q.id for q in quiz.questions] == [f"mpp-{n}" for n in range(1, 9)]
    assert all(len(q.options) == 4 for q in quiz.questions)


def test_seed_bank_questions_7_and_8_have_no_yoruba() -> None:
    quiz = parse_bank(SEED.read_bytes(), str(SEED), "en").quiz
    assert quiz is not None
    with_yoruba = [q.id for q in quiz.questions if q.text.has("yo")]
    assert with_yoruba == [f"mpp-{n}" for n in range(1, 7)]
    for question in quiz.questions[6:]:
        assert not any(option.has("yo") for option in question.options)
        # A Yoruba learner sees the English text.
        assert question.text.get("yo", "en") == question.text.translations["en"]


# --- localized text ---------------------------------------------------------------------


def test_localized_text_falls_back_field_by_field() -> None:
    question = question_yaml(
        text='{en: "Two plus two?", yo: "Meji pelu meji?"}',
        options="[{en: three, yo: meta}, {en: four}]",
        extra='    explanation: {en: "Because.", yo: "Nitori."}\n',
    )
    quiz = parse(bank_yaml(question)).quiz
    assert quiz is not None
    q = quiz.questions[0]
    assert q.text.get("yo", "en") == "Meji pelu meji?"
    assert q.options[0].get("yo", "en") == "meta"
    assert q.options[1].get("yo", "en") == "four"  # this field alone falls back
    assert q.explanation is not None
    assert q.explanation.get("yo", "en") == "Nitori."
    assert q.text.get("fr", "en") == "Two plus two?"


def test_localized_text_without_learner_or_default_language_uses_first_translation() -> None:
    text = LocalizedText({"yo": "Bawo", "fr": "Salut"})
    assert text.get("de", "en") == "Bawo"
    assert LocalizedText({}).get("en", "en") == ""


def test_plain_string_fields_become_the_default_language() -> None:
    quiz = parse(bank_yaml(), default_language="yo").quiz
    assert quiz is not None
    assert dict(quiz.title.translations) == {"yo": "Arithmetic"}
    assert dict(quiz.questions[0].text.translations) == {"yo": "What is two plus two?"}
    assert dict(quiz.questions[0].options[1].translations) == {"yo": "four"}


@pytest.mark.parametrize("qid", ["7", "007", "0x10", "1_0"])
def test_numeric_question_ids_must_be_quoted(qid: str) -> None:
    # YAML reads these as numbers and loses their spelling (007 -> 7): ask for quotes
    error = only_error(bank_yaml(question_yaml(qid=qid)))
    assert "field id:" in error
    assert "in quotes" in error


def test_quoted_numeric_question_ids_keep_their_spelling() -> None:
    quiz = parse(bank_yaml(question_yaml(qid='"007"'))).quiz
    assert quiz is not None
    assert quiz.question("007") is quiz.questions[0]


@pytest.mark.parametrize("qid", ['"has space"', "true", '"a/b"'])
def test_bad_question_id_is_refused(qid: str) -> None:
    error = only_error(bank_yaml(question_yaml(qid=qid)))
    assert "field id:" in error
    assert error.startswith("question ")


# --- validation errors name their place -----------------------------------------------


def test_wrong_type_of_answer_names_question_and_field() -> None:
    error = only_error(bank_yaml(question_yaml(qid="sum-1", answer='"1"')))
    assert error.startswith("question sum-1 (#1), field answer:")


def test_wrong_type_of_option_names_question_and_option() -> None:
    error = only_error(bank_yaml(question_yaml(qid="sum-1", options="[three, 4]")))
    assert error.startswith("question sum-1 (#1), field options[1]:")


def test_wrong_type_of_questions_field() -> None:
    error = only_error(bank_yaml().split("questions:")[0] + "questions: many\n")
    assert error.startswith("field questions:")


def test_answer_out_of_range_names_question_and_range() -> None:
    error = only_error(bank_yaml(question_yaml(qid="sum-2", answer="3")))
    assert error.startswith("question sum-2 (#1)")
    assert "answer 3" in error
    assert "0 to 2" in error


def test_negative_answer_is_refused() -> None:
    error = only_error(bank_yaml(question_yaml(qid="sum-2", answer="-1")))
    assert "question sum-2 (#1)" in error
    assert "answer -1" in error


def test_one_option_is_refused() -> None:
    error = only_error(bank_yaml(question_yaml(qid="one", options="[alone]", answer="0")))
    assert error.startswith("question one (#1), field options:")
    assert "at least 2" in error


def test_eleven_options_are_refused() -> None:
    options = "[" + ", ".join(f"o{n}" for n in range(MAX_OPTIONS + 1)) + "]"
    error = only_error(bank_yaml(question_yaml(qid="many", options=options, answer="0")))
    assert error.startswith("question many (#1), field options:")
    assert "at most 10" in error


def test_ten_options_are_accepted() -> None:
    options = "[" + ", ".join(f"o{n}" for n in range(MAX_OPTIONS)) + "]"
    quiz = parse(bank_yaml(question_yaml(options=options, answer="9"))).quiz
    assert quiz is not None
    assert len(quiz.questions[0].options) == 10


def test_duplicate_question_ids_are_named() -> None:
    error = only_error(bank_yaml(question_yaml(qid="twin"), question_yaml(qid="twin")))
    assert "duplicate question ids: twin" in error


def test_unknown_field_is_named() -> None:
    error = only_error(bank_yaml(question_yaml(qid="q9", extra="    hint: think\n")))
    assert error == "question q9 (#1), field hint: unknown field (check its spelling)"


def test_unknown_top_level_field_is_named() -> None:
    error = only_error(bank_yaml(head="author: me\n"))
    assert error == "field author: unknown field (check its spelling)"


def test_missing_field_is_named() -> None:
    text = bank_yaml(question_yaml(qid="q3")).replace("    answer: 1\n", "")
    error = only_error(text)
    assert error == "question q3 (#1), field answer: required field is missing"


def test_missing_title_is_named() -> None:
    error = only_error(bank_yaml().replace("title: Arithmetic\n", ""))
    assert error == "field title: required field is missing"


@pytest.mark.parametrize(
    "quiz_id", ["Arith", "arith_1", "-arith", "arith-", "ari--th", "a" * (MAX_QUIZ_ID_LENGTH + 1)]
)
def test_bad_quiz_id_slug_is_refused(quiz_id: str) -> None:
    error = only_error(bank_yaml(quiz_id=quiz_id))
    assert error.startswith("field id:")


def test_longest_quiz_id_is_accepted() -> None:
    quiz = parse(bank_yaml(quiz_id="a" * MAX_QUIZ_ID_LENGTH)).quiz
    assert quiz is not None
    assert quiz.id == "a" * MAX_QUIZ_ID_LENGTH


@pytest.mark.parametrize("code", ["EN", "english", "e", "en_US", "1a"])
def test_bad_language_code_is_refused(code: str) -> None:
    error = only_error(bank_yaml(question_yaml(qid="lang", text=f"{{{code}: Hello}}")))
    assert error.startswith("question lang (#1), field text:")
    assert repr(code) in error


def test_regional_language_code_is_accepted() -> None:
    quiz = parse(bank_yaml(question_yaml(text="{pt-br: Ola, en: Hello}"))).quiz
    assert quiz is not None
    assert quiz.questions[0].text.get("pt-br", "en") == "Ola"


@pytest.mark.parametrize("text", ['""', '"   "', "{en: ''}", "{}"])
def test_empty_text_is_refused(text: str) -> None:
    error = only_error(bank_yaml(question_yaml(qid="blank", text=text)))
    assert error.startswith("question blank (#1), field text:")


def test_over_long_text_is_refused_with_its_length() -> None:
    long_text = "x" * (MAX_QUESTION_LENGTH + 1)
    error = only_error(bank_yaml(question_yaml(qid="long", text=long_text)))
    assert error.startswith("question long (#1), field text:")
    assert f"{MAX_QUESTION_LENGTH + 1} characters; at most {MAX_QUESTION_LENGTH}" in error


def test_text_of_exactly_the_maximum_length_is_accepted() -> None:
    quiz = parse(bank_yaml(question_yaml(text="x" * MAX_QUESTION_LENGTH))).quiz
    assert quiz is not None
    assert len(quiz.questions[0].text.get("en", "en")) == MAX_QUESTION_LENGTH


def test_bad_level_is_refused() -> None:
    error = only_error(bank_yaml().replace("level: easy", "level: extreme"))
    assert error.startswith("field level:")


def test_every_error_of_a_bank_is_reported_at_once() -> None:
    text = bank_yaml(
        question_yaml(qid="fine"),
        question_yaml(qid="bad-answer", answer="7"),
        question_yaml(qid="bad-options", options="[lonely]", answer="0"),
    )
    result = parse(text)
    assert result.quiz is None
    assert len(result.errors) == 2, result.errors
    assert result.errors[0].startswith("question bad-answer (#2)")
    assert result.errors[1].startswith("question bad-options (#3), field options:")


def test_errors_in_several_fields_are_all_reported() -> None:
    text = bank_yaml(question_yaml(qid="q1", text="''", answer='"x"'), head="colour: red\n")
    errors = parse(text).errors
    assert len(errors) == 3, errors
    assert any(e.startswith("field colour:") for e in errors)
    assert any(e.startswith("question q1 (#1), field text:") for e in errors)
    assert any(e.startswith("question q1 (#1), field answer:") for e in errors)


def test_every_bad_option_of_one_question_is_reported() -> None:
    errors = parse(bank_yaml(question_yaml(qid="q1", options="[ok, 5, '']"))).errors
    assert len(errors) == 2, errors
    assert errors[0].startswith("question q1 (#1), field options[1]:")
    assert errors[1].startswith("question q1 (#1), field options[2]:")


# --- YAML problems -------------------------------------------------------------------------


def test_yaml_syntax_error_reports_its_line() -> None:
    text = bank_yaml() + "  - id: q2\n    options: [a, b\n    answer: 0\n"
    error = only_error(text)
    # The list opened on line 10 is still unclosed when "answer:" comes on line 11.
    assert error.startswith("line 11, column 11:")


def test_anchors_and_aliases_are_refused() -> None:
    text = bank_yaml(
        question_yaml(options="&opts [a, b]"), question_yaml(qid="q2", options="*opts")
    )
    error = only_error(text)
    assert "anchors and aliases" in error
    assert error.startswith("line 11,")  # the line of *opts


def test_billion_laughs_alias_bomb_is_refused_quickly() -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for n in range(1, 10):
        refs = ", ".join([f"*a{n - 1}"] * 9)
        lines.append(f"a{n}: &a{n} [{refs}]")
    bomb = "\n".join(lines) + "\n"
    started = time.perf_counter()
    error = only_error(bomb)
    elapsed = time.perf_counter() - started
    assert "anchors and aliases" in error
    assert elapsed < 1.0


def test_duplicate_keys_are_refused() -> None:
    text = bank_yaml().replace("level: easy\n", "level: easy\nlevel: hard\n")
    error = only_error(text)
    assert error == "line 4, column 1: duplicate key 'level'"


def test_duplicate_keys_in_nested_mappings_are_refused() -> None:
    error = only_error(bank_yaml(question_yaml(text="{en: one, en: two}")))
    assert "duplicate key 'en'" in error


@pytest.mark.parametrize("document", ["- a\n- b\n", "just text\n", "42\n", ""])
def test_a_document_that_is_not_a_mapping_is_refused(document: str) -> None:
    error = only_error(document)
    assert error == "a bank must be a mapping with id, title and questions"


@pytest.mark.parametrize(
    "tag", ["!!python/object:os.system {}", "!!python/object/apply:os.system ['true']"]
)
def test_python_tags_are_refused(tag: str) -> None:
    error = only_error(f"id: arith\nx: {tag}\n")
    assert "could not determine a constructor" in error


def test_python_tags_are_refused_by_the_yaml_loader_itself() -> None:
    with pytest.raises(BankYamlError):
        load_bank_yaml("!!python/name:os.system\n")


def test_oversized_document_is_refused() -> None:
    text = bank_yaml() + "#" * MAX_BANK_BYTES + "\n"
    error = only_error(text)
    assert error == f"{len(text.encode())} bytes; a bank may have at most {MAX_BANK_BYTES}"


def test_document_of_exactly_the_maximum_size_is_accepted() -> None:
    head = bank_yaml()
    text = head + "#" * (MAX_BANK_BYTES - len(head.encode()) - 1) + "\n"
    assert len(text.encode()) == MAX_BANK_BYTES
    result = parse(text.encode())
    assert result.errors == ()
    assert result.quiz is not None


def test_oversize_counts_bytes_not_characters() -> None:
    # Two bytes per character in UTF-8: fewer characters than the limit, more bytes.
    text = bank_yaml() + "#" + "é" * (MAX_BANK_BYTES // 2) + "\n"
    assert len(text) < MAX_BANK_BYTES < len(text.encode())
    assert "a bank may have at most" in only_error(text)


def test_deeply_nested_yaml_is_refused_not_raised() -> None:
    text = "id: " + "[" * 5000 + "]" * 5000 + "\n"
    result = parse(text)
    assert result.quiz is None
    assert len(result.errors) == 1
    assert "nested too deeply" in result.errors[0]


def test_unhashable_set_key_is_refused_not_raised() -> None:
    result = parse("? !!set {a: null}\n: 1\n")
    assert result.quiz is None
    assert result.errors == ("line 1, column 3: a key must be plain text",)


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        ("9" * 5000, f"a number of more than {MAX_NUMBER_LENGTH} characters"),  # int() raises
        ("1" + ":1" * 170_000, f"a number of more than {MAX_NUMBER_LENGTH} characters"),  # base 60
        ("2001-13-45", "cannot read this value: month must be in 1..12"),  # a timestamp
    ],
)
def test_values_yaml_cannot_build_are_refused_at_their_place_not_raised(
    answer: str, says: str
) -> None:
    started = time.process_time()
    error = only_error(bank_yaml(question_yaml(answer=answer)))
    assert error == f"line 8, column 13: {says}"
    assert time.process_time() - started < 1.0


YAML_TAGS = ["!!binary", "!!timestamp", "!!int", "!!float", "!!set", "!!omap", "!!pairs",
             "!!str", "!!bool", "!!null", "!!merge", "!!value", "!!seq", "!!map"]  # fmt: skip
SCALARS = st.one_of(
    st.text(max_size=40),
    st.from_regex(r"[0-9:._+\-eE TZx]{1,40}", fullmatch=True),  # numbers, dates, base 60
    st.sampled_from(YAML_TAGS).map(lambda tag: f"{tag} "),
)


@settings(max_examples=300)
@given(st.lists(st.tuples(SCALARS, SCALARS), max_size=5), st.text(max_size=30))
def test_any_yaml_values_and_tags_give_a_bank_or_a_refusal_never_an_exception(
    pairs: list[tuple[str, str]], tail: str
) -> None:
    document = "\n".join(f"k{i}: {a}{b}" for i, (a, b) in enumerate(pairs)) + "\n" + tail
    with contextlib.suppress(BankYamlError):
        load_bank_yaml(document)
    result = parse(document)
    assert result.quiz is not None or result.errors


# --- load_banks -----------------------------------------------------------------------------


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_broken_bank_does_not_stop_the_others(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", bank_yaml(quiz_id="first"))
    write(tmp_path, "b.yaml", bank_yaml(question_yaml(answer="9"), quiz_id="broken"))
    write(tmp_path, "c.yml", bank_yaml(quiz_id="third"))
    write(tmp_path, "notes.txt", "not a bank")
    results = load_banks(bank_files(tmp_path), "en")
    assert [Path(r.source).name for r in results] == ["a.yaml", "b.yaml", "c.yml"]
    assert [r.quiz.id if r.quiz else None for r in results] == ["first", None, "third"]
    assert [r.ok for r in results] == [True, False, True]
    assert len(results[1].errors) == 1
    assert "answer 9" in results[1].errors[0]


def test_a_second_bank_with_a_used_quiz_id_is_refused(tmp_path: Path) -> None:
    first = write(tmp_path, "a.yaml", bank_yaml(quiz_id="same"))
    write(tmp_path, "b.yaml", bank_yaml(quiz_id="same"))
    results = load_banks(bank_files(tmp_path), "en")
    assert results[0].ok
    assert results[1].quiz is None
    assert results[1].errors == (f"quiz id 'same' is already used by {first}",)


def test_an_unreadable_path_is_reported(tmp_path: Path) -> None:
    results = load_banks([tmp_path / "missing.yaml"], "en")
    assert results[0].quiz is None
    assert results[0].errors[0].startswith("cannot read:")


# --- python -m content validate -----------------------------------------------------------


def run_validate(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "content", "validate", *map(str, paths)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_validate_accepts_the_seed_folder() -> None:
    done = run_validate(BANKS)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"ok    {SEED}: model-pipeline-parallelism, 8 questions" in done.stdout


def test_cli_validate_fails_on_a_broken_file_and_prints_the_error(tmp_path: Path) -> None:
    broken = write(tmp_path, "broken.yaml", bank_yaml(question_yaml(qid="oops", answer="5")))
    done = run_validate(broken)
    assert done.returncode != 0
    assert f"error {broken}: question oops (#1): answer 5" in done.stdout


def test_cli_validate_fails_on_an_empty_folder(tmp_path: Path) -> None:
    done = run_validate(tmp_path)
    assert done.returncode != 0
    assert "no .yaml banks found" in done.stdout


# --- content.rules --------------------------------------------------------------------------


def test_next_position_is_the_first_unanswered_question() -> None:
    ids = ["a", "b", "c", "d"]
    assert next_position(ids, set()) == 0
    assert next_position(ids, {"a"}) == 1
    assert next_position(ids, {"a", "c"}) == 1
    assert next_position(ids, {"a", "b", "c"}) == 3


def test_next_position_is_none_when_all_are_answered() -> None:
    assert next_position(["a", "b"], {"b", "a", "gone"}) is None
    assert next_position([], set()) is None


def test_summarize_scores_and_lists_missed_in_quiz_order() -> None:
    ids = ["q1", "q2", "q3", "q4"]
    summary = summarize(ids, {"q4": False, "q1": True, "q2": False, "q3": True})
    assert summary == Summary(score=2, total=4, missed=("q2", "q4"))
    assert summary.percent == 50


def test_summarize_counts_unanswered_as_missed() -> None:
    summary = summarize(["q1", "q2", "q3"], {"q1": True})
    assert summary == Summary(score=1, total=3, missed=("q2", "q3"))
    assert summary.percent == 33


def test_summary_percent_rounds_and_handles_an_empty_attempt() -> None:
    assert Summary(score=2, total=3, missed=("x",)).percent == 67
    assert Summary(score=0, total=0, missed=()).percent == 0
    assert summarize(["a"], {"a": True}).percent == 100


def test_resolve_language_prefers_the_learners_choice() -> None:
    assert resolve_language("yo", "en-US", "en") == "yo"


def test_resolve_language_uses_telegrams_base_code() -> None:
    assert resolve_language(None, "pt-BR", "en") == "pt"
    assert resolve_language(None, "YO", "en") == "yo"


def test_resolve_language_falls_back_to_the_default() -> None:
    assert resolve_language(None, None, "en") == "en"
    assert resolve_language("", "", "fr") == "fr"


# --- a question's guide -------------------------------------------------------------------


def test_a_question_names_its_section_of_the_guide_and_the_quiz_guide_is_the_default() -> None:
    head = 'guide: {title: "The guide", url: "https://example.org/guide"}\n'
    own = (
        '    guide: {title: {en: "Section 2", yo: "Apá 2"}, url: "https://example.org/guide#s2"}\n'
    )
    quiz = parse(bank_yaml(question_yaml("q1", extra=own), question_yaml("q2"), head=head)).quiz
    assert quiz is not None
    first, second = quiz.questions
    assert first.guide is not None and first.guide.url.endswith("#s2")
    assert first.guide.title.get("yo", "en") == "Apá 2"
    assert quiz.guide_of(first) == first.guide
    assert second.guide is None and quiz.guide_of(second) == quiz.guide


@pytest.mark.parametrize(
    ("guide", "problem"),
    [
        ('{title: "S", url: "javascript:alert(1)"}', "question q1 (#1), field guide.url"),
        ('{url: "https://example.org/#s"}', "question q1 (#1), field guide.title: required"),
        (
            '{title: "S", url: "https://x.org", page: 3}',
            "question q1 (#1), field guide.page: unknown field",
        ),
    ],
)
def test_a_bad_question_guide_is_refused_at_its_place(guide: str, problem: str) -> None:
    assert problem in only_error(bank_yaml(question_yaml(extra=f"    guide: {guide}\n")))
