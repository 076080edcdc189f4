"""A chat's members' selections on multiple questions (`group_picks`), toggled in batches
(storage/batching.py): in a big group, a tap on an option is the most frequent write of all,
and a transaction for each would hold the write lock that the answers' batches need.

A toggle is taken only while its question takes answers (as storage/group_batch.py decides
it: the session runs, the question is its current one, not revealed, its deadline not
passed) and the member has not answered it; a batch holds at most one toggle per member and
question, so each sees the one before it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from storage.batching import BatchTx, placeholders
from storage.group_batch import OPEN_QUESTION, AnswerStatus, MemberTap, standing_answers


@dataclass(frozen=True)
class PickOutcome:
    """What a member's tap on an option of a multiple question did: toggled it (RECORDED,
    with their selection now, a bit per option), nothing as they answered before (ALREADY),
    or nothing as the question is closed (CLOSED)."""

    status: AnswerStatus
    options: int = 0


@dataclass(frozen=True)
class PendingPick(MemberTap):
    option: int
    at: float


async def write_picks(tx: BatchTx, batch: Sequence[PendingPick]) -> list[PickOutcome]:
    """Toggle each pick whose question is open and whose member has not answered it; say of
    each what became of it."""
    if len({pick.key for pick in batch}) != len(batch):
        raise ValueError("a batch takes at most one pick per person and question")
    rows = [
        (seq, p.session_id, p.position, p.question_id, p.user_id, 1 << p.option, p.at)
        for seq, p in enumerate(batch)
    ]
    # SQLite has no XOR: a | b minus a & b
    toggled = {
        (row[0], row[1], row[2]): int(row[3])
        for row in await tx.fetchall(
            f"""WITH incoming(seq, session_id, position, question_id, user_id, bit, at)
                     AS (VALUES {placeholders(len(rows), 7)})
                INSERT INTO group_picks (session_id, position, user_id, options, updated_at)
                SELECT i.session_id, i.position, i.user_id, i.bit, i.at
                {OPEN_QUESTION}
                  AND NOT EXISTS (SELECT 1 FROM group_answers AS a
                                  WHERE a.session_id = i.session_id
                                    AND a.position = i.position AND a.user_id = i.user_id)
                ORDER BY i.seq
                ON CONFLICT(session_id, position, user_id) DO UPDATE SET
                    options = (options | excluded.options) - (options & excluded.options),
                    updated_at = excluded.updated_at
                RETURNING session_id, position, user_id, options""",
            *itertools.chain.from_iterable(rows),
        )
    }
    refused = [pick for pick in batch if pick.key not in toggled]
    answered = await standing_answers(tx, refused) if refused else {}
    outcomes = []
    for pick in batch:
        if pick.key in toggled:
            outcomes.append(PickOutcome(AnswerStatus.RECORDED, toggled[pick.key]))
        elif pick.key in answered:
            outcomes.append(PickOutcome(AnswerStatus.ALREADY))
        else:
            outcomes.append(PickOutcome(AnswerStatus.CLOSED))
    return outcomes
