"""Admins in their private chat: /import, /addquestion, /export, /delquestion, /push,
/schedule, /stats. (The buttons of a posted question are the group feature's: handlers/group.py.)

Everyone else who sends an admin command gets a polite refusal and nothing changes.
"""

from __future__ import annotations

import asyncio
import html
import secrets
import warnings

from telegram import Update
from telegram.ext import (
    BaseHandler,
    CommandHandler,
    ConversationHandler,
    MessageHandler,
    filters,
)
from telegram.warnings import PTBUserWarning

from bot.admin import flow, render
from bot.admin.flow import Draft
from bot.core import arguments, callbacks
from bot.core.arguments import Refusal
from bot.core.context import QuizContext
from bot.core.handlers import PRIVATE_MESSAGE, TapHandler
from bot.core.i18n import Locale, language_name
from bot.core.render import Reply, letter, split_blocks
from bot.group import flow as group_flow
from content.editing import EditError
from content.export import dump_bank
from content.schema import MAX_EXPLANATION_LENGTH, MAX_QUESTION_LENGTH

ADMIN_COMMANDS = ("import", "addquestion", "export", "delquestion", "push", "schedule", "stats")
DRAFT_KEY = "admin_draft"
TEXT, OPTIONS, ANSWER, EXPLANATION, TRANSLATION, CONFIRM = range(6)
END = ConversationHandler.END


async def _admin_locale(update: Update, context: QuizContext) -> Locale | None:
    """The admin's locale; for anyone else a refusal is sent and None returned."""
    assert update.effective_user and update.effective_chat
    _, locale = await context.services.learner(update.effective_user)
    if flow.is_admin(context.services, update.effective_user.id):
        return locale
    if update.callback_query is not None:
        await update.callback_query.answer(locale.t("not_admin"))
    else:
        await context.bot.send_message(update.effective_chat.id, locale.t("not_admin"))
    return None


async def _say(update: Update, context: QuizContext, text: str) -> None:
    assert update.effective_chat
    await context.bot.send_message(update.effective_chat.id, text)


async def import_bank(update: Update, context: QuizContext) -> None:
    """A YAML document captioned `/import`, or `/import` in reply to one."""
    locale = await _admin_locale(update, context)
    message = update.effective_message
    if locale is None or message is None or update.effective_user is None:
        return
    document = message.document
    if document is None and message.reply_to_message is not None:
        document = message.reply_to_message.document
    if document is None:
        await _say(update, context, locale.t("usage_import"))
        return
    await flow.import_document(
        context.bot,
        context.services,
        message.chat.id,
        update.effective_user.id,
        document,
        locale,
    )


async def export(update: Update, context: QuizContext) -> None:
    """`/export <quiz id>`: the bank as a YAML document that /import accepts back."""
    locale = await _admin_locale(update, context)
    if locale is None:
        return
    assert update.effective_chat
    quiz = arguments.export(context.args, context.services.catalog)
    if isinstance(quiz, Refusal):
        await _say(update, context, quiz.text(locale))
        return
    await context.bot.send_document(
        update.effective_chat.id,
        (await asyncio.to_thread(dump_bank, quiz)).encode(),  # CPU work for a large bank
        filename=f"{quiz.id}.yaml",
        caption=locale.t("export_caption", quiz_id=quiz.id, n=len(quiz)),
    )


async def delquestion(update: Update, context: QuizContext) -> None:
    """`/delquestion <quiz id> <question id>`: retire it; answers already given are kept."""
    locale = await _admin_locale(update, context)
    if locale is None or update.effective_user is None:
        return
    wanted = arguments.delquestion(context.args, context.services.catalog)
    if isinstance(wanted, Refusal):
        await _say(update, context, wanted.text(locale))
        return
    quiz, question_id = wanted
    shown = {"quiz_id": quiz.id, "question_id": html.escape(question_id)}
    if len(quiz) == 1:
        await _say(update, context, locale.t("last_question", **shown))
        return
    try:
        smaller = await flow.retire(context.services, quiz, question_id, update.effective_user.id)
    except EditError as error:  # another admin changed the quiz in the meantime
        await _say(update, context, html.escape(str(error)))
        return
    await _say(update, context, locale.t("question_retired", **shown, n=len(smaller)))


async def push(update: Update, context: QuizContext) -> None:
    """`/push <quiz id> <@channel or chat id>`: the next unposted question, answerable there."""
    locale = await _admin_locale(update, context)
    if locale is None or update.effective_user is None:
        return
    wanted = arguments.push(context.args, context.services.catalog)
    if isinstance(wanted, Refusal):
        await _say(update, context, wanted.text(locale))
        return
    quiz, target = wanted
    outcome = await group_flow.push_next(
        context.bot, context.services, context.job_queue, quiz, target, update.effective_user.id
    )
    await _say(update, context, outcome.text(locale))


