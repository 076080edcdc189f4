"""The bot's admins in their private chat: /import, /export, /addquestion, /delquestion,
/stats. (/push and /schedule post into chats: the group feature's.)

Everyone else who sends an admin command gets a polite refusal and nothing changes
(`bot.core.access.admin_only`).
"""

from __future__ import annotations

import html
import secrets
import warnings
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from telegram import CallbackQuery, Message, ReplyKeyboardMarkup, ReplyKeyboardRemove, Update
from telegram.ext import BaseHandler, CommandHandler, ConversationHandler, MessageHandler, filters
from telegram.warnings import PTBUserWarning

from bot.admin import charts, collecting, drafting, exporting, flow, importing, render
from bot.admin.collecting import Collection
from bot.admin.drafting import Draft
from bot.core import arguments, callbacks, commands, quiz_menus
from bot.core.access import admin_only, is_bot_admin
from bot.core.arguments import Refusal
from bot.core.commands import QUIZ, Command, Role, Task, Where
from bot.core.context import QuizContext
from bot.core.handlers import PRIVATE_MESSAGE, QuizMenuHandler, TapHandler, edit_in_place
from bot.core.i18n import language_name
from bot.core.quiz_menus import MenuFor
from bot.core.render import Reply, split_blocks
from content.editing import EditError
from content.formats.registry import OUTPUT_FORMATS
from content.loader import BankResult
from content.model import Quiz

DRAFT_KEY = "admin_draft"
COLLECTION_KEY = "admin_collection"
CONFIRM = drafting.STEPS  # the conversation's states: the draft's steps, then its confirmation
END = ConversationHandler.END


async def import_bank(update: Update, context: QuizContext) -> None:
    """A quiz file captioned `/import`, or `/import` in reply to one; `skip` (`--skip-unsupported`)
    converts what a bank can hold and lists the rest."""
    message = update.effective_message
    document = message.document if message is not None else None
    document_message = message
    words = context.args
    if message is not None and document is not None:  # the caption's words after /import
        words = (message.caption or "").split()[1:]
    if message is not None and document is None and message.reply_to_message is not None:
        document_message = message.reply_to_message
        document = document_message.document
    if document is None or document_message is None:
        await context.say(context.locale.t("usage_import"))
        return
    skip = arguments.import_options(words)
    if isinstance(skip, Refusal):
        await context.say(skip.text(context.locale))
        return
    await importing.import_document(
        context.bot,
        context.services,
        context.chat_id,
        context.learner.user_id,
        document,
        context.locale,
        skip,
        document_message.message_id,
    )


@admin_only
async def import_good(
    query: CallbackQuery, context: QuizContext, tap: callbacks.ImportGood
) -> None:
    """The button under a refusal: `/import skip` on the file the refusal replies to. The
    button goes at once, so that one tap is one import."""
    message = query.message
    replied = message.reply_to_message if isinstance(message, Message) else None
    document = replied.document if replied is not None else None
    if document is None or replied is None:  # deleted, or too old for Telegram to include
        await query.answer(context.locale.t("import_good_gone"), show_alert=True)
        return
    await query.answer()
    await query.edit_message_reply_markup(None)
    await importing.import_document(
        context.bot,
        context.services,
        context.chat_id,
        context.learner.user_id,
        document,
        context.locale,
        skip_unsupported=True,
        document_message_id=replied.message_id,
    )


async def export(update: Update, context: QuizContext) -> None:
    """`/export <quiz id> [format]`: the quiz as a document of that format (YAML unless
    given; a `.zip` where its images travel beside it) that /import accepts back; with no
    quiz, the quizzes as buttons, then the formats."""
    if not context.args:
        await quiz_menus.show(context, MenuFor.EXPORT)
        return
    wanted = arguments.export(context.args, context.services.catalog)
    if isinstance(wanted, Refusal):
        await context.say(wanted.text(context.locale))
        return
    quiz, fmt = wanted
    await exporting.export_quiz(
        context.bot, context.services, context.chat_id, quiz, fmt, context.locale
    )


