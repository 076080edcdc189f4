"""The seed bank as shipped: no machine path in it, and a guide that is a real page."""

from __future__ import annotations

from bot.config import DEFAULT_CONTENT_DIR
from content.loader import bank_files, load_bank_file


def test_the_seed_bank_names_no_machine_path_and_links_a_real_guide() -> None:
    for path in bank_files(DEFAULT_CONTENT_DIR):
        text = path.read_text(encoding="utf-8")
        assert "/work/" not in text and "/home/" not in text, path
        quiz = load_bank_file(path, "en").quiz  # pictures are read beside the bank
        assert quiz is not None
        if quiz.guide is not None:
            assert "example.org" not in quiz.guide.url and "example.com" not in quiz.guide.url


# The headings of the guide's page (huggingface/transformers docs/source/en/perf_train_gpu_many.md,
# "Parallelism methods"), and the anchors its documentation builder makes of them: lower case,
# spaces as hyphens. A question's section must be one of these.
GUIDE_SECTIONS = {
    "Scalability strategy": "scalability-strategy",
    "Data parallelism": "data-parallelism",
    "DataParallel": "dataparallel",
    "DistributedDataParallel": "distributeddataparallel",
    "ZeRO data parallelism": "zero-data-parallelism",
    "Model parallelism": "model-parallelism",
    "Pipeline parallelism": "pipeline-parallelism",
    "Tensor parallelism": "tensor-parallelism",
    "Hybrid parallelism": "hybrid-parallelism",
    "Data parallelism and pipeline parallelism": "data-parallelism-and-pipeline-parallelism",
}


def test_every_seed_question_names_a_real_section_of_the_guide() -> None:
    quiz = load_bank_file(DEFAULT_CONTENT_DIR / "model-pipeline-parallelism.yaml", "en").quiz
    assert quiz is not None and quiz.guide is not None
    for question in quiz.questions:
        guide = question.guide
        assert guide is not None, question.id
        page, _, anchor = guide.url.partition("#")
        assert page == quiz.guide.url, question.id
        title = guide.title.get("en", "en")
        assert GUIDE_SECTIONS.get(title) == anchor, (question.id, title, anchor)
        assert anchor == title.lower().replace(" ", "-")