async def schedule(update: Update, context: QuizContext) -> None:
    """`/schedule <quiz id> <chat> <HH:MM>`: `/push` every day at that time (UTC);
    `off` instead of the time ends it."""
    locale = await _admin_locale(update, context)
    if locale is None or update.effective_user is None:
        return
    wanted = arguments.schedule(context.args)
    if isinstance(wanted, Refusal):
        await _say(update, context, wanted.text(locale))
        return
    assert context.job_queue is not None
    outcome = await flow.set_schedule(
        context.services,
        context.job_queue,
        wanted.quiz_id,
        wanted.chat,
        wanted.minute_of_day,
        update.effective_user.id,
    )
    await _say(update, context, outcome.text(locale))


async def stats(update: Update, context: QuizContext) -> None:
    """Learners, answers and the hardest questions, per quiz; retired questions marked."""
    locale = await _admin_locale(update, context)
    if locale is None:
        return
    for text in await flow.stats(context.services, locale):
        await _say(update, context, text)


# /addquestion: a conversation


def _draft(context: QuizContext) -> Draft | None:
    draft = context.user_data.get(DRAFT_KEY) if context.user_data is not None else None
    return draft if isinstance(draft, Draft) else None


def _drop_draft(context: QuizContext) -> None:
    if context.user_data is not None:
        context.user_data.pop(DRAFT_KEY, None)


async def _step(update: Update, context: QuizContext) -> tuple[Draft, Locale, str] | None:
    draft = _draft(context)
    message = update.effective_message
    if draft is None or message is None or update.effective_user is None:
        return None
    _, locale = await context.services.learner(update.effective_user)
    return draft, locale, message.text or ""


async def addquestion(update: Update, context: QuizContext) -> int:
    locale = await _admin_locale(update, context)
    if locale is None:
        return END
    quiz = arguments.addquestion(context.args, context.services.catalog)
    if isinstance(quiz, Refusal):
        await _say(update, context, quiz.text(locale))
        return END
    assert context.user_data is not None
    context.user_data[DRAFT_KEY] = Draft(quiz.id, secrets.randbelow(10**12))
    title = html.escape(locale.plain(quiz.title))
    language = language_name(context.services.settings.default_language)
    await _say(update, context, locale.t("draft_text", title=title, language=language))
    return TEXT


async def _refuse(update: Update, context: QuizContext, reply: Reply, locale: Locale) -> None:
    await _say(update, context, reply.text(locale))


async def draft_text(update: Update, context: QuizContext) -> int:
    step = await _step(update, context)
    if step is None:
        return END
    draft, locale, text = step
    value = flow.check_text(text, MAX_QUESTION_LENGTH)
    if isinstance(value, Reply):
        await _refuse(update, context, value, locale)
        return TEXT
    draft.text = value
    await _say(update, context, locale.t("draft_options"))
    return OPTIONS


async def draft_options(update: Update, context: QuizContext) -> int:
    step = await _step(update, context)
    if step is None:
        return END
    draft, locale, text = step
    options = flow.parse_options(text)
    if isinstance(options, Reply):
        await _refuse(update, context, options, locale)
        return OPTIONS
    draft.options = options
    await _say(update, context, locale.t("draft_answer", last=letter(len(options) - 1)))
    return ANSWER


async def draft_answer(update: Update, context: QuizContext) -> int:
    step = await _step(update, context)
    if step is None:
        return END
    draft, locale, text = step
    answer = flow.parse_answer(text, len(draft.options))
    if isinstance(answer, Reply):
        await _refuse(update, context, answer, locale)
        return ANSWER
    draft.answer = answer
    await _say(update, context, locale.t("draft_explanation"))
    return EXPLANATION


async def draft_explanation(update: Update, context: QuizContext) -> int:
    step = await _step(update, context)
    if step is None:
        return END
    draft, locale, text = step
    if text.split("@")[0].strip() != "/skip":
        value = flow.check_text(text, MAX_EXPLANATION_LENGTH)
        if isinstance(value, Reply):
            await _refuse(update, context, value, locale)
            return EXPLANATION
        draft.explanation = value
    await _say(update, context, locale.t("draft_translation", n=len(draft.options)))
    return TRANSLATION


async def draft_translation(update: Update, context: QuizContext) -> int:
    step = await _step(update, context)
    if step is None:
        return END
    draft, locale, text = step
    if text.split("@")[0].strip() != "/skip":
        parsed = flow.parse_translation(text, draft)
        if isinstance(parsed, Reply):
            await _refuse(update, context, parsed, locale)
            return TRANSLATION
        draft.language, draft.translated = parsed
    return await _preview(update, context, draft, locale)


