"""Question images (issue 14, content side): where a bank's images come from and what they
must be (PNG/JPEG/WebP by content, 5 MiB, Telegram's photo limits), paths that cannot leave
the bank's folder, and the errors with their places."""

from __future__ import annotations

import os
import zlib
from pathlib import Path

import pytest
import yaml

from bench.hostile import png_of_zeros
from content import images
from content.images import (
    MAX_BANK_IMAGES_BYTES,
    MAX_IMAGE_BYTES,
    BundleImages,
    ImageError,
    image_location,
    inspect_image,
)
from content.loader import EVERYTHING, BankResult, load_bank_file, parse_bank
from tests.support.banks import the_only_error
from tests.support.images import encoded, png, png_claiming, png_with


def bank_with_images(folder: Path, *images: str, field: str = "image") -> Path:
    questions = [
        {"id": f"q{n}", "type": "true_false", "text": "Is it?", "answer": True, field: image}
        for n, image in enumerate(images, 1)
    ]
    data = {"id": "pics", "title": "Pictures", "level": "easy", "questions": questions}
    path = folder / "pics.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def load(path: Path) -> BankResult:
    return load_bank_file(path, "en", EVERYTHING)


def only_error(path: Path) -> str:
    return the_only_error(load(path))


def put(folder: Path, name: str, data: bytes) -> None:
    (folder / name).parent.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)


# --- what an image must be --------------------------------------------------------------


@pytest.mark.parametrize("kind", ["PNG", "JPEG", "WEBP"])
def test_png_jpeg_and_webp_are_taken(kind: str) -> None:
    info = inspect_image(encoded(30, 20, kind))
    assert (info.width, info.height) == (30, 20)
    assert info.format in {"PNG", "JPEG", "WebP"}


@pytest.mark.parametrize("kind", ["GIF", "BMP", "TIFF"])
def test_other_formats_are_refused_by_content(kind: str) -> None:
    with pytest.raises(ImageError, match="not a PNG, JPEG or WebP"):
        inspect_image(encoded(30, 20, kind))


@pytest.mark.parametrize(
    "data",
    [b"", b"hello", b"<svg xmlns='http://www.w3.org/2000/svg'/>", b"\x89PNG\r\n\x1a\n"],
)
def test_what_is_not_an_image_is_refused(data: bytes) -> None:
    with pytest.raises(ImageError, match="not a PNG, JPEG or WebP"):
        inspect_image(data)


def test_a_damaged_png_is_refused() -> None:
    data = bytearray(png(30, 20))
    data[40] ^= 0xFF  # inside IDAT: its checksum no longer matches
    with pytest.raises(ImageError, match="damaged"):
        inspect_image(bytes(data))
    with pytest.raises(ImageError, match="damaged"):
        inspect_image(png(30, 20)[:60])  # cut short


def test_the_size_limits_of_telegram_photos() -> None:
    assert inspect_image(encoded(5000, 5000, mode="1")).width == 5000  # width + height = 10,000
    with pytest.raises(ImageError, match="width \\+ height is at most 10,000"):
        inspect_image(encoded(5001, 5000, mode="1"))
    assert inspect_image(encoded(2000, 100, mode="1")).width == 2000  # 20 to 1
    with pytest.raises(ImageError, match="at most 20 times"):
        inspect_image(encoded(2001, 100, mode="1"))
    with pytest.raises(ImageError, match="at most 20 times"):
        inspect_image(encoded(10, 201, mode="1"))


@pytest.mark.parametrize(
    ("width", "height"),
    [
        (20_000, 20_000),  # above twice Pillow's MAX_IMAGE_PIXELS: Pillow refuses it on open
        (9_500, 9_500),  # between once and twice: Pillow only warns; the warning refuses it too
    ],
)
def test_decompression_bombs_are_refused_from_their_header(width: int, height: int) -> None:
    with pytest.raises(ImageError, match="too many pixels"):
        inspect_image(png_claiming(width, height))


