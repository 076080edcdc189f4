"""The bot's admins in their private chat: /import, /export, /addquestion, /delquestion,
/stats. (/push and /schedule post into chats: the group feature's.)

Everyone else who sends an admin command gets a polite refusal and nothing changes
(`bot.core.access.admin_only`).
"""

from __future__ import annotations

import asyncio
import html
import secrets
import warnings
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import CallbackQuery, Update
from telegram.ext import BaseHandler, CommandHandler, ConversationHandler, MessageHandler, filters
from telegram.warnings import PTBUserWarning

from bot.admin import charts, flow, render
from bot.admin.flow import Draft
from bot.core import arguments, callbacks
from bot.core.access import admin_only
from bot.core.arguments import Refusal
from bot.core.context import QuizContext
from bot.core.handlers import PRIVATE_MESSAGE, TapHandler
from bot.core.i18n import language_name
from bot.core.render import split_blocks
from content.editing import EditError
from content.export import dump_bank
from content.loader import BankResult

COMMANDS = ("import", "addquestion", "export", "delquestion", "stats")
DRAFT_KEY = "admin_draft"
CONFIRM = flow.STEPS  # the conversation's states: the draft's steps, then its confirmation
END = ConversationHandler.END


@admin_only
async def import_bank(update: Update, context: QuizContext) -> None:
    """A YAML document captioned `/import`, or `/import` in reply to one."""
    message = update.effective_message
    document = message.document if message is not None else None
    if message is not None and document is None and message.reply_to_message is not None:
        document = message.reply_to_message.document
    if document is None:
        await context.say(context.locale.t("usage_import"))
        return
    await flow.import_document(
        context.bot,
        context.services,
        context.chat_id,
        context.learner.user_id,
        document,
        context.locale,
    )


@admin_only
async def export(update: Update, context: QuizContext) -> None:
    """`/export <quiz id>`: the bank as a YAML document that /import accepts back."""
    quiz = arguments.export(context.args, context.services.catalog)
    if isinstance(quiz, Refusal):
        await context.say(quiz.text(context.locale))
        return
    await context.bot.send_document(
        context.chat_id,
        (await asyncio.to_thread(dump_bank, quiz)).encode(),  # CPU work for a large bank
        filename=f"{quiz.id}.yaml",
        caption=context.locale.t("export_caption", quiz_id=quiz.id, n=len(quiz)),
    )


@admin_only
async def delquestion(update: Update, context: QuizContext) -> None:
    """`/delquestion <quiz id> <question id>`: retire it; answers already given are kept."""
    locale = context.locale
    wanted = arguments.delquestion(context.args, context.services.catalog)
    if isinstance(wanted, Refusal):
        await context.say(wanted.text(locale))
        return
    quiz, question_id = wanted
    shown = {"quiz_id": quiz.id, "question_id": html.escape(question_id)}
    if len(quiz) == 1:
        await context.say(locale.t("last_question", **shown))
        return
    try:
        smaller = await flow.retire(context.services, quiz, question_id, context.learner.user_id)
    except EditError as error:  # another admin changed the quiz in the meantime
        await context.say(html.escape(str(error)))
        return
    await context.say(locale.t("question_retired", **shown, n=len(smaller)))


@admin_only
async def stats(update: Update, context: QuizContext) -> None:
    """Learners, answers and the hardest questions, per quiz; retired questions marked."""
    for text in await flow.stats(context.services, context.locale):
        await context.say(text)
    chart = await charts.stats_chart(context.services, context.locale)
    if chart is not None:
        await context.bot.send_photo(context.chat_id, chart.png, caption=chart.alt)


# /addquestion: a conversation, one step a message; the draft lives in the conversation


def _draft(context: QuizContext) -> Draft | None:
    draft = context.user_data.get(DRAFT_KEY) if context.user_data is not None else None
    return draft if isinstance(draft, Draft) else None


def _drop_draft(context: QuizContext) -> None:
    if context.user_data is not None:
        context.user_data.pop(DRAFT_KEY, None)


@admin_only
async def addquestion(update: Update, context: QuizContext) -> int:
    locale = context.locale
    quiz = arguments.addquestion(context.args, context.services.catalog)
    if isinstance(quiz, Refusal):
        await context.say(quiz.text(locale))
        return END
    assert context.user_data is not None
    context.user_data[DRAFT_KEY] = Draft(quiz.id, secrets.randbelow(10**12))
    title = html.escape(locale.plain(quiz.title))
    language = language_name(context.services.settings.default_language)
    await context.say(locale.t("draft_text", title=title, language=language))
    return flow.TEXT