async def _preview(update: Update, context: QuizContext, draft: Draft, locale: Locale) -> int:
    result = await flow.draft_result(context.services, draft)
    if result.quiz is None:
        _drop_draft(context)
        await _say(update, context, locale.t("draft_refused"))
        for text in split_blocks([f"• {html.escape(e)}" for e in result.errors]):
            await _say(update, context, text)
        return END
    assert update.effective_chat
    for message in render.draft_preview(
        result.quiz, result.quiz.questions[-1], draft.nonce, draft.language, locale
    ):
        await context.bot.send_message(
            update.effective_chat.id, message.text, reply_markup=message.markup
        )
    return CONFIRM


async def draft_button(
    update: Update, context: QuizContext, tap: callbacks.ConfirmDraft | callbacks.CancelDraft
) -> int:
    """Confirm stores the question (validated again against the quiz as it is now)."""
    query = update.callback_query
    assert query is not None
    locale = await _admin_locale(update, context)
    if locale is None:
        return CONFIRM
    draft = _draft(context)
    if draft is None or tap.nonce != draft.nonce:
        await query.answer(locale.t("stale_button"))
        return CONFIRM if draft is not None else END
    _drop_draft(context)
    if isinstance(tap, callbacks.CancelDraft):
        await query.answer(locale.t("draft_cancelled"))
        await query.edit_message_reply_markup(None)
        await _say(update, context, locale.t("draft_cancelled"))
        return END
    result = await flow.save_draft(context.services, draft, query.from_user.id)
    await query.answer()
    await query.edit_message_reply_markup(None)
    if result.quiz is None:
        await _say(update, context, locale.t("draft_refused"))
        for text in split_blocks([f"• {html.escape(e)}" for e in result.errors]):
            await _say(update, context, text)
        return END
    added = result.quiz.questions[-1]
    await _say(
        update,
        context,
        locale.t(
            "draft_saved",
            k=len(result.quiz),
            question_id=html.escape(added.id),
            quiz_id=result.quiz.id,
        ),
    )
    return END


async def draft_waiting(update: Update, context: QuizContext) -> int:
    step = await _step(update, context)
    if step is None:
        return END
    await _say(update, context, step[1].t("draft_use_buttons"))
    return CONFIRM


async def cancel(update: Update, context: QuizContext) -> int:
    """`/cancel`: the draft is dropped; nothing was stored, so nothing is left."""
    _drop_draft(context)
    assert update.effective_user
    _, locale = await context.services.learner(update.effective_user)
    await _say(update, context, locale.t("draft_cancelled"))
    return END


async def cancel_outside(update: Update, context: QuizContext) -> None:
    """`/cancel` with no draft running: nothing to drop, and it says so the same way."""
    await cancel(update, context)


def _addquestion_conversation() -> ConversationHandler[QuizContext]:
    text = filters.TEXT & ~filters.COMMAND & PRIVATE_MESSAGE
    skip = filters.Regex(r"^/skip(@\w+)?$") & PRIVATE_MESSAGE
    with warnings.catch_warnings():
        # Buttons are tracked per chat and user, which is what a private draft needs.
        warnings.filterwarnings("ignore", message=".*per_message.*", category=PTBUserWarning)
        return ConversationHandler(
            entry_points=[CommandHandler("addquestion", addquestion, filters=PRIVATE_MESSAGE)],
            states={
                TEXT: [MessageHandler(text, draft_text)],
                OPTIONS: [MessageHandler(text, draft_options)],
                ANSWER: [MessageHandler(text, draft_answer)],
                EXPLANATION: [MessageHandler(text | skip, draft_explanation)],
                TRANSLATION: [MessageHandler(text | skip, draft_translation)],
                CONFIRM: [
                    TapHandler(callbacks.ConfirmDraft, draft_button),
                    TapHandler(callbacks.CancelDraft, draft_button),
                    MessageHandler(text, draft_waiting),
                ],
            },
            fallbacks=[CommandHandler("cancel", cancel, filters=PRIVATE_MESSAGE)],
            allow_reentry=True,
        )


def handlers() -> list[BaseHandler[Update, QuizContext, None]]:
    """Registered before the learner's: the conversation takes an admin's text first."""
    private = PRIVATE_MESSAGE
    caption_import = private & filters.Document.ALL & filters.CaptionRegex(r"^/import(@\w+)?(\s|$)")
    return [
        _addquestion_conversation(),  # type: ignore[list-item]
        CommandHandler("import", import_bank, filters=private),
        MessageHandler(caption_import, import_bank),
        CommandHandler("export", export, filters=private),
        CommandHandler("delquestion", delquestion, filters=private),
        CommandHandler("push", push, filters=private),
        CommandHandler("schedule", schedule, filters=private),
        CommandHandler("stats", stats, filters=private),
        CommandHandler("cancel", cancel_outside, filters=private),
    ]