def test_a_png_that_inflates_past_64_mib_is_refused_from_its_header(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """195 KB of 5,000 × 5,000 16-bit RGBA inflate to 200 MB: refused before inflating."""
    bomb = png_of_zeros(5000, 5000, depth=16, colour=6)
    assert len(bomb) < 250_000
    monkeypatch.setattr(images.zlib, "decompressobj", _no_inflating)
    with pytest.raises(ImageError) as caught:
        inspect_image(bomb)
    assert str(caught.value) == (
        "5000 × 5000 pixels of 64 bits take 191 MiB once inflated; a picture may take at most "
        "64 MiB (save it smaller, or with 8 bits a channel)"
    )


def test_a_size_telegram_refuses_is_refused_before_inflating(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wide = png_of_zeros(9_000, 1_100, depth=1, colour=0)
    monkeypatch.setattr(images.zlib, "decompressobj", _no_inflating)
    with pytest.raises(ImageError, match="width \\+ height is at most 10,000"):
        inspect_image(wide)


def _no_inflating() -> None:
    raise AssertionError("the pixel data was inflated")


def test_a_banks_pngs_together_inflate_to_at_most_512_mib(tmp_path: Path) -> None:
    big = png_of_zeros(3300, 3300, colour=6)  # 41.5 MiB inflated, 44 KB as a file
    names = [f"i{n}.png" for n in range(13)]
    for name in names:
        put(tmp_path, name, big)
    result = load(bank_with_images(tmp_path, *names))
    assert result.errors == (
        "question q13 (#13), field image: i12.png: the bank's PNG pictures would take more "
        "than 512 MiB together once inflated (save some smaller, or as JPEG)",
    )


def test_more_than_5_mib_is_refused_before_decoding() -> None:
    with pytest.raises(ImageError, match="at most 5 MiB"):
        inspect_image(png(8, 8) + b"\x00" * MAX_IMAGE_BYTES)


# --- where images come from -------------------------------------------------------------


def test_images_beside_the_bank_are_checked_and_kept(tmp_path: Path) -> None:
    put(tmp_path, "images/a.png", png(20, 10))
    put(tmp_path, "b.jpg", encoded(20, 10, "JPEG"))
    path = bank_with_images(tmp_path, "images/a.png", "b.jpg", "images/a.png")
    result = load(path)
    assert result.errors == ()
    assert result.quiz is not None
    first, second, third = (q.image for q in result.quiz.questions)
    assert first is not None and second is not None and third is not None
    assert first == third and first.sha256 != second.sha256
    assert set(result.images) == {"images/a.png", "b.jpg"}
    assert result.images["b.jpg"] == (tmp_path / "b.jpg").read_bytes()


def test_a_missing_image_is_an_error_with_its_place(tmp_path: Path) -> None:
    path = bank_with_images(tmp_path, "images/schedule.png")
    error = only_error(path)
    assert error == (
        "question q1 (#1), field image: images/schedule.png: no such file beside the bank"
    )


def test_an_image_too_big_is_an_error_with_its_place(tmp_path: Path) -> None:
    put(tmp_path, "big.png", png(8, 8) + b"\x00" * MAX_IMAGE_BYTES)
    error = only_error(bank_with_images(tmp_path, "big.png", field="explanation_image"))
    assert error.startswith("question q1 (#1), field explanation_image: big.png: ")
    assert "an image may have at most 5 MiB" in error


def test_an_image_that_is_not_one_is_an_error(tmp_path: Path) -> None:
    put(tmp_path, "fake.png", b"GIF89a" + b"\x00" * 100)
    error = only_error(bank_with_images(tmp_path, "fake.png"))
    assert error.startswith("question q1 (#1), field image: fake.png: not a PNG, JPEG or WebP")


def test_every_image_error_is_reported_once_per_place(tmp_path: Path) -> None:
    path = bank_with_images(tmp_path, "gone.png", "gone.png", "also-gone.png")
    result = load(path)
    assert [error.split(":")[0] for error in result.errors] == [
        "question q1 (#1), field image",
        "question q2 (#2), field image",
        "question q3 (#3), field image",
    ]


def test_a_link_leaving_the_bank_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "bank"
    folder.mkdir()
    put(tmp_path, "outside.png", png())
    os.symlink(tmp_path / "outside.png", folder / "inside.png")
    error = only_error(bank_with_images(folder, "inside.png"))
    assert "inside.png: a link that leads out of the bank's folder" in error


def test_a_link_inside_the_bank_folder_is_followed(tmp_path: Path) -> None:
    put(tmp_path, "images/real.png", png())
    os.symlink(tmp_path / "images" / "real.png", tmp_path / "alias.png")
    assert load(bank_with_images(tmp_path, "alias.png")).errors == ()


def test_a_linked_folder_leaving_the_bank_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "bank"
    folder.mkdir()
    put(tmp_path, "elsewhere/a.png", png())
    os.symlink(tmp_path / "elsewhere", folder / "images")
    assert "leads out of the bank's folder" in only_error(bank_with_images(folder, "images/a.png"))


def test_a_folder_or_a_pipe_is_not_an_image(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    os.mkfifo(tmp_path / "pipe.png")  # reading it would block: it must not be opened
    result = load(bank_with_images(tmp_path, "images", "pipe.png"))
    assert [error.split(": ", 2)[2] for error in result.errors] == ["not a file", "not a file"]


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("images/a.png", "images/a.png"),
        ("./images//a.png", "images/a.png"),
        ("a.png", "a.png"),
        ("https://example.org/a.png?x=1", "https://example.org/a.png?x=1"),
    ],
)
def test_image_locations_are_made_canonical(text: str, canonical: str) -> None:
    assert image_location(text) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "..",
        "a/../b.png",
        "/abs.png",
        "C:\\a.png",
        "c:/a.png",
        "a\\b.png",
        "a\x00.png",
        ".",
        "./",
        "http://e.org/a.png",
        "file:///etc/passwd",
        "data:image/png;base64,AAAA",
        "https://",
        "https:///a.png",
        "HTTPS://e.org/a.png",
    ],
)
def test_image_locations_that_could_escape_or_mislead_are_refused(text: str) -> None:
    with pytest.raises(ImageError):
        image_location(text)