@admin_only
async def on_export_chosen(query: CallbackQuery, context: QuizContext, quiz: Quiz) -> None:
    """A quiz chosen in `/export`'s menu: in which format?"""
    locale = context.locale
    text = locale.t("menu_which_format", title=locale.text(quiz.title, 200))
    forms = [(name, callbacks.ExportChoice(quiz.id, at)) for at, name in enumerate(OUTPUT_FORMATS)]
    shown = quiz_menus.choices(text, forms)
    await query.answer()
    await edit_in_place(query, shown.text, shown.markup)


@admin_only
async def on_export_format(
    query: CallbackQuery, context: QuizContext, tap: callbacks.ExportChoice
) -> None:
    quiz = context.services.catalog.get(tap.quiz_id)
    if quiz is None or not 0 <= tap.form < len(OUTPUT_FORMATS):
        await query.answer(context.locale.t("stale_button"))
        return
    await query.answer()
    name = OUTPUT_FORMATS[tap.form]
    locale = context.locale
    title = locale.text(quiz.title, 200)
    await edit_in_place(query, locale.t("menu_exporting", title=title, form=name))
    await exporting.export_quiz(context.bot, context.services, context.chat_id, quiz, name, locale)


async def delquestion(update: Update, context: QuizContext) -> None:
    """`/delquestion <quiz id> <question id>`: retire it; answers already given are kept."""
    locale = context.locale
    wanted = await context.parsed(arguments.delquestion(context.args, context.services.catalog))
    if wanted is None:
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


async def stats(update: Update, context: QuizContext) -> None:
    """Learners, answers and the hardest questions, per quiz; retired questions marked."""
    for text in await flow.stats(context.services, context.locale):
        await context.say(text)
    chart = await charts.stats_chart(context.services, context.locale)
    if chart is not None:
        await context.bot.send_photo(context.chat_id, chart.png, caption=chart.alt)


# /collect: quiz polls become questions; the collection lives in the admin's user data


def _collection(context: QuizContext) -> Collection | None:
    found = context.user_data.get(COLLECTION_KEY) if context.user_data is not None else None
    return found if isinstance(found, Collection) else None


def _drop_collection(context: QuizContext) -> bool:
    """Whether there was a collection to drop."""
    if context.user_data is None:
        return False
    return context.user_data.pop(COLLECTION_KEY, None) is not None


async def _say(
    context: QuizContext, text: str, markup: ReplyKeyboardMarkup | ReplyKeyboardRemove | None = None
) -> None:
    """A message in the admin's private chat, with a reply keyboard (or its removal)."""
    await context.bot.send_message(context.chat_id, text, reply_markup=markup)


async def collect(update: Update, context: QuizContext) -> None:
    """`/collect <quiz id>`: the button to create quiz polls here; each becomes a question."""
    locale = context.locale
    quiz = arguments.collect(context.args, context.services.catalog)
    if isinstance(quiz, Refusal):
        await context.say(quiz.text(locale))
        return
    assert context.user_data is not None
    before = _collection(context)
    context.user_data[COLLECTION_KEY] = Collection(quiz.id)
    if before is not None and before.questions:
        await context.say(locale.t("collect_replaced", n=len(before.questions)))
    title = html.escape(locale.plain(quiz.title))
    await _say(
        context,
        locale.t("collect_start", title=title, quiz_id=quiz.id),
        render.poll_keyboard(locale),
    )


