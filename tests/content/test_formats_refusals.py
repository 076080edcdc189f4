"""Every reader refuses what it cannot read with the place of each problem: one table of
mistakes over the text formats (Aiken, CSV, GIFT), and the sample files a bank cannot hold."""

from __future__ import annotations

import pytest

from content.formats.table import COLUMNS
from tests.support.formats import HERE, refused


@pytest.mark.parametrize(
    ("fmt", "file", "problems"),
    [
        (
            "gift",
            "no_right_answer.gift",
            (
                "line 4 ::broken::: no right answer: mark it with = (or with a positive weight ~%50%)",
            ),
        ),
        (
            "csv",
            "unknown_type.csv",
            (
                "line 3: unknown type 'essay'; the types are single, multiple, true_false, numeric, typed",
            ),
        ),
        (
            "gift",
            "unsupported.gift",
            (
                "line 4 ::match::: a matching question (=item -> match)",
                "line 6 ::essay::: an essay question (an empty answer section {})",
                "line 8 ::partial::: partial credit (50%) for a short answer",
                "line 10: a description (text with no answer section {…})",
            ),
        ),
        (
            "xml",
            "unsupported.xml",
            (
                "line 9, question 'sum': a question of type calculated",
                "line 13, question 'cloze': a question of type cloze (embedded answers)",
                "line 17, question 'pairs': a question of type matching",
                "line 21, question 'essay': a question of type essay",
            ),
        ),
    ],
)
def test_a_file_is_refused_with_every_problem_at_its_place(
    fmt: str, file: str, problems: tuple[str, ...]
) -> None:
    assert refused((HERE / file).read_bytes(), fmt) == problems


@pytest.mark.parametrize(
    ("fmt", "text", "problem"),
    [
        (
            "aiken",
            "Q?\nA. a\nB. b\nANSWER: C\n",
            "line 4 'Q?': ANSWER: 'C' is not one letter A to B",
        ),
        (
            "aiken",
            "Q?\nA. a\nC. c\nANSWER: A\n",
            "line 3 'Q?': option C where B was expected (A, B, C... in order)",
        ),
        (
            "aiken",
            "Q?\nA. a\nB. b",
            "line 1 'Q?': a question ends with its ANSWER: line (none found)",
        ),
        (
            "aiken",
            "Q?\nA. a\nB. b\nAnswer: A\n",
            "line 4 'Q?': write ANSWER: in capitals (found 'Answer')",
        ),
        (
            "aiken",
            "Q?\nA. a\nB. b\nmore text\nANSWER: A\n",
            "line 4 'Q?': after the options comes ANSWER: (an option takes one line)",
        ),
        ("aiken", "Q?\nA. a\nANSWER: A\n", "line 3 'Q?': ANSWER: before two options A. and B."),
        (
            "aiken",
            "Q?\nA. a\nB. b\n\nNext?\nA. x\nB. y\nANSWER: B\n",
            "line 1 'Q?': a question ends with its ANSWER: line (none found)",
        ),
        (
            "csv",
            "id,question,answer,colour\n",
            "line 1: unknown column 'colour' (column 4); the columns are " + ", ".join(COLUMNS),
        ),
        ("csv", "id,question,option1,option2\n", "line 1: no answer column"),
        (
            "csv",
            "question,option1,option2,answer,guide\nWhich?,a,b,A,https://example.org/#s\n",
            "line 2: a guide has a guide_title and a guide (its URL)",
        ),
        (
            "csv",
            "question,option1,option2,answer,guide_title:yo\nWhich?,a,b,A,Apá\n",
            "line 2: a guide has a guide_title and a guide (its URL)",
        ),
        ("csv", "question,answer,question\n", "line 1: column 'question' is there twice"),
        (
            "csv",
            "question,answer,tolerance:yo\n",
            "line 1: column 'tolerance:yo': tolerance has no languages",
        ),
        (
            "csv",
            "question,option1,option2,answer\nWhich?,a,b,C\n",
            "line 2: answer C: there is no option3",
        ),
        (
            "csv",
            "question,option1,option2,answer\nWhich?,a,b,A;B\n",
            "line 2: answer 'A;B': a single question has one right option; for several write type multiple",
        ),
        (
            "csv",
            "question,option1,option2,answer\nWhich?,a,b,1\n",
            "line 2: answer '1': the right option's letter, such as A",
        ),
        (
            "csv",
            "question,option1,option2,answer\nIs it?,a,b,true\n",
            "line 2: answer 'true': the right option's letter, such as A; for true/false write type true_false",
        ),
        (
            "csv",
            "question,option1,option3,answer\nWhich?,a,c,A\n",
            "line 2: option2 is empty but a later option is not",
        ),
        (
            "csv",
            "type,question,answer\nnumeric,How many?,fourteen\n",
            "line 2: answer 'fourteen' is not a number such as 14, 0.5 or 1.5e3 (at most 15 digits)",
        ),
        (
            "csv",
            "type,question,answer\ntrue_false,Is it?,yes\n",
            "line 2: answer 'yes': a true_false answer is true or false",
        ),
        ("csv", 'question,answer\n"Which?\n', "line 2: unexpected end of data"),
        (
            "csv",
            "question,option1,option2,answer\nWhich?,a,b,A,extra\n",
            "line 2: a value in column 5, which has no header",
        ),
        (
            "gift",
            "::q:: Which? {=a ~b",
            "line 1 ::q::: a { without its }; write a literal brace as \\{ or \\}",
        ),
        (
            "gift",
            "::q:: Which? =a ~b}",
            "line 1 ::q::: a } without its {; write a literal brace as \\{ or \\}",
        ),
        (
            "gift",
            "::q:: A {=a ~b} and {=c ~d}",
            "line 1 ::q::: more than one answer section {…}; write a literal brace as \\{ or \\}",
        ),
        ("gift", "::q Which? {T}", "line 1: a question name opened with :: is not closed with ::"),
        (
            "gift",
            "::q:: How many? {#four}",
            "line 1 ::q::: 'four' is not a number such as 14, 14:0.5 or 3..5",
        ),
        ("gift", "::q:: How many? {#5..3}", "line 1 ::q::: '5..3' is not a range such as 3..5"),
        (
            "gift",
            "::q:: Which? {=a =b ~c}",
            "line 1 ::q::: several answers marked = in a one-answer question (any of them right); for a question with several right options write ~%50% weights",
        ),
        (
            "gift",
            "$CATEGORY: x\n::q:: Is it? {T}",
            "line 1: a question right after $CATEGORY: put a blank line between them (Moodle would read the question as part of the category)",
        ),
        (
            "gift",
            "::q:: Which? {~%150%a ~b}",
            "line 1 ::q::: a weight of 150%: weights are -100% to 100%",
        ),
    ],
)
def test_mistakes_are_refused_at_their_line(fmt: str, text: str, problem: str) -> None:
    problems = refused(text.encode(), fmt)
    assert problems[0] == problem
