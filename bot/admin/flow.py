"""Questions added and retired through the bot, and the figures of `/stats`.

Every change is validated like a bank on disk (the rules are `content.editing`'s: an
`/addquestion` draft, `drafting.py`; quiz polls collected, `collecting.py`), stored in SQLite
(one transaction with its audit entry, `storage.content_store`), and only then put into the
running catalog. A whole bank imported is `importing.py`'s.
"""

from __future__ import annotations

import asyncio

from bot.admin import render
from bot.admin.collecting import Collection
from bot.admin.drafting import Draft
from bot.admin.pictures import bank_pictures
from bot.core.context import Services
from bot.core.i18n import Locale
from content.editing import add_question, add_questions, retire_question
from content.export import dump_bank
from content.loader import BankResult
from content.model import Question, Quiz

# a question added with /addquestion


async def draft_result(services: Services, draft: Draft) -> BankResult:
    """The quiz with the draft added, validated like a bank on disk (nothing stored)."""
    quiz = services.catalog.get(draft.quiz_id)
    if quiz is None:
        return BankResult(draft.quiz_id, None, (f"quiz {draft.quiz_id} no longer exists",))
    taken = await services.storage.content.known_question_ids(quiz.id)
    default = services.settings.default_language
    data = draft.question_data(default)
    # validated and written as YAML like a whole bank: CPU work for a large quiz
    return await asyncio.to_thread(add_question, quiz, data, taken, default)


async def save_draft(services: Services, draft: Draft, admin_id: int) -> BankResult:
    """Validate against the quiz as it is now, store, and put it into the catalog."""
    async with services.locks.bank:
        return await _save_draft(services, draft, admin_id)


async def _save_draft(services: Services, draft: Draft, admin_id: int) -> BankResult:
    result = await draft_result(services, draft)
    if result.quiz is None:
        return result
    added = result.quiz.questions[-1]
    await services.storage.content.save_bank(
        result.quiz.id,
        await asyncio.to_thread(dump_bank, result.quiz),
        admin_id,
        services.clock(),
        "add_question",
        {"question": added.id},
        pictures=await bank_pictures(services, result.quiz),
    )
    services.catalog.put(result.quiz)
    return result


# quiz polls collected (/collect ... /done)


async def save_collection(
    services: Services, collection: Collection, admin_id: int
) -> tuple[BankResult, list[Question]]:
    """Add the collected questions to the quiz as it is now: validated, stored with new ids
    and one audit entry, put into the catalog; or the errors (nothing stored)."""
    async with services.locks.bank:
        quiz = services.catalog.get(collection.quiz_id)
        if quiz is None:
            missing = f"quiz {collection.quiz_id} no longer exists"
            return BankResult(collection.quiz_id, None, (missing,)), []
        taken = await services.storage.content.known_question_ids(quiz.id)
        result = await asyncio.to_thread(
            add_questions, quiz, collection.questions, taken, services.settings.default_language
        )
        if result.quiz is None:
            return result, []
        added = list(result.quiz.questions[len(quiz.questions) :])
        await services.storage.content.save_bank(
            quiz.id,
            await asyncio.to_thread(dump_bank, result.quiz),
            admin_id,
            services.clock(),
            "collect",
            {"questions": [q.id for q in added]},
            pictures=await bank_pictures(services, result.quiz),
        )
        services.catalog.put(result.quiz)
        return result, added


# retiring


async def retire(services: Services, quiz: Quiz, question_id: str, admin_id: int) -> Quiz:
    """Retire a question: stored, audited, out of the catalog; answers stay where they are."""
    async with services.locks.bank:
        current = services.catalog.get(quiz.id) or quiz
        return await _retire(services, current, question_id, admin_id)


async def _retire(services: Services, quiz: Quiz, question_id: str, admin_id: int) -> Quiz:
    smaller, gone = retire_question(quiz, question_id)
    default = services.settings.default_language
    await services.storage.content.save_bank(
        quiz.id,
        await asyncio.to_thread(dump_bank, smaller),
        admin_id,
        services.clock(),
        "retire",
        {"question": question_id},
        retired=[(question_id, gone.text.get(default, default))],
        pictures=await bank_pictures(services, smaller),
    )
    services.catalog.put(smaller)
    return smaller


# statistics


async def stats(services: Services, locale: Locale) -> list[str]:
    store = services.storage.content
    return await asyncio.to_thread(  # every quiz of a large catalog: off the event loop
        render.stats_messages,
        list(services.catalog),
        await store.learner_count(),
        await store.quiz_totals(),
        await store.question_stats(),
        await store.retired(),
        locale,
        await store.wrong_replies(),
        await store.questions_with_credit(),
    )