async def collected_poll(update: Update, context: QuizContext) -> None:
    """A poll in an admin's private chat: a question for the open collection, or why not."""
    message = update.effective_message
    if message is None or message.poll is None or not is_bot_admin(context):
        return  # someone else's poll: nothing the bot does with it
    locale = context.locale
    collection = _collection(context)
    if collection is None:
        await context.say(locale.t("collect_none"))
        return
    default = context.services.settings.default_language
    question = collecting.question_from_poll(
        message.poll, message.forward_origin is not None, default
    )
    if isinstance(question, Reply):
        await context.say(question.text(locale))
        return
    errors = collecting.check_question(collection.quiz_id, question, default)
    if errors:
        await send_blocks_here(context, locale.t("collect_refused"), errors)
        return
    if len(collection.questions) >= collecting.MAX_COLLECTED:
        await context.say(locale.t("collect_full", n=collecting.MAX_COLLECTED))
        return
    collection.questions.append(question)
    await context.say(render.collected_line(len(collection.questions), message.poll, locale))


async def send_blocks_here(context: QuizContext, head: str, lines: Sequence[str]) -> None:
    for text in render.listing(head, lines):
        await context.say(text)


@admin_only
async def done(update: Update, context: QuizContext) -> None:
    """`/done`: the collected questions validated against the quiz as it is now, stored with
    new ids and an audit entry, then summarised and previewed."""
    locale = context.locale
    collection = _collection(context)
    if collection is None:
        await context.say(locale.t("collect_none"))
        return
    if not collection.questions:
        await context.say(locale.t("collect_empty"))
        return
    result, added = await flow.save_collection(
        context.services, collection, context.learner.user_id
    )
    if result.quiz is None:
        await send_blocks_here(context, locale.t("collect_not_saved"), result.errors)
        return
    _drop_collection(context)
    messages = render.collection_saved(result.quiz, added, locale)
    await _say(context, messages[0], ReplyKeyboardRemove())
    for text in messages[1:]:
        await context.say(text)


# /addquestion: a conversation, one step a message; the draft lives in the conversation


def _draft(context: QuizContext) -> Draft | None:
    draft = context.user_data.get(DRAFT_KEY) if context.user_data is not None else None
    return draft if isinstance(draft, Draft) else None


def _drop_draft(context: QuizContext) -> None:
    if context.user_data is not None:
        context.user_data.pop(DRAFT_KEY, None)


async def addquestion(update: Update, context: QuizContext) -> int:
    quiz = await context.parsed(arguments.addquestion(context.args, context.services.catalog))
    if quiz is None:
        return END
    locale = context.locale
    assert context.user_data is not None
    context.user_data[DRAFT_KEY] = Draft(quiz.id, secrets.randbelow(10**12))
    title = html.escape(locale.plain(quiz.title))
    language = language_name(context.services.settings.default_language)
    draft = context.user_data[DRAFT_KEY]
    keyboard = render.draft_types(draft.nonce, draft.kind, locale)
    await context.say(locale.t("draft_text", title=title, language=language), keyboard)
    return drafting.TEXT


@admin_only
async def draft_type(query: CallbackQuery, context: QuizContext, tap: callbacks.DraftType) -> int:
    """A type tapped under the first prompt, before the question text: the draft takes it."""
    locale = context.locale
    draft = _draft(context)
    kinds = drafting.DRAFT_TYPES
    if draft is None or tap.nonce != draft.nonce or not 0 <= tap.kind < len(kinds):
        await query.answer(locale.t("stale_button"))
        return drafting.TEXT if draft is not None else END
    draft.kind = kinds[tap.kind]
    name = locale.t(f"question_type_{draft.kind.value}")
    await query.answer(locale.t("draft_type_chosen", type=name))
    await query.edit_message_reply_markup(render.draft_types(draft.nonce, draft.kind, locale))
    return drafting.TEXT


async def draft_type_late(
    query: CallbackQuery, context: QuizContext, tap: callbacks.DraftType
) -> None:
    """A type tapped once the question text is in: the type stays (nothing changes)."""
    await query.answer(context.locale.t("draft_type_too_late"))