def _step(step: int) -> Callable[[Update, QuizContext], Coroutine[Any, Any, int]]:
    """The handler of one step of the draft: its answer taken (or refused and asked again),
    then the next step asked; after the last, the draft is validated and previewed."""

    async def take(update: Update, context: QuizContext) -> int:
        draft = _draft(context)
        if draft is None:
            return END
        text = _text(update)
        if not (step in flow.SKIPPABLE and _skipped(text)):
            refused = draft.take(step, text)
            if refused is not None:
                await context.say(refused.text(context.locale))
                return step
        if step + 1 < flow.STEPS:
            await context.say(draft.question(step + 1).text(context.locale))
            return step + 1
        return await _preview(context, draft)

    return take


async def _preview(context: QuizContext, draft: Draft) -> int:
    result = await flow.draft_result(context.services, draft)
    if result.quiz is None:
        _drop_draft(context)
        await _say_refused(context, result)
        return END
    for message in render.draft_preview(
        result.quiz, result.quiz.questions[-1], draft.nonce, draft.language, context.locale
    ):
        await context.say(message.text, message.markup)
    return CONFIRM


def _text(update: Update) -> str:
    message = update.effective_message
    return (message.text if message is not None else None) or ""


def _skipped(text: str) -> bool:
    return text.split("@")[0].strip() == "/skip"


async def _say_refused(context: QuizContext, result: BankResult) -> None:
    await context.say(context.locale.t("draft_refused"))
    for text in split_blocks([f"• {html.escape(e)}" for e in result.errors]):
        await context.say(text)


@admin_only
async def draft_button(
    query: CallbackQuery, context: QuizContext, tap: callbacks.ConfirmDraft | callbacks.CancelDraft
) -> int:
    """Confirm stores the question (validated again against the quiz as it is now)."""
    locale = context.locale
    draft = _draft(context)
    if draft is None or tap.nonce != draft.nonce:
        await query.answer(locale.t("stale_button"))
        return CONFIRM if draft is not None else END
    _drop_draft(context)
    if isinstance(tap, callbacks.CancelDraft):
        await query.answer(locale.t("draft_cancelled"))
        await query.edit_message_reply_markup(None)
        await context.say(locale.t("draft_cancelled"))
        return END
    result = await flow.save_draft(context.services, draft, query.from_user.id)
    await query.answer()
    await query.edit_message_reply_markup(None)
    if result.quiz is None:
        await _say_refused(context, result)
        return END
    added = result.quiz.questions[-1]
    values = {
        "k": len(result.quiz),
        "question_id": html.escape(added.id),
        "quiz_id": result.quiz.id,
    }
    await context.say(locale.t("draft_saved", **values))
    return END


async def draft_waiting(update: Update, context: QuizContext) -> int:
    if _draft(context) is None:
        return END
    await context.say(context.locale.t("draft_use_buttons"))
    return CONFIRM


async def cancel(update: Update, context: QuizContext) -> int:
    """`/cancel`: the draft is dropped; nothing was stored, so nothing is left. Without a
    draft it says the same: there is nothing to drop."""
    _drop_draft(context)
    await context.say(context.locale.t("draft_cancelled"))
    return END


def _addquestion_conversation() -> ConversationHandler[QuizContext]:
    text = filters.TEXT & ~filters.COMMAND & PRIVATE_MESSAGE
    skip = filters.Regex(r"^/skip(@\w+)?$") & PRIVATE_MESSAGE
    with warnings.catch_warnings():
        # Buttons are tracked per chat and user, which is what a private draft needs.
        warnings.filterwarnings("ignore", message=".*per_message.*", category=PTBUserWarning)
        return ConversationHandler(
            entry_points=[CommandHandler("addquestion", addquestion, filters=PRIVATE_MESSAGE)],
            states={
                **{
                    step: [
                        MessageHandler(text | skip if step in flow.SKIPPABLE else text, _step(step))
                    ]
                    for step in range(flow.STEPS)
                },
                CONFIRM: [
                    TapHandler(callbacks.ConfirmDraft, draft_button),
                    TapHandler(callbacks.CancelDraft, draft_button),
                    MessageHandler(text, draft_waiting),
                ],
            },
            fallbacks=[CommandHandler("cancel", cancel, filters=PRIVATE_MESSAGE)],
            allow_reentry=True,
        )


def handlers() -> list[BaseHandler[Update, QuizContext, Any]]:
    """Registered before the other features': the conversation takes an admin's text first."""
    private = PRIVATE_MESSAGE
    caption_import = private & filters.Document.ALL & filters.CaptionRegex(r"^/import(@\w+)?(\s|$)")
    return [
        _addquestion_conversation(),
        CommandHandler("import", import_bank, filters=private),
        MessageHandler(caption_import, import_bank),
        CommandHandler("export", export, filters=private),
        CommandHandler("delquestion", delquestion, filters=private),
        CommandHandler("stats", stats, filters=private),
        CommandHandler("cancel", cancel, filters=private),
    ]
