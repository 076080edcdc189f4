"""Pictures, sound and video named in GIFT and Moodle XML texts: never dropped without a word.

A GIFT question's first picture (`<img src="@@PLUGINFILE@@/…">`, or a path beside the file)
is its picture, the general feedback's first the explanation's; the file comes in a `.zip`
with the GIFT file (the layout of Moodle's GIFT-with-media importer: a `.txt` or `.gift` at
the root). Further pictures are named in a warning; a picture without its file, sound or
video, and an answer that is only a picture are refused by name (or skipped with
--skip-unsupported).
"""

from __future__ import annotations

import base64
import io
import random
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from content.formats.base import ConversionError, ReadOptions
from content.formats.convert import Loaded, read_bundle_quiz
from tests.support.formats import read
from tests.support.images import png

SYMBOL = png(12, 10)
OTHER = png(7, 9)


def bundle(main: str, text: str, files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(main, text)
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def from_bundle(data: bytes, **options: object) -> Loaded:
    return read_bundle_quiz(data, ReadOptions(**options))  # type: ignore[arg-type]


def refused_bundle(data: bytes, **options: object) -> tuple[str, ...]:
    with pytest.raises(ConversionError) as caught:
        from_bundle(data, **options)
    return caught.value.problems


SYMBOL_QUESTION = (
    "::red:: ¿Qué elemento de red representa el siguiente símbolo? "
    '<img src="@@PLUGINFILE@@/s%C3%ADmbolo.png" alt="El símbolo" /> {=Router ~Switch ~Hub}\n'
)


def test_a_picture_in_a_gift_bundle_is_the_questions_picture() -> None:
    loaded = from_bundle(bundle("red.gift", SYMBOL_QUESTION, {"símbolo.png": SYMBOL}))
    (question,) = loaded.quiz.questions
    assert question.text.get("en", "en") == (
        "¿Qué elemento de red representa el siguiente símbolo?"
    )
    assert question.image is not None and question.image.location == "símbolo.png"
    assert question.image_alt is not None and question.image_alt.get("en", "en") == "El símbolo"
    assert loaded.images == {"símbolo.png": SYMBOL}
    assert loaded.warnings == () and loaded.skipped == ()


def test_the_gift_with_media_layout_a_txt_at_the_root_is_gift() -> None:
    text = SYMBOL_QUESTION.replace("@@PLUGINFILE@@/s%C3%ADmbolo.png", "@@PLUGINFILE@@/img/s.png")
    loaded = from_bundle(bundle("questions.txt", text, {"img/s.png": SYMBOL}))
    assert loaded.quiz.questions[0].image is not None
    assert loaded.quiz.questions[0].image.location == "img/s.png"


def test_an_aiken_txt_in_a_bundle_is_still_aiken() -> None:
    loaded = from_bundle(bundle("q.txt", "Which?\nA. yes\nB. no\nANSWER: A\n", {}))
    assert loaded.quiz.questions[0].options[0].get("en", "en") == "yes"


def test_a_picture_named_by_its_path_and_one_in_the_general_feedback() -> None:
    text = '::q:: <p>Which?</p><img src="pics/a.png"> {T ####Because <img src="pics/b.png">}\n'
    loaded = from_bundle(bundle("q.gift", text, {"pics/a.png": SYMBOL, "pics/b.png": OTHER}))
    question = loaded.quiz.questions[0]
    assert question.image is not None and question.image.location == "pics/a.png"
    assert question.explanation_image is not None
    assert question.explanation_image.location == "pics/b.png"
    assert question.explanation is not None and question.explanation.get("en", "en") == "Because"


def test_further_pictures_are_named_in_a_warning() -> None:
    text = '::q:: Which? <img src="a.png"> and <img src="b.png"> {T}\n'
    loaded = from_bundle(bundle("q.gift", text, {"a.png": SYMBOL, "b.png": OTHER}))
    assert loaded.quiz.questions[0].image is not None
    assert loaded.quiz.questions[0].image.location == "a.png"
    assert loaded.warnings == (
        "pictures besides the question's first and the explanation's first are not kept "
        "(b.png) (line 1 ::q::)",
    )


def test_an_https_picture_is_kept_as_its_address() -> None:
    loaded = read(b'::q:: Which? <img src="https://example.org/a.png"> {T}\n', "gift")
    image = loaded.quiz.questions[0].image
    assert image is not None and image.location == "https://example.org/a.png"


def test_a_picture_without_its_file_is_refused_by_name_or_skipped() -> None:
    data = bundle("red.gift", SYMBOL_QUESTION + "\n::ok:: Fine? {T}\n", {})
    with pytest.raises(ConversionError) as caught:
        from_bundle(data)
    assert caught.value.problems == (
        "line 1 ::red::, field image: símbolo.png: not in the .zip beside the bank",
    )
    assert caught.value.good_questions == 1  # what skipping would take
    loaded = from_bundle(data, skip_unsupported=True)
    assert [q.id for q in loaded.quiz.questions] == ["ok"]
    assert loaded.skipped == caught.value.problems


def test_a_gift_file_alone_says_to_send_its_pictures_in_a_zip() -> None:
    with pytest.raises(ConversionError) as caught:
        read(SYMBOL_QUESTION.encode(), "gift")
    assert caught.value.problems[0] == (
        "line 1 ::red::, field image: símbolo.png: not found: send the file as a .zip that "
        "holds it and its images"
    )


@pytest.mark.parametrize(
    ("html", "named"),
    [
        ('<a href="@@PLUGINFILE@@/sound.mp3">Listen</a>', "sound.mp3"),
        ('<audio controls><source src="@@PLUGINFILE@@/a%20b.ogg"></audio>', "<audio>, a b.ogg"),
        ('<video src="https://example.org/v.mp4"></video>', "https://example.org/v.mp4"),
    ],
)
def test_sound_and_video_are_refused_by_name(html: str, named: str) -> None:
    data = f"::q:: Listen: {html} What is it? {{=a ~b}}\n".encode()
    with pytest.raises(ConversionError) as caught:
        read(data, "gift")
    assert caught.value.problems[0] == f"line 1 ::q::: sound or video ({named})"


def test_a_sound_file_in_the_zip_is_not_read_and_its_question_is_skipped_by_name() -> None:
    text = '::s:: <a href="@@PLUGINFILE@@/big.mp3">Listen</a> {T}\n\n::ok:: Fine? {T}\n'
    data = bundle("q.gift", text, {"big.mp3": random.Random(1).randbytes(6_000_000)})
    loaded = from_bundle(data, skip_unsupported=True)
    assert [q.id for q in loaded.quiz.questions] == ["ok"]
    assert loaded.skipped == ("line 1 ::s::: sound or video (big.mp3)",)


@pytest.mark.parametrize(
    "answers",
    [
        '=<img src\\="@@PLUGINFILE@@/a.png"> ~b',  # GIFT escapes = in an answer
        '~<img src\\="@@PLUGINFILE@@/a.png"> =b',
        '=<img src\\="@@PLUGINFILE@@/a.png">',  # a short answer
    ],
)
def test_an_answer_that_is_only_a_picture_is_refused_by_name(answers: str) -> None:
    data = f"::q:: Which? {{{answers}}}\n".encode()
    with pytest.raises(ConversionError) as caught:
        read(data, "gift")
    assert caught.value.problems[0] == (
        "line 1 ::q::: an answer that is only a picture (a.png); an answer is text"
    )


def test_a_picture_beside_the_text_of_an_answer_is_named_in_a_warning() -> None:
    loaded = read(b'::q:: Which? {=yes <img src\\="y.png"> ~no}\n', "gift")
    assert loaded.quiz.questions[0].options[0].get("en", "en") == "yes"
    assert loaded.warnings[0].endswith("(y.png) (line 1 ::q::)")


def test_a_question_that_is_only_a_picture_is_refused_by_name() -> None:
    with pytest.raises(ConversionError) as caught:
        read(b'::q:: <img src="a.png"> {T}\n', "gift")
    assert caught.value.problems[0] == (
        "line 1 ::q::: a question that is only a picture (a.png); a question has text"
    )


def test_a_picture_in_plain_or_markdown_text_is_text() -> None:
    loaded = read(b'::q:: [markdown]Is <img src="a.png"> a tag? {T}\n', "gift")
    assert loaded.quiz.questions[0].text.get("en", "en") == 'Is <img src="a.png"> a tag?'
    assert loaded.quiz.questions[0].image is None


def test_a_link_to_a_file_keeps_its_text_with_a_warning() -> None:
    loaded = read(b'::q:: Read <a href="@@PLUGINFILE@@/notes.pdf">the notes</a>. {T}\n', "gift")
    assert loaded.quiz.questions[0].text.get("en", "en") == "Read the notes."
    assert loaded.warnings == (
        "links to files are not kept, only their text (notes.pdf) (line 1 ::q::)",
    )


# --- Moodle XML: the same rules where they apply -----------------------------------------


def _xml(text_html: str, files: dict[str, bytes]) -> bytes:
    attached = "".join(
        f'<file name="{name}" path="/" encoding="base64">{base64.b64encode(data).decode()}</file>'
        for name, data in files.items()
    )
    return (
        '<quiz><question type="truefalse"><name><text>q</text></name>'
        f'<questiontext format="html"><text><![CDATA[{text_html}]]></text>{attached}'
        "</questiontext>"
        '<answer fraction="100"><text>true</text></answer>'
        '<answer fraction="0"><text>false</text></answer></question></quiz>'
    ).encode()


def test_moodle_xml_keeps_the_first_picture_and_names_the_others() -> None:
    data = _xml(
        'Which? <img src="@@PLUGINFILE@@/a.png"><img src="@@PLUGINFILE@@/b.png">',
        {"a.png": SYMBOL, "b.png": OTHER},
    )
    loaded = read(data, "xml")
    assert loaded.quiz.questions[0].image is not None
    assert loaded.quiz.questions[0].image.location == "a.png"
    assert (
        "pictures after the first in the question text are not kept (b.png)" in (loaded.warnings[0])
    )


def test_moodle_xml_sound_is_refused_by_name() -> None:
    data = _xml('Listen <audio src="@@PLUGINFILE@@/s.mp3"></audio>', {})
    with pytest.raises(ConversionError) as caught:
        read(data, "xml")
    assert caught.value.problems[0] == "line 1, question 'q': sound or video (s.mp3)"


# --- properties ----------------------------------------------------------------------------

NAMES = st.sampled_from(["a.png", "b c.png", "s%C3%ADmbolo.png", "../up.png", "", "x.mp3"])
PIECES = st.one_of(
    st.sampled_from(["Which", " ", "?", "<p>", "</p>", "<br>", "[html]", "&nbsp;", "#"]),
    NAMES.map(lambda name: f'<img src="@@PLUGINFILE@@/{name}">'),
    NAMES.map(lambda name: f'<img src="{name}" alt="alt">'),
    NAMES.map(lambda name: f'<a href="@@PLUGINFILE@@/{name}">link</a>'),
)


@given(
    stem=st.lists(PIECES, max_size=8).map("".join),
    answer=st.lists(PIECES, max_size=3).map(lambda parts: "".join(parts).replace("=", "\\=")),
    skip=st.booleans(),
)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_picture_is_kept_named_or_refused_by_name(stem: str, answer: str, skip: bool) -> None:
    text = f"::q:: {stem} {{={answer} ~other}}\n\n::ok:: Fine? {{T}}\n"
    files = {"a.png": SYMBOL, "b c.png": OTHER, "símbolo.png": SYMBOL}
    try:
        loaded = from_bundle(bundle("q.gift", text, files), skip_unsupported=skip)
    except ConversionError as error:
        assert error.problems  # refused, with a reason: nothing else may happen
        return
    question = loaded.quiz.question("q")
    if question is None:  # skipped: it says why
        assert any(line.startswith("line 1 ::q::") for line in loaded.skipped)
        return
    named = " ".join(loaded.warnings)
    for source in ("a.png", "b c.png", "símbolo.png"):
        if source in text or source.replace("í", "%C3%AD") in text:
            kept = {
                image.location for image in (question.image, question.explanation_image) if image
            }
            assert source in kept or source in named


def test_a_picture_in_a_code_block_is_not_lost_and_many_are_named_in_short() -> None:
    pictures = "".join(f'<img src="p{n}.png">' for n in range(40))
    text = f"::q:: [html]<pre>code {pictures}</pre> Which? {{T}}\n"
    files = {f"p{n}.png": SYMBOL for n in range(40)}
    loaded = from_bundle(bundle("q.gift", text, files))
    assert loaded.quiz.questions[0].image is not None
    assert loaded.quiz.questions[0].image.location == "p0.png"
    assert "(p1.png, p2.png, p3.png, p4.png, p5.png and 34 more)" in loaded.warnings[0]