def _step(step: int) -> Callable[[Update, QuizContext], Coroutine[Any, Any, int]]:
    """The handler of one step of the draft: its answer taken (or refused and asked again),
    then the next step asked; after the last, the draft is validated and previewed."""

    async def take(update: Update, context: QuizContext) -> int:
        draft = _draft(context)
        if draft is None:
            return END
        text = _text(update)
        if not (step in drafting.SKIPPABLE and _skipped(text)):
            refused = draft.take(step, text)
            if refused is not None:
                await context.say(refused.text(context.locale))
                return step
        following = draft.next_step(step)
        if following is not None:
            await context.say(draft.question(following).text(context.locale))
            return following
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
    """`/cancel`: the draft or the collection is dropped; nothing was stored, so nothing is
    left. Without either it says the same: there is nothing to drop."""
    _drop_draft(context)
    keyboard = ReplyKeyboardRemove() if _drop_collection(context) else None
    await _say(context, context.locale.t("draft_cancelled"), keyboard)
    return END


def _addquestion_conversation() -> ConversationHandler[QuizContext]:
    text = filters.TEXT & ~filters.COMMAND & PRIVATE_MESSAGE
    skip = filters.Regex(r"^/skip(@\w+)?$") & PRIVATE_MESSAGE
    with warnings.catch_warnings():
        # Buttons are tracked per chat and user, which is what a private draft needs.
        warnings.filterwarnings("ignore", message=".*per_message.*", category=PTBUserWarning)
        return ConversationHandler(
            entry_points=[ADDQUESTION.handler()],
            states={
                **{
                    step: [
                        MessageHandler(
                            text | skip if step in drafting.SKIPPABLE else text, _step(step)
                        )
                    ]
                    for step in range(drafting.STEPS)
                },
                drafting.TEXT: [
                    TapHandler(callbacks.DraftType, draft_type),
                    MessageHandler(text, _step(drafting.TEXT)),
                ],
                CONFIRM: [
                    TapHandler(callbacks.ConfirmDraft, draft_button),
                    TapHandler(callbacks.CancelDraft, draft_button),
                    MessageHandler(text, draft_waiting),
                ],
            },
            fallbacks=[
                CommandHandler("cancel", cancel, filters=PRIVATE_MESSAGE),
                TapHandler(callbacks.DraftType, draft_type_late),
            ],
            allow_reentry=True,
        )


ADMIN, PRIVATE, CONTENT = Role.BOT_ADMIN, Where.PRIVATE, Task.CONTENT
IMPORT = Command("import", import_bank, ADMIN, PRIVATE, CONTENT)  # a file's caption
ADDQUESTION = Command("addquestion", addquestion, ADMIN, PRIVATE, CONTENT, "<quiz id>", QUIZ)
COMMANDS = (
    IMPORT,
    Command("export", export, ADMIN, PRIVATE, CONTENT, "<quiz id> [format]", f"{QUIZ} gift"),
    ADDQUESTION,
    Command("collect", collect, ADMIN, PRIVATE, CONTENT, "<quiz id>", QUIZ),
    Command(
        "delquestion", delquestion, ADMIN, PRIVATE, CONTENT, "<quiz id> <question id>",
        f"{QUIZ} q1",
    ),
    Command("stats", stats, ADMIN, PRIVATE, CONTENT),
)  # fmt: skip


def handlers() -> list[BaseHandler[Update, QuizContext, Any]]:
    """Registered before the other features': the conversation takes an admin's text first."""
    private = PRIVATE_MESSAGE
    caption_import = private & filters.Document.ALL & filters.CaptionRegex(r"^/import(@\w+)?(\s|$)")
    return [
        _addquestion_conversation(),
        *commands.handlers(c for c in COMMANDS if c is not ADDQUESTION),
        MessageHandler(caption_import, IMPORT.guarded),
        TapHandler(callbacks.ImportGood, import_good),
        QuizMenuHandler(MenuFor.EXPORT, on_export_chosen),
        TapHandler(callbacks.ExportChoice, on_export_format),
        CommandHandler("done", done, filters=private),
        MessageHandler(private & filters.POLL, collected_poll),
        CommandHandler("cancel", cancel, filters=private),
    ]
