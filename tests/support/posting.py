"""Posted questions written through the storage API, as /push writes them."""

from __future__ import annotations

from storage import Storage
from storage.group_store import AnswerStatus, GroupSession


async def post(
    storage: Storage,
    chat_id: int,
    quiz_id: str,
    question_id: str,
    admin_id: int | None,
    now: float,
    message_id: int | None = 7,
) -> GroupSession:
    """A question posted into the chat (its message sent, unless `message_id` is None)."""
    session = await storage.groups.start_post(
        chat_id=chat_id, chat_type="channel", quiz_id=quiz_id, question_id=question_id,
        language="", posted_by=admin_id, now=now,
    )  # fmt: skip
    assert session is not None
    if message_id is not None:
        await storage.groups.post_sent(session.id, question_id, message_id, now)
    return session


async def answer_post(
    storage: Storage, session: GroupSession, user_id: int, chosen: int, correct: bool, now: float
) -> AnswerStatus:
    """A member's answer to a posted question, as the bot records it (no points)."""
    outcome = await storage.groups.record_answer(
        session_id=session.id, position=0, question_id=session.question_ids[0], user_id=user_id,
        name=f"name-{user_id}", chosen=chosen, correct=correct, elapsed=now - session.started_at,
        points=0, now=now,
    )  # fmt: skip
    return outcome.status
