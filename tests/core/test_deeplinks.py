"""The deep-link codec: what it makes fits Telegram, and nothing else opens a link."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.core.deeplinks import (
    DAY,
    AssignmentReport,
    Homework,
    LinkSigner,
    MissedReview,
    Refused,
    ReportFile,
    key_from_token,
    looks_signed,
    url,
)

SIGNER = LinkSigner(key_from_token("123:token"))
NOW = 1_800_000_000.0
ids = st.integers(min_value=0, max_value=2**63 - 1)
kinds = st.sampled_from([MissedReview, Homework, ReportFile, AssignmentReport])


@given(kinds, ids, st.floats(min_value=0, max_value=4e9))
def test_a_link_fits_telegram_and_reads_back(kind: type, number: int, now: float) -> None:
    link = kind(number)
    payload = SIGNER.encode(link, now)
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", payload)
    assert looks_signed(payload) and not looks_signed("quiz-" + payload)
    assert SIGNER.decode(payload, now) == link
    assert SIGNER.decode(payload, now + kind.lifetime - 1) == link
    assert SIGNER.decode(payload, now + kind.lifetime + 1) is Refused.EXPIRED


@given(kinds, ids, st.data())
def test_any_change_to_a_payload_is_forged(kind: type, number: int, data: st.DataObject) -> None:
    payload = SIGNER.encode(kind(number), NOW)
    at = data.draw(st.integers(0, len(payload) - 1))
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
    new = data.draw(st.sampled_from(alphabet).filter(lambda c: c != payload[at]))
    changed = payload[:at] + new + payload[at + 1 :]
    assert SIGNER.decode(changed, NOW) is Refused.FORGED


def test_another_sessions_link_cannot_be_made_from_ones_own() -> None:
    mine = SIGNER.encode(MissedReview(5), NOW)
    body, signature = mine[:-17], mine[-16:]
    theirs = body.replace("M_5_", "M_6_", 1) + "_" + signature
    assert SIGNER.decode(theirs, NOW) is Refused.FORGED
    other_bot = LinkSigner(key_from_token("999:other"))
    assert other_bot.decode(mine, NOW) is Refused.FORGED


@given(st.text(max_size=80))
def test_any_text_is_refused_or_read_never_crashes(text: str) -> None:
    assert SIGNER.decode(text, NOW) in (Refused.FORGED, Refused.EXPIRED) or isinstance(
        SIGNER.decode(text, NOW), MissedReview | Homework | ReportFile | AssignmentReport
    )


def test_the_url_and_an_explicit_lifetime() -> None:
    payload = SIGNER.encode(Homework(1), NOW, lifetime=60)
    assert url("quiz_tutor_bot", payload) == f"https://t.me/quiz_tutor_bot?start={payload}"
    assert SIGNER.decode(payload, NOW + 61) is Refused.EXPIRED
    assert Homework.lifetime > 365 * DAY