def test_a_bank_sent_alone_may_use_urls_but_not_files() -> None:
    text = (
        "id: pics\ntitle: P\nlevel: easy\nquestions:\n"
        "  - {id: q1, type: true_false, text: t, answer: true, image: https://e.org/a.png}\n"
        "  - {id: q2, type: true_false, text: t, answer: true, image: images/a.png}\n"
    )
    result = parse_bank(text, "upload.yaml", "en", accepts=EVERYTHING)
    assert result.errors == (
        "question q2 (#2), field image: images/a.png: not found: send the file as a .zip "
        "that holds it and its images",
    )


def test_images_given_as_bytes_by_path() -> None:
    text = (
        "id: pics\ntitle: P\nlevel: easy\nquestions:\n"
        "  - {id: q1, type: true_false, text: t, answer: true, image: images/a.png}\n"
        "  - {id: q2, type: true_false, text: t, answer: true, image: images/b.png}\n"
    )
    images = BundleImages({"images/a.png": png(), "images/b.png": b"nope"})
    result = parse_bank(text, "bundle", "en", images=images, accepts=EVERYTHING)
    assert result.errors == (
        "question q2 (#2), field image: images/b.png: not a PNG, JPEG or WebP image (the "
        "file's content is checked, not its name)",
    )


def test_a_banks_images_together_are_bounded(tmp_path: Path) -> None:
    noise = png(8, 8) + b"\x00" * (MAX_IMAGE_BYTES - 200)  # a valid PNG with trailing bytes
    count = MAX_BANK_IMAGES_BYTES // len(noise) + 1
    names = [f"i{n}.png" for n in range(count)]
    for name in names:
        put(tmp_path, name, noise)
    result = load(bank_with_images(tmp_path, *names))
    assert result.errors == (
        f"question q{count} (#{count}), field image: {names[-1]}: the bank's images would "
        "weigh more than 19 MiB together",
    )


@pytest.mark.parametrize(
    "pixels",
    [
        b"not zlib at all",  # checksums right, data that no decoder reads
        zlib.compress(b"\x00" * 10),  # far fewer rows than the header declares
        zlib.compress(b"\x00" * (1 + 3 * 50) * 50 * 4),  # four times more (a bomb in IDAT)
        zlib.compress(b"\x00" * (1 + 3 * 50) * 50)[:-6],  # the stream cut short
    ],
)
def test_a_png_whose_pixel_data_does_not_fit_its_header_is_damaged(pixels: bytes) -> None:
    with pytest.raises(ImageError, match="damaged"):
        inspect_image(png_with(50, 50, pixels))
    assert inspect_image(png_with(50, 50, zlib.compress(b"\x00" * (1 + 3 * 50) * 50))).width == 50
