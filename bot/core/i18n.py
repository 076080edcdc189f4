"""Interface strings per language, and `Locale`: a person's language, through which every
string and every content field is put into words. A missing string falls back to English.

Strings are HTML-safe templates: `{placeholders}` are filled with values the caller has
already escaped. Kept as plain dicts (two languages, no build step); a gettext catalogue
would be the move once translators outside the code base join.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from bot.core.display import without_overrides
from bot.core.telegram_html import from_markup
from content.markup import flatten
from content.model import LocalizedText, clip

FALLBACK = "en"

LANGUAGE_NAMES = {"en": "English", "yo": "Yorùbá"}

STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "welcome": (
            "Hello, {name}! I am <b>Quiz Tutor</b>. I ask one question at a time, show the "
            "answer with an explanation right after you tap, and remember your progress."
        ),
        "pick_quiz": "Pick a quiz:",
        "no_quizzes": "There are no quizzes yet.",
        "quizzes_title": "<b>Quizzes</b>",
        "level_easy": "easy",
        "level_medium": "medium",
        "level_hard": "hard",
        "n_questions": "{n} questions",
        "progress_best": "best {score}/{total}",
        "progress_running": "in progress: {answered}/{total}",
        "progress_new": "not started",
        "button_start": "▶️ {title}",
        "button_continue": "⏯ {title} ({answered}/{total})",
        "button_preview": "👀 Preview",
        "button_retake": "🔁 Take it again",
        "button_all_quizzes": "📚 All quizzes",
        "question_header": "Question {k} of {n}",
        "your_answer": "your answer",
        "correct_toast": "✅ Correct!",
        "wrong_toast": "❌ Not quite. The right answer is {letter}.",
        "reveal_correct": "✅ <b>Correct!</b>",
        "reveal_wrong": "❌ <b>Not quite.</b> The right answer is <b>{letter}</b>.",
        "explanation": "💡 <b>Why:</b> {text}",
        "summary_title": "🏁 <b>{title}</b>: finished",
        "summary_score": "Score: <b>{score}/{total}</b> ({percent}%)",
        "summary_best": "Your best: {score}/{total}",
        "summary_perfect": "Perfect: every answer right. 🎉",
        "summary_review": "Worth another look:",
        "resuming": "Welcome back: you are at question {k} of {n}.",
        "usage_quiz": "Send <code>/quiz &lt;id&gt;</code>, for example <code>/quiz {example}</code>, or pick one from /quizzes.",
        "usage_preview": "Send <code>/preview &lt;id&gt;</code>, for example <code>/preview {example}</code>.",
        "unknown_quiz": "I have no quiz called <code>{quiz_id}</code>. See /quizzes.",
        "preview_title": "👀 <b>{title}</b> · {n} questions · answers appear as you take the quiz",
        "guide": '📖 Guide: <a href="{url}">{title}</a>',
        "progress_title": "📈 <b>Your progress</b>",
        "progress_none": "You have not answered any question yet. Start with /quizzes.",
        "progress_attempts": "{n} finished",
        "progress_last": "last {score}/{total}",
        "progress_weak": "to review: {questions}",
        "language_choose": "Choose your language:",
        "language_set": "Language set: {language}.",
        "stale_button": "This button is no longer active.",
        "link_invalid": "Sorry, I cannot open this link: it is not one of mine, or it was changed. Nothing was done.",
        "link_expired": "Sorry, this link has expired. Ask for a new one in the group.",
        "button_wrong_chat": "This button does not work in this chat.",
        "already_answered": "You already answered this question.",
        "not_your_quiz": "This is someone else's quiz. Start your own with /quizzes.",
        "quiz_finished_already": "This quiz attempt is finished. Take it again from /quizzes.",
        "quiz_gone": "This quiz is no longer available.",
        "tap_on_retired": "This question was retired. Here is the next one.",
        "private_only": "Quizzes for one learner run in a private chat: open {link} and send /quizzes.",
        "unknown_command": "I don't know that command. /help lists what I can do.",
        "plain_text": "I answer to commands and buttons. Try /quizzes or /help.",
        "storage_error": "Sorry, I could not save that just now. Please try again in a moment.",
        # admins (bot/handlers/admin.py)
        "not_admin": "Sorry, that command is for the bot's admins. Nothing was changed.",
        "usage_import": "Send a quiz file as a document with the caption <code>/import</code>, or reply <code>/import</code> to one: our YAML, GIFT (.gift), Moodle XML (.xml), CSV, Excel (.xlsx), Aiken (.txt), or a .zip of one of them with its images. <code>/import --skip-unsupported</code> converts what a quiz can hold and lists the rest.",
        "import_too_large": "That file has {size} bytes; a bank may have at most {limit}. Nothing was changed.",
        "import_too_large_unsized": "That file has more than {limit} bytes, and a bank may have at most {limit}. Nothing was changed.",
        "import_download_failed": "I could not download that file. Nothing was changed.",
        "import_refused": "❌ <b>{file}</b> was refused; nothing was changed. Errors ({n}):",
        "import_done": "✅ <b>{title}</b> (<code>{quiz_id}</code>) imported: {n} questions.",
        "import_counts": "Added {added}, updated {updated}, unchanged {unchanged}, retired {retired}.",
        "import_added": "Added: {ids}",
        "import_updated": "Updated: {ids}",
        "import_retired": "Retired (answers kept): {ids}",
        "import_overrides": "The bot's copy now takes the place of the bank file on disk.",
        "import_unchanged": "Nothing changed: <code>{quiz_id}</code> is already exactly this bank.",
        "import_pictures_full": "{file} was refused; nothing was changed. The pictures of all imported banks would weigh {total} MiB together; the bot keeps at most {limit} MiB. Remove pictures, or banks that use them, first.",
        "usage_export": "Send <code>/export &lt;quiz id&gt; [format]</code>, for example <code>/export {example}</code> or <code>/export {example} gift</code>. Formats: {formats}.",
        "export_caption": "<code>{quiz_id}</code>: {n} questions. Send it back with the caption /import to update the quiz.",
        # issue 15: formats in and out, quiz polls collected
        "args_format": "<code>{value}</code> is not a format I write.",
        "import_unknown_format": "I cannot read <b>{file}</b>: send a file ending in {extensions}. Nothing was changed.",
        "import_too_large_format": "That {format} file has {size} bytes; it may have at most {limit}. Nothing was changed.",
        "import_too_large_format_unsized": "That {format} file has more than {limit} bytes, the most it may have. Nothing was changed.",
        "import_skipped": "⚠️ Skipped from {file} ({n}): a quiz cannot hold these.",
        "import_warnings": "⚠️ Not kept from {file} ({n}):",
        "export_caption_format": "<code>{quiz_id}</code> as {format}: {n} questions.",
        "export_warnings": "⚠️ {format} cannot hold everything ({n}):",
        "export_failed": "<code>{quiz_id}</code> cannot be written as {format}:",
        "export_too_large": "That file would have {size} bytes; Telegram takes at most 50 MB from a bot.",
        "usage_collect": "Send <code>/collect &lt;quiz id&gt;</code>, for example <code>/collect {example}</code>: then create quiz polls here, or forward closed ones, and send /done.",
        "cmd_collect": "Telegram quiz polls become questions",
        "button_create_quiz_poll": "Create a quiz question",
        "collect_start": "Collecting questions for <b>{title}</b> (<code>{quiz_id}</code>). Tap <b>Create a quiz question</b> below (mark the right answer, add an explanation if you like), or forward quiz polls that are closed. /done saves them, /cancel drops them.",
        "collect_replaced": "The {n} questions collected before were dropped: a new collection starts.",
        "collect_none": "No collection is open (a restart drops one). Send <code>/collect &lt;quiz id&gt;</code> first.",
        "collect_regular_poll": "Not taken: a regular poll has no right answer. Create a quiz with the button below.",
        "collect_open_poll": "Not taken: this quiz poll is still open, so Telegram does not show me its right answer. Close the poll first, or create it here with the button.",
        "collect_no_answer": "Not taken: this quiz poll does not show its right answer. Create it here with the button.",
        "collect_refused": "Not taken: this poll cannot be a question of the quiz:",
        "collect_full": "Not taken: a collection holds at most {n} questions. Send /done, then /collect again.",
        "collect_added": "✅ {k}. {text} (right: {right})",
        "collect_empty": "Nothing collected yet: create a quiz poll with the button, or /cancel.",
        "collect_not_saved": "Nothing was saved; the collection is still open (/cancel drops it):",
        "collect_saved": "✅ {n} questions added to <b>{title}</b> (<code>{quiz_id}</code>), now {total}: {ids}",
        "usage_delquestion": "Send <code>/delquestion &lt;quiz id&gt; &lt;question id&gt;</code>.",
        "unknown_question": "Quiz <code>{quiz_id}</code> has no question <code>{question_id}</code>.",
        "last_question": "<code>{question_id}</code> is the last question of <code>{quiz_id}</code>; a quiz needs at least one.",
        "question_retired": "🗄 Question <code>{question_id}</code> of <code>{quiz_id}</code> is retired: nobody gets it again, and the answers already given are kept. The quiz has {n} questions now.",
        "usage_push": "Send <code>/push &lt;quiz id&gt; &lt;@channel or chat id&gt;</code>.",
        "push_no_chat": "I cannot post in {chat}. Add me to that chat (in a channel, as an admin) and try again.",
        "push_done": "📣 Question {k} of {n} of <code>{quiz_id}</code> posted to {chat}.",
        "push_all_posted": "Every question of <code>{quiz_id}</code> has been posted to {chat} already.",
        "post_header": "📣 <b>{title}</b> · question {k} of {n}",
        "post_count": "👥 Answers so far: {n}. The answer is revealed with the next question.",
        "post_revealed": "👥 {n} answered, {right} right.",
        "post_retired": "This question was retired.",
        "post_closed": "This question is closed.",
        "usage_addquestion": "Send <code>/addquestion &lt;quiz id&gt;</code>, for example <code>/addquestion {example}</code>.",
        "draft_text": "New question for <b>{title}</b>: one right option, unless you tap another type below first. Send the question text ({language}). /cancel stops without saving anything.",
        "draft_options": "Now the options, one per line (2 to 10).",
        "draft_answer": "Which option is correct? Send its letter (A to {last}).",
        "draft_explanation": "Now an explanation that teaches why the right answer is right, or /skip.",
        "draft_translation": "Optional translation: a language code on the first line (for example <code>yo</code>), then the question, then the {n} options, one per line, then the explanation if there is one. Or /skip.",
        "draft_too_long": "That is {length} characters; at most {limit}. Please send it again.",
        "draft_empty": "Please send some text.",
        "draft_options_count": "Send 2 to 10 options, one per line (I got {n}).",
        "draft_bad_answer": "Send a letter from A to {last}.",
        "draft_answer_multiple": "Which options are right? Send their letters (A to {last}), for example <code>A, C</code>.",
        "draft_answer_true_false": "Is the statement true or false? Send <code>true</code> or <code>false</code>.",
        "draft_answer_numeric": "Send the right number, for example <code>14</code> or <code>2.5</code>.",
        "draft_answer_typed": "Send the accepted answers, one per line (case, spacing, punctuation around them and accents do not matter).",
        "draft_tolerance": "How far from it is a reply still right? Send a number such as <code>0.5</code>, or /skip for exactly.",
        "draft_unit": "Its unit, shown with the question (for example <code>GB</code>), or /skip.",
        "draft_bad_answers": "Send one or more letters from A to {last}, for example <code>A, C</code>.",
        "draft_bad_true_false": "Send <code>true</code> or <code>false</code>.",
        "draft_not_a_number": "That is not a number. Send one such as <code>14</code> or <code>2.5</code>.",
        "draft_digit_grouping": "Write it without digit grouping, for example <code>{number}</code>.",
        "draft_bad_tolerance": "The tolerance is 0 or more.",
        "draft_accepted_count": "Send 1 to {most} accepted answers, one per line (I got {n}).",
        "draft_type_chosen": "Type: {type}",
        "draft_accepted_punctuation": "<code>{text}</code> is only punctuation and spaces: no reply could match it. Send the accepted answers again.",
        "draft_type_too_late": "The type is chosen before the question text; /cancel and start again to change it.",
        "draft_bad_translation": "Send the language code, the question and the {n} options, one per line each, and the explanation if you like.",
        "draft_bad_language": "<code>{code}</code> is not a language code such as en or yo.",
        "draft_preview": "👀 <b>Preview</b>: question {k} of <b>{title}</b> (id <code>{question_id}</code>)",
        "draft_translation_title": "Translation ({language}):",
        "button_confirm": "✅ Confirm",
        "button_cancel": "✖️ Cancel",
        "draft_refused": "❌ The question was refused; nothing was saved:",
        "draft_saved": "✅ Saved as question {k} (<code>{question_id}</code>) of <code>{quiz_id}</code>.",
        "draft_cancelled": "Cancelled. Nothing was saved.",
        "draft_use_buttons": "Tap Confirm or Cancel under the preview, or send /cancel.",
        "stats_title": "📊 <b>Statistics</b>\nLearners: {learners} · answers: {answers}",
        "stats_quiz": "<b>{title}</b> (<code>{quiz_id}</code>): {learners} learners, {answers} answers, {percent}% right",
        "stats_quiz_none": "<b>{title}</b> (<code>{quiz_id}</code>): no answers yet",
        "stats_hardest": "Hardest:",
        "stats_question": "• <code>{question_id}</code> {percent}% right of {n}: {text}",
        "stats_retired_mark": "[retired]",
        "stats_retired": "Retired: {ids}",
        "stats_by_type": "By type: {parts}",
        "stats_type_part": "{type} {n} answers, {percent}% right",
        "stats_type_part_average": "{type} {n} answers, average score {percent}%",
        "stats_multiple_head": "Several right options, average score:",
        "stats_multiple_question": "• <code>{question_id}</code> {percent}% of {n}: {text}",
        "stats_wrong_head": "Most common wrong replies:",
        "stats_wrong_question": "• <code>{question_id}</code> {replies}: {text}",
        "stats_wrong_reply": "“{reply}” ×{n}",
        "stats_more": "… and {n} more",
        "question_type_single": "One right option",
        "question_type_multiple": "Several right options",
        "question_type_true_false": "True or false",
        "question_type_numeric": "Number",
        "question_type_typed": "Typed answer",
        "usage_schedule": "Send <code>/schedule &lt;quiz id&gt; &lt;@channel or chat id&gt; &lt;HH:MM&gt;</code> (UTC), or <code>off</code> instead of the time to stop.",
        "schedule_done": "⏰ Every day at {time} UTC the next question of <code>{quiz_id}</code> goes to {chat}.",
        "schedule_off": "⏰ No more daily questions of <code>{quiz_id}</code> for {chat}.",
        "schedule_none": "There is no schedule of <code>{quiz_id}</code> for {chat}.",
        "cmd_import": "Add or update a quiz (YAML, GIFT, Moodle XML, CSV, Excel, Aiken, .zip)",
        "cmd_addquestion": "Add a question step by step",
        "cmd_export": "A quiz as a document (YAML, GIFT, XML, CSV, Excel, Anki)",
        "cmd_delquestion": "Retire a question",
        "cmd_push": "Post the next question to a chat",
        "cmd_schedule": "Post a question every day",
        "cmd_stats": "Learners, answers, hardest questions",
        "help": (
            "<b>Quiz Tutor</b> asks you questions one at a time, shows the right answer with "
            "an explanation right after you tap, and keeps your progress.\n\n"
            "/quizzes: the quizzes, with your progress\n"
            "/quiz &lt;id&gt;: start or continue a quiz\n"
            "/preview &lt;id&gt;: all questions of a quiz, without answers\n"
            "/progress: your scores, mastery and what to review\n"
            "/review: the questions due for review now\n"
            "/remind HH:MM: a daily reminder when reviews are due (/timezone sets yours)\n"
            "/language: choose your language\n"
            "/help: this message"
        ),
        "help_group": (
            "<b>Quiz Tutor</b> teaches through quizzes. Open a private chat with me to take "
            "one: {link}\n\nIn this chat, an admin can run a quiz for everyone: "
            "/groupquiz &lt;id&gt; [seconds]; /leaderboard shows the scores."
        ),
        "cmd_start": "Welcome and the list of quizzes",
        "cmd_quizzes": "Quizzes and your progress",
        "cmd_quiz": "Start or continue a quiz",
        "cmd_preview": "All questions of a quiz",
        "cmd_progress": "Your scores and what to review",
        "cmd_language": "Choose your language",
        "cmd_help": "What I can do",
        "review_header": "🔁 Review {k} of {n}",
        "progress_overview": "🔥 Days in a row: {streak} · 🔁 due now: {due_now}, by tonight: {due_today}",
        "progress_mastery": "{bar} {percent}% mastered ({mastered}/{total})",
        "button_review": "🔁 Review now ({n})",
        "in_minutes": "in {n} min",
        "in_hours": "in {n} h",
        "in_days": "in {n} days",
        "review_none_yet": "Nothing to review yet. Answer some questions first (/quizzes): the ones you miss come back here, and the ones you know return just before you would forget them.",
        "review_nothing_due": "Nothing is due for review right now. The next review is {wait}.",
        "review_done": "🏁 <b>Review finished</b>",
        "review_next": "Next review {wait}.",
        "reminder": "⏰ {n} question(s) are due for review. A few minutes now keeps them fresh.",
        "timezone_usage": "Send <code>/timezone Area/City</code> (for example <code>/timezone Africa/Lagos</code>) or an offset such as <code>/timezone +01:00</code>. Yours now: {timezone}.",
        "timezone_set": "Time zone set: {timezone}.",
        "timezone_unknown": "I don't know the time zone <code>{timezone}</code>.",
        "remind_usage": "Send <code>/remind HH:MM</code> (24-hour clock, time zone {timezone}) for a daily reminder on days when reviews are due, or <code>/remind off</code>. Now: {current}.",
        "remind_set": "Every day at {time} ({timezone}) I will remind you if reviews are due.",
        "remind_off": "Reminders are off.",
        "remind_none": "off",
        "cmd_review": "Review the questions due now",
        "cmd_timezone": "Set your time zone",
        "cmd_remind": "Daily reminder: /remind HH:MM or off",
        "group_usage": (
            "Send <code>/groupquiz &lt;id&gt; [seconds] [poll]</code>, for example "
            "<code>/groupquiz {example} 30</code>. Seconds per question: {low} to {high}; "
            "<code>poll</code> uses Telegram's quiz polls."
        ),
        "group_intro": (
            "🎯 <b>{title}</b>: a quiz for the whole chat. {n} questions, {seconds} s each. "
            "Tap your answer: only your first tap counts, and faster right answers earn more."
        ),
        "group_status": "⏱ {seconds} s · 👥 {count} answered",
        "group_answered": "👥 {count} answered",
        "group_option_count": "{n} chose it",
        "button_reveal": "👁 Reveal (admins)",
        "group_toast_right": "✅ Right! +{points} points. Your answer stands.",
        "group_toast_wrong": "❌ Not quite. Your answer stands; the reveal shows the right one.",
        "group_toast_stands": "Your answer {letter} stands: one answer per question.",
        "group_toast_closed": "Time is up for this question.",
        "group_toast_over": "This quiz is over. /leaderboard shows the results.",
        "group_admins_only": "Only the chat's admins can do that.",
        "group_running_already": "A quiz is already running here. An admin can end it with /stopquiz.",
        "group_none_running": "No quiz is running here. An admin can start one with /groupquiz.",
        "group_stopped": "⏹ The quiz was stopped.",
        "group_poll_not_in_channel": (
            "Channels allow only anonymous polls, so a poll quiz could not tell who answered. "
            "Leave out <code>poll</code> to quiz with buttons."
        ),
        "group_only_here": "Group quizzes run in a group or a channel. Here, use /quiz {example}.",
        "group_explanation_more": "💡 <b>Why</b> (question {k}): {text}",
        "board_final": "🏆 <b>{title}</b>: final results",
        "board_current": "📊 <b>This quiz</b>: {title}",
        "board_last": "📊 <b>Last quiz</b>: {title}",
        "board_all_time": "🏆 <b>All-time in this chat</b>",
        "board_empty": "No answers yet.",
        "board_line": "{place} {name}: <b>{points}</b> points · {correct}/{answered} right · {seconds} s",
        "board_nothing": "No quiz has run in this chat yet. An admin can start one with /groupquiz.",
        "cmd_groupquiz": "Start a quiz for this chat (admins)",
        "cmd_stopquiz": "Stop the running quiz (admins)",
        "cmd_skip": "Reveal this question now and go on (admins)",
        "cmd_leaderboard": "The chat's scores",
        # issue 11: arguments (bot/arguments.py) and names (bot/display.py)
        "args_which_quiz": "Which quiz?",
        "args_extra": "<code>{value}</code> is one word too many.",
        "args_seconds": "Seconds per question must be a whole number from {low} to {high}, written with the digits 0-9; <code>{value}</code> is not.",
        "args_clock_time": "<code>{value}</code> is not a time: send HH:MM on the 24-hour clock with the digits 0-9, for example 07:30.",
        "args_chat": "<code>{value}</code> is not a chat: send the @name of a channel or group, or a chat id such as -1001234567890.",
        "no_name": "(no name)",
        # issue 11: Telegram faults
        "group_ended_admin": (
            "⚠️ The group quiz <b>{title}</b> in chat <code>{chat}</code> has ended: Telegram "
            "refused its post ({reason}). Check that I am still in that chat and may send "
            "messages there, then start it again with /groupquiz."
        ),
        "group_gave_up_admin": (
            "⚠️ The group quiz <b>{title}</b> in chat <code>{chat}</code> has ended: its next "
            "question could not be posted in {tries} tries ({reason}). Start it again with "
            "/groupquiz once Telegram answers."
        ),
        "group_ended_here": "⚠️ This quiz has ended: Telegram refused its question here ({reason}).",
        "group_ended_poll": (
            "⚠️ Quiz polls cannot be posted here ({reason}), so this quiz has ended. "
            "/groupquiz {quiz_id} without <code>poll</code> asks with buttons."
        ),
        "push_try_later": (
            "Telegram did not take the post into {chat} just now ({reason}). Nothing is recorded "
            "as posted: check the chat, and /push again in a minute."
        ),
        # issue 11: database safety
        "storage_lost": "Quiz Tutor is temporarily unavailable. Please try again in a minute.",
        "cmd_forgetme": "Delete everything stored about you",
        "forget_ask": (
            "This deletes everything Quiz Tutor stored about you: your answers, scores and "
            "progress, your review schedule, your reminder, language and time zone. In group "
            "quizzes your points stay, shown as “(deleted)”; an answer to a group question "
            "still open is anonymized when it closes (a quiz question within 10 minutes, a "
            "posted one with the next post or within 7 days). This cannot be undone."
        ),
        "forget_confirm": "Delete my data",
        "forget_cancel": "Cancel",
        "forget_done": (
            "Your data is deleted (an answer to a group question still open: when it closes). "
            "If you write to me again, I start a new, empty record."
        ),
        "forget_kept": "Nothing was deleted.",
        "forget_expired": "This request has expired: send /forgetme again.",
        "deleted_learner": "(deleted)",
        # issue 11: import and preview
        "and_more": "… and {n} more",
        "import_errors_more": "… and {n} more: every error is in the attached file.",
        "import_errors_file": "Every error of {file} ({n}), one per line.",
        # teachers: reviews of what a member missed (bot/reports), reports, homework
        "button_missed": "📚 Review what you missed",
        "missed_intro": "📚 <b>{title}</b>: the {n} question(s) you missed in the group, now.",
        "missed_none": "🎉 You got every question of <b>{title}</b> right in the group: nothing to review!",
        "missed_not_member": "Sorry, this review is for the members of the chat where that quiz ran. Nothing was done.",
        "missed_running": "That quiz is still running in the group: your review opens once it ends.",
        "member_check_failed": "I could not check that with Telegram just now. Please press the link again in a moment.",
        "report_title": "📊 <b>{title}</b>: report",
        "report_participants": "👥 {n} participant(s)",
        "report_average": "Average: {points} points, {right} of {n} right",
        "report_hardest": "Hardest: question {k}, {right} of {answered} right: {text}",
        "report_nothing": "No group quiz has been played here yet: start one with /groupquiz.",
        "report_sent_privately": "📬 The report was sent to you privately.",
        "report_start_first": "I cannot write to you in private yet: press the button below, then Start, and the report comes to you there.",
        "report_anonymous": "Anonymous admins have no private chat with me: a chat admin presses the button below to receive the report in private.",
        "button_report_private": "📥 Get the report in private",
        "report_admins_only": "Sorry, that report is for the chat's admins. Nothing was sent.",
        "report_no_attempts": "Nobody has finished <b>{title}</b> yet: there is nothing to report.",
        "report_quiz_caption": "📊 {title}: every learner's latest attempt ({n})",
        "usage_report": "Send <code>/report &lt;quiz id&gt; [csv|xlsx]</code>, for example <code>/report {example}</code>.",
        "args_report_format": "The format is <code>csv</code> or <code>xlsx</code>, not {value}.",
        "cmd_report": "Report of the last quiz (admins)",
        "homework_post": "📝 <b>Homework #{number}: {title}</b> · {n} questions\n⏰ Deadline: {deadline}\nTake it in private: your first attempt finished before the deadline counts.\n\n✅ {done} done",
        "homework_post_closed": "📝 <b>Homework #{number}: {title}</b>\n⏰ Closed at {deadline}\n\n✅ {done} done",
        "homework_post_cancelled": "📝 <b>Homework #{number}: {title}</b>\n🚫 Cancelled.",
        "button_homework_start": "▶️ Start in private chat",
        "homework_results": "🏁 <b>Homework #{number}: {title}</b>: results",
        "homework_line": "{place} {name}: {score}/{total} · {seconds} s",
        "homework_nobody_done": "Nobody finished it in time.",
        "homework_unfinished": "Started and not finished in time: {n}",
        "homework_none_open": "No homework is open here. An admin sets one with /assign.",
        "homework_list_title": "📝 <b>Open homework</b>",
        "homework_list_line": "#{number} {title} · until {deadline} · ✅ {done} done",
        "homework_intro": "📝 <b>Homework: {title}</b>\n⏰ Deadline: {deadline}. Your first attempt finished before then counts.",
        "homework_handed_in": "✅ You handed in <b>{title}</b>: {score}/{total}. Results come in the group at the deadline.",
        "homework_closed": "This homework is closed: its results are in the group.",
        "homework_cancelled": "This homework was cancelled by the group's admins.",
        "homework_not_member": "Sorry, this homework is for the members of the group that set it. Nothing was done.",
        "homework_reminder": "⏰ One hour left for your homework <b>{title}</b> (deadline {deadline}). Carry on with <code>/quiz {quiz_id}</code>.",
        "homework_report_caption": "📝 Homework #{number}: {title}: {n} member(s) opened it",
        "homework_report_offer": "A chat admin presses the button below to receive the homework's report in private.",
        "homework_unassigned": "🚫 Homework #{number} cancelled.",
        "homework_unknown": "There is no open homework #{number} in this chat. /assignments lists them.",
        "homework_groups_only": "Homework is set in a group: send /assign there.",
        "usage_assign": "Send <code>/assign &lt;quiz id&gt; &lt;deadline&gt;</code>: a duration such as <code>90m</code>, <code>2h</code>, <code>3d</code>, or a date and time <code>YYYY-MM-DD HH:MM</code> ({timezone}; an admin changes it with /timezone). For example <code>/assign {example} 2d</code>.",
        "usage_unassign": "Send <code>/unassign &lt;number&gt;</code>; /assignments lists the open homework.",
        "args_assignment": "A homework's number is written with the digits 0-9; {value} is not one.",
        "deadline_missing": "Which deadline?",
        "deadline_unreadable": "I cannot read {value} as a deadline.",
        "deadline_past": "{value} is not in the future.",
        "deadline_too_soon": "{value} is too soon: a deadline is at least a minute away.",
        "deadline_too_far": "{value} is too far away: at most a year.",
        "deadline_no_such_time": "{value} does not exist in this time zone (the clocks change then).",
        "group_timezone_set": "This group's time zone is now {timezone}: homework deadlines are read in it.",
        "cmd_assign": "Homework with a deadline (admins)",
        "cmd_assignments": "Open homework",
        "cmd_unassign": "Cancel a homework (admins)",
        "chart_answers_title": "Answers per day, last 30 days",
        "chart_right": "right",
        "chart_wrong": "wrong",
        "chart_mastery_title": "Mastered per quiz",
        "chart_progress_alt": "📊 Chart. Answers in the last 30 days: {right} right, {wrong} wrong, on {days} day(s). Mastered: {mastery}.",
        "chart_stats_title": "{title}: right answers per question",
        "chart_stats_alt": "📊 Chart: the share of right answers per question, hardest first. {hardest}",
        "chart_stats_quiz": "{title}: hardest is question {k}, {percent}% right.",
        "chart_scores_title": "Points per member",
        "chart_points": "points",
        "chart_members": "members",
        "chart_scores_alt": "📊 Chart: how many members scored how many points. {n} member(s), from {low} to {high} points.",
        "group_language_set": "This group's language is now {language}: I post here in it. Each member's own answers (toasts) stay in their language.",
        "usage_group_language": "Send <code>/language &lt;code&gt;</code>, one of {choices}. Now: {language}.",
        "args_language": "{value} is not one of the languages: {choices}.",
        "group_skipped": "{n} question(s) of this quiz are skipped here: they are answered by typing (a number or words), and everyone here would see the answer. Take the quiz in a private chat with me to meet them.",
        "group_nothing_playable": "A chat cannot play any question of <code>{quiz_id}</code> yet: take it in a private chat with me.",
        "push_nothing_playable": "No question of <code>{quiz_id}</code> can be posted to a chat yet: a chat cannot play their types.",
        # issue 14: question types, code and pictures (learner side)
        "true": "True",
        "false": "False",
        "hint_multiple": "Choose every right option, then tap ✅ Submit.",
        "hint_number": "Reply with a number.",
        "hint_number_unit": "Reply with a number (in {unit}).",
        "hint_typed": "Reply with your answer.",
        "button_submit": "✅ Submit",
        "pick_first": "Choose at least one option first.",
        "picked_toast": "Your selection: {letters}",
        "picked_none": "Nothing selected yet.",
        "mark_missed": "missed",
        "partial_toast": "🟡 Partly right: {score}.",
        "wrong_options_toast": "❌ Not quite. The right options are {letters}.",
        "reveal_partial": "🟡 <b>Partly right</b> ({score}). The right options are <b>{letters}</b>.",
        "reveal_wrong_options": "❌ <b>Not quite.</b> The right options are <b>{letters}</b>.",
        "reveal_wrong_value": "❌ <b>Not quite.</b> The right answer is <b>{answer}</b>.",
        "reveal_wrong_number": "❌ <b>Not quite.</b> The answer is <b>{answer}</b>.",
        "reveal_wrong_typed": "❌ <b>Not quite.</b> Accepted: {accepted}.",
        "your_reply": "Your answer: {reply}",
        "within_tolerance": "{answer} (± {tolerance})",
        "not_a_number": "That is not a number. Reply with a number, such as 14 or 2.5.",
        "digit_grouping": "Please write the number without digit grouping: {ungrouped}.",
        "digit_grouping_ambiguous": "Please write {ungrouped} or {as_decimal}: a comma before three digits could be either.",
        "empty_reply": "Reply with your answer in words.",
        "reply_not_current": "That question is no longer waiting for an answer: this reply changes nothing.",
        "picture": "🖼 {alt}",
        "picture_no_alt": "🖼 (a picture)",
        "preview_multiple": "(several right options)",
        "preview_true_false": "True or false?",
        "preview_number": "Answer: a number",
        "preview_number_unit": "Answer: a number, in {unit}",
        "preview_typed": "Answer: typed in words",
        # issue 14: question types in groups and channels
        "group_hint_multiple": "Choose every right option: your picks show only to you. Then tap ✅ Submit my answer.",
        "button_submit_mine": "✅ Submit my answer",
        "group_picked_toast": "Your selection: {letters} — tap ✅ Submit my answer.",
        "group_picked_none": "Your selection is empty: tap the options you choose.",
        "group_toast_partly": "🟡 Partly right ({score}): +{points} points. Your answer stands.",
        "group_toast_wrong_options": "❌ Not quite. Your answer stands; the reveal shows the right options.",
        "group_answered_right": "👥 {count} answered, {right} fully right",
    },
    "yo": {
        "welcome": (
            "Ẹ n lẹ́, {name}! Èmi ni <b>Quiz Tutor</b>. Màá bi yín ní ìbéèrè kan lẹ́ẹ̀kan, "
            "màá fi ìdáhùn àti àlàyé hàn lẹ́yìn tí ẹ bá tẹ̀ ẹ́, màá sì rántí ìlọsíwájú yín."
        ),
        "pick_quiz": "Ẹ yan ìdánwò kan:",
        "no_quizzes": "Kò sí ìdánwò kankan síbẹ̀.",
        "quizzes_title": "<b>Àwọn ìdánwò</b>",
        "level_easy": "rọrùn",
        "level_medium": "àárín",
        "level_hard": "líle",
        "n_questions": "ìbéèrè {n}",
        "progress_best": "èyí tó dára jù {score}/{total}",
        "progress_running": "ń lọ lọ́wọ́: {answered}/{total}",
        "progress_new": "kò tíì bẹ̀rẹ̀",
        "button_preview": "👀 Àwòtẹ́lẹ̀",
        "button_retake": "🔁 Tún un ṣe",
        "button_all_quizzes": "📚 Gbogbo ìdánwò",
        "question_header": "Ìbéèrè {k} ti {n}",
        "your_answer": "ìdáhùn yín",
        "correct_toast": "✅ Ó tọ̀nà!",
        "wrong_toast": "❌ Kò tọ̀nà. Ìdáhùn tó tọ̀nà ni {letter}.",
        "reveal_correct": "✅ <b>Ó tọ̀nà!</b>",
        "reveal_wrong": "❌ <b>Kò tọ̀nà.</b> Ìdáhùn tó tọ̀nà ni <b>{letter}</b>.",
        "explanation": "💡 <b>Àlàyé:</b> {text}",
        "summary_title": "🏁 <b>{title}</b>: ó ti parí",
        "summary_score": "Àmì: <b>{score}/{total}</b> ({percent}%)",
        "summary_best": "Èyí tó dára jù yín: {score}/{total}",
        "summary_perfect": "Gbogbo ìdáhùn yín ló tọ̀nà. 🎉",
        "summary_review": "Ẹ tún wo àwọn wọ̀nyí:",
        "resuming": "Ẹ káàbọ̀: ẹ wà ní ìbéèrè {k} ti {n}.",
        "unknown_quiz": "Kò sí ìdánwò tí a ń pè ní <code>{quiz_id}</code>. Ẹ wo /quizzes.",
        "preview_title": "👀 <b>{title}</b> · ìbéèrè {n} · àwọn ìdáhùn yóò hàn bí ẹ ṣe ń ṣe ìdánwò náà",
        "guide": '📖 Ìtọ́sọ́nà: <a href="{url}">{title}</a>',
        "progress_title": "📈 <b>Ìlọsíwájú yín</b>",
        "progress_none": "Ẹ kò tíì dáhùn ìbéèrè kankan. Ẹ bẹ̀rẹ̀ pẹ̀lú /quizzes.",
        "progress_attempts": "{n} ti parí",
        "progress_last": "èyí tó kẹ́yìn {score}/{total}",
        "progress_weak": "láti tún wò: {questions}",
        "language_choose": "Ẹ yan èdè yín:",
        "language_set": "Èdè: {language}.",
        "stale_button": "Bọ́tìnì yìí kò ṣiṣẹ́ mọ́.",
        "link_invalid": "Ẹ má bínú, mi ò lè ṣí ìjápọ̀ yìí: kì í ṣe tèmi, tàbí wọ́n ti yí i padà. Kò sí ohun tí a ṣe.",  # yo: review
        "link_expired": "Ẹ má bínú, ìjápọ̀ yìí ti di àìlò. Ẹ béèrè tuntun nínú ẹgbẹ́.",  # yo: review
        "button_wrong_chat": "Bọ́tìnì yìí kò ṣiṣẹ́ nínú ìjíròrò yìí.",  # yo: review
        "already_answered": "Ẹ ti dáhùn ìbéèrè yìí.",
        "not_your_quiz": "Ìdánwò ẹlòmíràn nìyí. Ẹ bẹ̀rẹ̀ tiyín pẹ̀lú /quizzes.",
        "quiz_finished_already": "Ìdánwò yìí ti parí. Ẹ tún un ṣe láti /quizzes.",
        "quiz_gone": "Ìdánwò yìí kò sí mọ́.",
        "tap_on_retired": "A ti yọ ìbéèrè yìí kúrò. Èyí tó kàn nìyí.",
        "unknown_command": "Mi ò mọ àṣẹ yẹn. /help máa fi ohun tí mo lè ṣe hàn.",
        "plain_text": "Mo ń dáhùn sí àwọn àṣẹ àti bọ́tìnì. Ẹ gbìyànjú /quizzes tàbí /help.",
        "storage_error": "Ẹ pẹ̀lẹ́, mi ò lè fi pamọ́ báyìí. Ẹ tún gbìyànjú láìpẹ́.",
        # admins (bot/handlers/admin.py)
        "not_admin": "Ẹ má bínú, àṣẹ yẹn wà fún àwọn alábòójútó bot nìkan. Kò sí ohun tó yí padà.",
        "usage_import": "Ẹ fi fáìlì ìdánwò ránṣẹ́ bí ìwé pẹ̀lú àkọlé <code>/import</code>, tàbí ẹ fèsì <code>/import</code> sí ọ̀kan: YAML wa, GIFT (.gift), Moodle XML (.xml), CSV, Excel (.xlsx), Aiken (.txt), tàbí .zip ọ̀kan nínú wọn pẹ̀lú àwọn àwòrán rẹ̀. <code>/import --skip-unsupported</code> máa yí èyí tí ìdánwò lè gbà padà, á sì to ìyókù lẹ́sẹẹsẹ.",  # yo: review
        "import_too_large": "Fáìlì yẹn ní báìtì {size}; bánkì kan kò gbọdọ̀ ju {limit} lọ. Kò sí ohun tó yí padà.",
        "import_too_large_unsized": "Fáìlì yẹn ju báìtì {limit} lọ, bánkì kan kò sì gbọdọ̀ ju {limit} lọ. Kò sí ohun tó yí padà.",  # yo: review
        "import_download_failed": "Mi ò lè gba fáìlì yẹn sílẹ̀. Kò sí ohun tó yí padà.",
        "import_refused": "❌ A kọ <b>{file}</b>; kò sí ohun tó yí padà. Àṣìṣe ({n}):",
        "import_done": "✅ A ti gbé <b>{title}</b> (<code>{quiz_id}</code>) wọlé: ìbéèrè {n}.",
        "import_counts": "Tuntun {added}, àtúnṣe {updated}, bí ó ti wà {unchanged}, tí a fẹ̀yìntì {retired}.",
        "import_added": "Tuntun: {ids}",
        "import_updated": "Àtúnṣe: {ids}",
        "import_retired": "Tí a fẹ̀yìntì (a pa ìdáhùn mọ́): {ids}",
        "import_overrides": "Ẹ̀dà bot yìí ló ń rọ́pò fáìlì bánkì tó wà lórí disk báyìí.",
        "import_unchanged": "Kò sí ohun tó yí padà: <code>{quiz_id}</code> ti jẹ́ bánkì yìí gan-an.",
        "import_pictures_full": "A kọ {file}; kò sí ohun tó yí padà. Àwọn àwòrán gbogbo bánkì tí a kó wọlé yóò wúwo tó {total} MiB papọ̀; bọ́ọ̀tì ń pa {limit} MiB mọ́ jùlọ. Kọ́kọ́ yọ àwọn àwòrán kúrò, tàbí àwọn bánkì tó ń lò wọ́n.",  # yo: review
        "usage_export": "Ẹ fi <code>/export &lt;quiz id&gt; [format]</code> ránṣẹ́, fún àpẹẹrẹ <code>/export {example}</code> tàbí <code>/export {example} gift</code>. Àwọn fọ́ọ̀mù: {formats}.",  # yo: review
        "export_caption": "<code>{quiz_id}</code>: ìbéèrè {n}. Ẹ dá a padà pẹ̀lú àkọlé /import láti ṣe àtúnṣe ìdánwò náà.",
        # issue 15: formats in and out, quiz polls collected
        "args_format": "<code>{value}</code> kì í ṣe fọ́ọ̀mù tí mo ń kọ.",  # yo: review
        "import_unknown_format": "Mi ò lè ka <b>{file}</b>: ẹ fi fáìlì tó parí pẹ̀lú {extensions} ránṣẹ́. Kò sí ohun tó yí padà.",  # yo: review
        "import_too_large_format": "Fáìlì {format} yẹn ní báìtì {size}; kò gbọdọ̀ ju {limit} lọ. Kò sí ohun tó yí padà.",  # yo: review
        "import_too_large_format_unsized": "Fáìlì {format} yẹn ju báìtì {limit} lọ, èyí tó pọ̀ jù tí ó lè ní. Kò sí ohun tó yí padà.",  # yo: review
        "import_skipped": "⚠️ A fo ìwọ̀nyí nínú {file} ({n}): ìdánwò kò lè gbà wọ́n.",  # yo: review
        "import_warnings": "⚠️ Ohun tí a kò pa mọ́ nínú {file} ({n}):",  # yo: review
        "export_caption_format": "<code>{quiz_id}</code> bí {format}: ìbéèrè {n}.",  # yo: review
        "export_warnings": "⚠️ {format} kò lè gba gbogbo rẹ̀ ({n}):",  # yo: review
        "export_failed": "A kò lè kọ <code>{quiz_id}</code> bí {format}:",  # yo: review
        "export_too_large": "Fáìlì yẹn yóò ní báìtì {size}; Telegram kò gba ju 50 MB lọ láti ọ̀dọ̀ bot.",  # yo: review
        "usage_collect": "Ẹ fi <code>/collect &lt;quiz id&gt;</code> ránṣẹ́, fún àpẹẹrẹ <code>/collect {example}</code>: lẹ́yìn náà ẹ ṣe ìbò ìdánwò níbí, tàbí ẹ fi èyí tí a ti pa ránṣẹ́ síwájú, kí ẹ sì fi /done ránṣẹ́.",  # yo: review
        "cmd_collect": "Ìbò ìdánwò Telegram di ìbéèrè",  # yo: review
        "button_create_quiz_poll": "Ṣe ìbéèrè ìdánwò",  # yo: review
        "collect_start": "À ń kó ìbéèrè jọ fún <b>{title}</b> (<code>{quiz_id}</code>). Ẹ tẹ <b>Ṣe ìbéèrè ìdánwò</b> nísàlẹ̀ (ẹ sàmì sí ìdáhùn tó tọ́, ẹ fi àlàyé kún un tí ẹ bá fẹ́), tàbí ẹ fi ìbò ìdánwò tí a ti pa ránṣẹ́ síwájú. /done á fi wọ́n pamọ́, /cancel á jù wọ́n nù.",  # yo: review
        "collect_replaced": "A ti ju ìbéèrè {n} tí a kó jọ tẹ́lẹ̀ nù: àkójọ tuntun bẹ̀rẹ̀.",  # yo: review
        "collect_none": "Kò sí àkójọ tó ṣí sílẹ̀ (àtúnbẹ̀rẹ̀ máa ń jù ú nù). Ẹ kọ́kọ́ fi <code>/collect &lt;quiz id&gt;</code> ránṣẹ́.",  # yo: review
        "collect_regular_poll": "A kò gbà á: ìbò lásán kò ní ìdáhùn tó tọ́. Ẹ ṣe ìdánwò pẹ̀lú bọ́tìnnì nísàlẹ̀.",  # yo: review
        "collect_open_poll": "A kò gbà á: ìbò ìdánwò yìí ṣì ṣí sílẹ̀, nítorí náà Telegram kò fi ìdáhùn rẹ̀ tó tọ́ hàn mí. Ẹ kọ́kọ́ pa ìbò náà, tàbí ẹ ṣe é níbí pẹ̀lú bọ́tìnnì.",  # yo: review
        "collect_no_answer": "A kò gbà á: ìbò ìdánwò yìí kò fi ìdáhùn rẹ̀ tó tọ́ hàn. Ẹ ṣe é níbí pẹ̀lú bọ́tìnnì.",  # yo: review
        "collect_refused": "A kò gbà á: ìbò yìí kò lè jẹ́ ìbéèrè ìdánwò náà:",  # yo: review
        "collect_full": "A kò gbà á: àkójọ kan kò lè ju ìbéèrè {n} lọ. Ẹ fi /done ránṣẹ́, lẹ́yìn náà /collect lẹ́ẹ̀kan sí i.",  # yo: review
        "collect_added": "✅ {k}. {text} (èyí tó tọ́: {right})",  # yo: review
        "collect_empty": "Kò sí ohun tí a kó jọ síbẹ̀: ẹ ṣe ìbò ìdánwò pẹ̀lú bọ́tìnnì, tàbí /cancel.",  # yo: review
        "collect_not_saved": "A kò fi nǹkan pamọ́; àkójọ náà ṣì ṣí sílẹ̀ (/cancel á jù ú nù):",  # yo: review
        "collect_saved": "✅ A ti fi ìbéèrè {n} kún <b>{title}</b> (<code>{quiz_id}</code>), ó ti di {total}: {ids}",  # yo: review
        "usage_delquestion": "Ẹ fi <code>/delquestion &lt;quiz id&gt; &lt;question id&gt;</code> ránṣẹ́.",
        "unknown_question": "Ìdánwò <code>{quiz_id}</code> kò ní ìbéèrè <code>{question_id}</code>.",
        "last_question": "<code>{question_id}</code> ni ìbéèrè tó kẹ́yìn nínú <code>{quiz_id}</code>; ìdánwò kan nílò ó kéré tán ọ̀kan.",
        "question_retired": "🗄 A ti fẹ̀yìntì ìbéèrè <code>{question_id}</code> ti <code>{quiz_id}</code>: kò sí ẹni tí yóò rí i mọ́, a sì pa àwọn ìdáhùn mọ́. Ìdánwò náà ní ìbéèrè {n} báyìí.",
        "usage_push": "Ẹ fi <code>/push &lt;quiz id&gt; &lt;@channel tàbí chat id&gt;</code> ránṣẹ́.",
        "push_no_chat": "Mi ò lè fi ránṣẹ́ sí {chat}. Ẹ fi mí kún ìbánisọ̀rọ̀ náà (alábòójútó nínú ikanni), kí ẹ sì tún gbìyànjú.",
        "push_done": "📣 A ti fi ìbéèrè {k} ti {n} láti <code>{quiz_id}</code> ránṣẹ́ sí {chat}.",
        "push_all_posted": "A ti fi gbogbo ìbéèrè <code>{quiz_id}</code> ránṣẹ́ sí {chat} tẹ́lẹ̀.",
        "post_header": "📣 <b>{title}</b> · ìbéèrè {k} ti {n}",
        "post_count": "👥 Ìdáhùn títí di ìsinsìnyí: {n}. Ìdáhùn tó tọ̀nà yóò hàn pẹ̀lú ìbéèrè tó kàn.",
        "post_revealed": "👥 Ènìyàn {n} dáhùn, {right} ló tọ̀nà.",
        "post_retired": "A ti fẹ̀yìntì ìbéèrè yìí.",
        "post_closed": "Ìbéèrè yìí ti parí.",
        "usage_addquestion": "Ẹ fi <code>/addquestion &lt;quiz id&gt;</code> ránṣẹ́, fún àpẹẹrẹ <code>/addquestion {example}</code>.",
        "draft_text": "Ìbéèrè tuntun fún <b>{title}</b>: ìdáhùn kan tó tọ̀nà, àyàfi tí ẹ bá kọ́kọ́ tẹ irú mìíràn nísàlẹ̀. Ẹ fi ọ̀rọ̀ ìbéèrè náà ránṣẹ́ ({language}). /cancel yóò dúró láìfi nǹkan pamọ́.",  # yo: review
        "draft_options": "Nísisìyí àwọn àṣàyàn, ọ̀kan ní ìlà kọ̀ọ̀kan (2 sí 10).",
        "draft_answer": "Àṣàyàn wo ló tọ̀nà? Ẹ fi lẹ́tà rẹ̀ ránṣẹ́ (A sí {last}).",
        "draft_explanation": "Nísisìyí àlàyé tó ń kọ́ni ìdí tí ìdáhùn náà fi tọ̀nà, tàbí /skip.",
        "draft_translation": "Ìtúmọ̀ (kò pọn dandan): kóòdù èdè ní ìlà àkọ́kọ́ (fún àpẹẹrẹ <code>yo</code>), lẹ́yìn náà ìbéèrè, lẹ́yìn náà àṣàyàn {n}, ọ̀kan ní ìlà kọ̀ọ̀kan, lẹ́yìn náà àlàyé tí ó bá wà. Tàbí /skip.",
        "draft_too_long": "Ìyẹn jẹ́ lẹ́tà {length}; kò gbọdọ̀ ju {limit} lọ. Ẹ tún un fi ránṣẹ́.",
        "draft_empty": "Ẹ jọ̀wọ́ fi ọ̀rọ̀ díẹ̀ ránṣẹ́.",
        "draft_options_count": "Ẹ fi àṣàyàn 2 sí 10 ránṣẹ́, ọ̀kan ní ìlà kọ̀ọ̀kan (mo rí {n}).",
        "draft_bad_answer": "Ẹ fi lẹ́tà kan láti A sí {last} ránṣẹ́.",
        "draft_answer_multiple": "Àwọn àṣàyàn wo ló tọ̀nà? Ẹ fi lẹ́tà wọn ránṣẹ́ (A sí {last}), fún àpẹẹrẹ <code>A, C</code>.",  # yo: review
        "draft_answer_true_false": "Ṣé òótọ́ ni gbólóhùn náà tàbí irọ́? Ẹ fi <code>true</code> tàbí <code>false</code> ránṣẹ́.",  # yo: review
        "draft_answer_numeric": "Ẹ fi nọ́mbà tó tọ̀nà ránṣẹ́, fún àpẹẹrẹ <code>14</code> tàbí <code>2.5</code>.",  # yo: review
        "draft_answer_typed": "Ẹ fi àwọn ìdáhùn tí a gbà ránṣẹ́, ọ̀kan ní ìlà kọ̀ọ̀kan (lẹ́tà ńlá, àlàfo, àmì ìpínrọ̀ àti àmì ohùn kò ṣe pàtàkì).",  # yo: review
        "draft_tolerance": "Báwo ni ìdáhùn ṣe lè jìnnà tó sí i kí ó ṣì tọ̀nà? Ẹ fi nọ́mbà bíi <code>0.5</code> ránṣẹ́, tàbí /skip fún gan-an.",  # yo: review
        "draft_unit": "Ẹ̀yọ ìwọ̀n rẹ̀, tí a ó fi hàn pẹ̀lú ìbéèrè (fún àpẹẹrẹ <code>GB</code>), tàbí /skip.",  # yo: review
        "draft_bad_answers": "Ẹ fi lẹ́tà kan tàbí jù bẹ́ẹ̀ lọ láti A sí {last} ránṣẹ́, fún àpẹẹrẹ <code>A, C</code>.",  # yo: review
        "draft_bad_true_false": "Ẹ fi <code>true</code> tàbí <code>false</code> ránṣẹ́.",  # yo: review
        "draft_not_a_number": "Ìyẹn kì í ṣe nọ́mbà. Ẹ fi ọ̀kan bíi <code>14</code> tàbí <code>2.5</code> ránṣẹ́.",  # yo: review
        "draft_digit_grouping": "Ẹ kọ ọ́ láìsí ìpín-nọ́mbà, fún àpẹẹrẹ <code>{number}</code>.",  # yo: review
        "draft_bad_tolerance": "Ìyàtọ̀ tí a gbà jẹ́ 0 tàbí jù bẹ́ẹ̀ lọ.",  # yo: review
        "draft_accepted_count": "Ẹ fi ìdáhùn 1 sí {most} tí a gbà ránṣẹ́, ọ̀kan ní ìlà kọ̀ọ̀kan (mo rí {n}).",  # yo: review
        "draft_type_chosen": "Irú: {type}",  # yo: review
        "draft_accepted_punctuation": "<code>{text}</code> jẹ́ àmì àti àlàfo nìkan: kò sí ìdáhùn tó lè bá a mu. Ẹ tún fi àwọn ìdáhùn tí a gbà ránṣẹ́.",  # yo: review
        "draft_type_too_late": "A máa ń yan irú ṣáájú ọ̀rọ̀ ìbéèrè; ẹ tẹ /cancel kí ẹ tún bẹ̀rẹ̀ láti yí i padà.",  # yo: review
        "draft_bad_translation": "Ẹ fi kóòdù èdè, ìbéèrè àti àṣàyàn {n} ránṣẹ́, ọ̀kan ní ìlà kọ̀ọ̀kan, àti àlàyé tí ẹ bá fẹ́.",
        "draft_bad_language": "<code>{code}</code> kì í ṣe kóòdù èdè bí en tàbí yo.",
        "draft_preview": "👀 <b>Àwòtẹ́lẹ̀</b>: ìbéèrè {k} ti <b>{title}</b> (id <code>{question_id}</code>)",
        "draft_translation_title": "Ìtúmọ̀ ({language}):",
        "button_confirm": "✅ Fọwọ́sí",
        "button_cancel": "✖️ Fagilé",
        "draft_refused": "❌ A kọ ìbéèrè náà; kò sí ohun tí a fi pamọ́:",
        "draft_saved": "✅ A ti fi pamọ́ bí ìbéèrè {k} (<code>{question_id}</code>) ti <code>{quiz_id}</code>.",
        "draft_cancelled": "A ti fagilé e. Kò sí ohun tí a fi pamọ́.",
        "draft_use_buttons": "Ẹ tẹ Fọwọ́sí tàbí Fagilé lábẹ́ àwòtẹ́lẹ̀, tàbí ẹ fi /cancel ránṣẹ́.",
        "stats_title": "📊 <b>Ìṣirò</b>\nAkẹ́kọ̀ọ́: {learners} · ìdáhùn: {answers}",
        "stats_quiz": "<b>{title}</b> (<code>{quiz_id}</code>): akẹ́kọ̀ọ́ {learners}, ìdáhùn {answers}, {percent}% tọ̀nà",
        "stats_quiz_none": "<b>{title}</b> (<code>{quiz_id}</code>): kò sí ìdáhùn síbẹ̀",
        "stats_hardest": "Èyí tó le jù:",
        "stats_question": "• <code>{question_id}</code> {percent}% tọ̀nà nínú {n}: {text}",
        "stats_retired_mark": "[ti fẹ̀yìntì]",
        "stats_retired": "Tí a fẹ̀yìntì: {ids}",
        "stats_by_type": "Nípa irú: {parts}",  # yo: review
        "stats_type_part": "{type} ìdáhùn {n}, {percent}% tọ̀nà",  # yo: review
        "stats_type_part_average": "{type} ìdáhùn {n}, àròpín máàkì {percent}%",  # yo: review
        "stats_multiple_head": "Ìdáhùn tó tọ̀nà ju ẹyọ kan lọ, àròpín máàkì:",  # yo: review
        "stats_multiple_question": "• <code>{question_id}</code> {percent}% nínú {n}: {text}",  # yo: review
        "stats_wrong_head": "Àwọn ìdáhùn tí kò tọ̀nà tó wọ́pọ̀ jù:",  # yo: review
        "stats_wrong_question": "• <code>{question_id}</code> {replies}: {text}",
        "stats_wrong_reply": "“{reply}” ×{n}",
        "stats_more": "… àti {n} sí i",  # yo: review
        "question_type_single": "Ìdáhùn kan tó tọ̀nà",  # yo: review
        "question_type_multiple": "Ìdáhùn tó tọ̀nà ju ẹyọ kan lọ",  # yo: review
        "question_type_true_false": "Òótọ́ tàbí irọ́",  # yo: review
        "question_type_numeric": "Nọ́mbà",  # yo: review
        "question_type_typed": "Ìdáhùn tí a kọ",  # yo: review
        "usage_schedule": "Ẹ fi <code>/schedule &lt;quiz id&gt; &lt;@channel tàbí chat id&gt; &lt;HH:MM&gt;</code> ránṣẹ́ (UTC), tàbí <code>off</code> dípò àkókò láti dá a dúró.",
        "schedule_done": "⏰ Lójoojúmọ́ ní {time} UTC, ìbéèrè tó kàn láti <code>{quiz_id}</code> yóò lọ sí {chat}.",
        "schedule_off": "⏰ Kò sí ìbéèrè ojoojúmọ́ láti <code>{quiz_id}</code> fún {chat} mọ́.",
        "schedule_none": "Kò sí ètò kankan fún <code>{quiz_id}</code> ní {chat}.",
        "cmd_import": "Fi ìdánwò kún tàbí ṣe àtúnṣe rẹ̀ (YAML, GIFT, Moodle XML, CSV, Excel, Aiken, .zip)",  # yo: review
        "cmd_addquestion": "Fi ìbéèrè kan kún ní ìgbésẹ̀-ìgbésẹ̀",
        "cmd_export": "Ìdánwò kan bí ìwé (YAML, GIFT, XML, CSV, Excel, Anki)",  # yo: review
        "cmd_delquestion": "Fẹ̀yìntì ìbéèrè kan",
        "cmd_push": "Fi ìbéèrè tó kàn ránṣẹ́ sí ìbánisọ̀rọ̀ kan",
        "cmd_schedule": "Fi ìbéèrè ránṣẹ́ lójoojúmọ́",
        "cmd_stats": "Akẹ́kọ̀ọ́, ìdáhùn, ìbéèrè tó le jù",
        "button_start": "▶️ {title}",
        "button_continue": "⏯ {title} ({answered}/{total})",
        "usage_quiz": (
            "Ẹ fi <code>/quiz &lt;id&gt;</code> ránṣẹ́, fún àpẹẹrẹ "
            "<code>/quiz {example}</code>, tàbí ẹ yan ọ̀kan láti /quizzes."
        ),
        "usage_preview": (
            "Ẹ fi <code>/preview &lt;id&gt;</code> ránṣẹ́, fún àpẹẹrẹ "
            "<code>/preview {example}</code>."
        ),
        "private_only": (
            "Ìdánwò ẹnìkan ń lọ ní ìbánisọ̀rọ̀ àdáni: ẹ ṣí {link} kí ẹ sì fi /quizzes ránṣẹ́."
        ),
        "help": (
            "<b>Quiz Tutor</b> ń bi yín ní ìbéèrè kan lẹ́ẹ̀kan, ó ń fi ìdáhùn tó tọ̀nà àti "
            "àlàyé hàn lẹ́yìn tí ẹ bá tẹ̀ ẹ́, ó sì ń rántí ìlọsíwájú yín.\n\n"
            "/quizzes: àwọn ìdánwò àti ìlọsíwájú yín\n"
            "/quiz &lt;id&gt;: bẹ̀rẹ̀ tàbí tẹ̀síwájú ìdánwò kan\n"
            "/preview &lt;id&gt;: gbogbo ìbéèrè ìdánwò kan, láìsí ìdáhùn\n"
            "/progress: àmì yín àti ohun tí ẹ ó tún wò\n"
            "/review: àwọn ìbéèrè tó yẹ fún àtúnyẹ̀wò báyìí\n"
            "/remind HH:MM: ìránnilétí ojoojúmọ́ (/timezone fún agbègbè àkókò yín)\n"
            "/language: yan èdè yín\n"
            "/help: ọ̀rọ̀ yìí"
        ),
        "help_group": (
            "<b>Quiz Tutor</b> ń kọ́ni nípasẹ̀ ìdánwò. Ẹ ṣí ìbánisọ̀rọ̀ àdáni pẹ̀lú mi láti "
            "ṣe ọ̀kan: {link}\n\nNínú ẹgbẹ́ yìí, alábòójútó lè ṣe ìdánwò fún gbogbo ènìyàn: "
            "/groupquiz &lt;id&gt; [seconds]; /leaderboard ń fi àmì hàn."
        ),
        "cmd_start": "Káàbọ̀ àti àwọn ìdánwò",
        "cmd_quizzes": "Àwọn ìdánwò àti ìlọsíwájú yín",
        "cmd_quiz": "Bẹ̀rẹ̀ tàbí tẹ̀síwájú ìdánwò kan",
        "cmd_preview": "Gbogbo ìbéèrè ìdánwò kan",
        "cmd_progress": "Àmì yín àti ohun tí ẹ ó tún wò",
        "cmd_language": "Yan èdè yín",
        "cmd_help": "Ohun tí mo lè ṣe",
        "review_header": "🔁 Àtúnyẹ̀wò {k} ti {n}",
        "progress_overview": "🔥 Ọjọ́ léraléra: {streak} · 🔁 tó yẹ báyìí: {due_now}, kí alẹ́ tó lẹ́: {due_today}",
        "progress_mastery": "{bar} {percent}% ti mọ̀ ({mastered}/{total})",
        "button_review": "🔁 Tún wò báyìí ({n})",
        "in_minutes": "ní ìṣẹ́jú {n}",
        "in_hours": "ní wákàtí {n}",
        "in_days": "ní ọjọ́ {n}",
        "review_none_yet": "Kò sí nǹkan láti tún wò síbẹ̀. Ẹ kọ́kọ́ dáhùn àwọn ìbéèrè (/quizzes): àwọn tí ẹ bá ṣì yóò padà wá síbí.",
        "review_nothing_due": "Kò sí ìbéèrè tó yẹ fún àtúnyẹ̀wò báyìí. Àtúnyẹ̀wò tó kàn yóò wà {wait}.",
        "review_done": "🏁 <b>Àtúnyẹ̀wò ti parí</b>",
        "review_next": "Àtúnyẹ̀wò tó kàn: {wait}.",
        "reminder": "⏰ Ìbéèrè {n} ló yẹ fún àtúnyẹ̀wò. Ìṣẹ́jú díẹ̀ báyìí yóò jẹ́ kí ẹ rántí wọn.",
        "timezone_usage": "Ẹ fi <code>/timezone Area/City</code> ránṣẹ́ (fún àpẹẹrẹ <code>/timezone Africa/Lagos</code>) tàbí <code>/timezone +01:00</code>. Tiyín báyìí: {timezone}.",
        "timezone_set": "Agbègbè àkókò: {timezone}.",
        "timezone_unknown": "Mi ò mọ agbègbè àkókò <code>{timezone}</code>.",
        "remind_usage": "Ẹ fi <code>/remind HH:MM</code> ránṣẹ́ (agbègbè àkókò {timezone}) fún ìránnilétí ojoojúmọ́, tàbí <code>/remind off</code>. Báyìí: {current}.",
        "remind_set": "Lójoojúmọ́ ní {time} ({timezone}) màá rán yín létí tí àtúnyẹ̀wò bá wà.",
        "remind_off": "Ìránnilétí ti dúró.",
        "remind_none": "kò sí",
        "cmd_review": "Tún àwọn ìbéèrè tó yẹ wò",
        "cmd_timezone": "Yan agbègbè àkókò yín",
        "cmd_remind": "Ìránnilétí ojoojúmọ́: /remind HH:MM tàbí off",
        "group_usage": (
            "Ẹ fi <code>/groupquiz &lt;id&gt; [seconds] [poll]</code> ránṣẹ́, fún "
            "àpẹẹrẹ <code>/groupquiz {example} 30</code>. Ìṣẹ́jú-àáyá fún ìbéèrè kọ̀ọ̀kan: "
            "{low} sí {high}; <code>poll</code> ń lo quiz poll ti Telegram."
        ),
        "group_intro": (
            "🎯 <b>{title}</b>: ìdánwò fún gbogbo ẹgbẹ́. Ìbéèrè {n}, ìṣẹ́jú-àáyá {seconds} "
            "fún ọ̀kọ̀ọ̀kan. Ẹ tẹ ìdáhùn yín: ìtẹ̀ àkọ́kọ́ nìkan ló kà, ìdáhùn tó tọ̀nà tó "
            "yára ló ń gba àmì púpọ̀ jù."
        ),
        "group_status": "⏱ {seconds} s · 👥 {count} ti dáhùn",
        "group_answered": "👥 {count} ti dáhùn",
        "group_option_count": "{n} ló yàn án",
        "button_reveal": "👁 Fi hàn (alábòójútó)",
        "group_toast_right": "✅ Ó tọ̀nà! +{points} àmì. Ìdáhùn yín dúró.",
        "group_toast_wrong": "❌ Kò tọ̀nà. Ìdáhùn yín dúró; ìfihàn yóò fi èyí tó tọ̀nà hàn.",
        "group_toast_stands": "Ìdáhùn yín {letter} dúró: ìdáhùn kan fún ìbéèrè kan.",
        "group_toast_closed": "Àkókò ìbéèrè yìí ti tán.",
        "group_toast_over": "Ìdánwò yìí ti parí. /leaderboard ń fi èsì hàn.",
        "group_admins_only": "Àwọn alábòójútó ẹgbẹ́ nìkan ló lè ṣe èyí.",
        "group_running_already": "Ìdánwò kan ń lọ lọ́wọ́ níbí. Alábòójútó lè parí rẹ̀ pẹ̀lú /stopquiz.",
        "group_none_running": "Kò sí ìdánwò tó ń lọ níbí. Alábòójútó lè bẹ̀rẹ̀ ọ̀kan pẹ̀lú /groupquiz.",
        "group_stopped": "⏹ A ti dá ìdánwò náà dúró.",
        "group_poll_not_in_channel": (
            "Àwọn ikanni gba poll aláìlórúkọ nìkan, nítorí náà quiz poll kò ní mọ ẹni tó "
            "dáhùn. Ẹ yọ <code>poll</code> kúrò láti lo bọ́tìnì."
        ),
        "group_only_here": "Ìdánwò ẹgbẹ́ ń lọ nínú ẹgbẹ́ tàbí ikanni. Níbí, ẹ lo /quiz {example}.",
        "group_explanation_more": "💡 <b>Àlàyé</b> (ìbéèrè {k}): {text}",
        "board_final": "🏆 <b>{title}</b>: èsì ìkẹyìn",
        "board_current": "📊 <b>Ìdánwò yìí</b>: {title}",
        "board_last": "📊 <b>Ìdánwò tó kẹ́yìn</b>: {title}",
        "board_all_time": "🏆 <b>Láti ìbẹ̀rẹ̀ nínú ẹgbẹ́ yìí</b>",
        "board_empty": "Kò sí ìdáhùn kankan síbẹ̀.",
        "board_line": "{place} {name}: <b>{points}</b> àmì · {correct}/{answered} tọ̀nà · {seconds} s",
        "board_nothing": "Kò sí ìdánwò kankan tó tíì wáyé nínú ẹgbẹ́ yìí. Alábòójútó lè bẹ̀rẹ̀ ọ̀kan pẹ̀lú /groupquiz.",
        "cmd_groupquiz": "Bẹ̀rẹ̀ ìdánwò fún ẹgbẹ́ yìí (alábòójútó)",
        "cmd_stopquiz": "Dá ìdánwò tó ń lọ dúró (alábòójútó)",
        "cmd_skip": "Fi ìbéèrè yìí hàn báyìí kí ẹ tẹ̀síwájú (alábòójútó)",
        "cmd_leaderboard": "Àmì ẹgbẹ́ yìí",
        # issue 11: arguments (bot/arguments.py) and names (bot/display.py)
        "args_which_quiz": "Ìdánwò wo?",
        "args_extra": "<code>{value}</code> jẹ́ ọ̀rọ̀ kan tó pọ̀ jù.",  # yo: review
        "args_seconds": "Ìṣẹ́jú-àáyá fún ìbéèrè kọ̀ọ̀kan gbọ́dọ̀ jẹ́ odidi nọ́ńbà láti {low} sí {high}, tí a kọ pẹ̀lú àwọn díjítì 0-9; <code>{value}</code> kò rí bẹ́ẹ̀.",  # yo: review
        "args_clock_time": "<code>{value}</code> kì í ṣe àkókò: ẹ fi HH:MM ránṣẹ́ (aago wákàtí 24) pẹ̀lú àwọn díjítì 0-9, fún àpẹẹrẹ 07:30.",  # yo: review
        "args_chat": "<code>{value}</code> kì í ṣe ìjíròrò: ẹ fi @orúkọ ikanni tàbí ẹgbẹ́ ránṣẹ́, tàbí chat id bíi -1001234567890.",  # yo: review
        "no_name": "(kò ní orúkọ)",  # yo: review
        # issue 11: Telegram faults
        "group_ended_admin": (
            "⚠️ Ìdánwò ẹgbẹ́ <b>{title}</b> nínú ìbánisọ̀rọ̀ <code>{chat}</code> ti parí: "  # yo: review
            "Telegram kọ̀ láti fi ìbéèrè rẹ̀ ránṣẹ́ ({reason}). Ẹ wò ó pé mo ṣì wà nínú "  # yo: review
            "ìbánisọ̀rọ̀ náà, tí mo sì lè kọ ọ̀rọ̀ síbẹ̀, lẹ́yìn náà ẹ tún bẹ̀rẹ̀ pẹ̀lú /groupquiz."  # yo: review
        ),
        "group_gave_up_admin": (
            "⚠️ Ìdánwò ẹgbẹ́ <b>{title}</b> nínú ìbánisọ̀rọ̀ <code>{chat}</code> ti parí: "  # yo: review
            "ìbéèrè tó kàn kò ṣeé fi ránṣẹ́ lẹ́yìn ìgbìyànjú {tries} "  # yo: review
            "({reason}). Ẹ tún bẹ̀rẹ̀ pẹ̀lú /groupquiz nígbà tí Telegram bá dáhùn."  # yo: review
        ),
        "group_ended_here": "⚠️ Ìdánwò yìí ti parí: Telegram kọ ìbéèrè rẹ̀ níbí ({reason}).",  # yo: review
        "group_ended_poll": (
            "⚠️ A kò lè fi quiz poll ránṣẹ́ níbí ({reason}), nítorí náà ìdánwò yìí ti parí. "  # yo: review
            "/groupquiz {quiz_id} láìsí <code>poll</code> ń lo bọ́tìnì."  # yo: review
        ),
        "push_try_later": (
            "Telegram kò gba ìfiránṣẹ́ sí {chat} báyìí ({reason}). A kò kà á sí ohun tí a ti "  # yo: review
            "fi ránṣẹ́: ẹ wo ìbánisọ̀rọ̀ náà, kí ẹ sì tún /push lẹ́yìn ìṣẹ́jú kan."  # yo: review
        ),
        # issue 11: database safety
        "storage_lost": "Quiz Tutor kò sí lárọ̀ọ́wọ́tó fún ìgbà díẹ̀. Ẹ jọ̀wọ́ ẹ tún gbìyànjú lẹ́yìn ìṣẹ́jú kan.",  # yo: review
        "cmd_forgetme": "Pa gbogbo ohun tí a tọ́jú nípa yín rẹ́",  # yo: review
        "forget_ask": (
            "Èyí yóò pa gbogbo ohun tí Quiz Tutor tọ́jú nípa yín rẹ́: àwọn ìdáhùn yín, àmì àti "
            "ìlọsíwájú yín, ètò àtúnyẹ̀wò yín, ìránnilétí yín, èdè àti àkókò agbègbè yín. Nínú "
            "ìdánwò ẹgbẹ́, àmì yín yóò wà síbẹ̀, pẹ̀lú “(ti parẹ́)” dípò orúkọ yín; ìdáhùn sí "
            "ìbéèrè ẹgbẹ́ tí ó ṣì ṣí sílẹ̀ yóò di àìlórúkọ nígbà tí ó bá parí (ìbéèrè ìdánwò "
            "láàárín ìṣẹ́jú 10, ìbéèrè tí a fi ránṣẹ́ pẹ̀lú èyí tó kàn tàbí láàárín ọjọ́ 7). "
            "Kò ṣeé dá padà."
        ),  # yo: review
        "forget_confirm": "Pa data mi rẹ́",  # yo: review
        "forget_cancel": "Fagilé",  # yo: review
        "forget_done": (
            "A ti pa data yín rẹ́ (ìdáhùn sí ìbéèrè ẹgbẹ́ tí ó ṣì ṣí sílẹ̀: nígbà tí ó bá parí). "
            "Tí ẹ bá tún kọ̀wé sí mi, màá bẹ̀rẹ̀ àkọsílẹ̀ tuntun, òfìfo."
        ),  # yo: review
        "forget_kept": "Kò sí ohun tí a pa rẹ́.",  # yo: review
        "forget_expired": "Ìbéèrè yìí ti kọjá àkókò: ẹ tún fi /forgetme ránṣẹ́.",  # yo: review
        "deleted_learner": "(ti parẹ́)",  # yo: review
        # issue 11: import and preview
        "and_more": "… àti {n} míì",  # yo: review
        "import_errors_more": "… àti {n} míì: gbogbo àṣìṣe wà nínú fáìlì tí a so mọ́ ọn.",  # yo: review
        "import_errors_file": "Gbogbo àṣìṣe {file} ({n}), ọ̀kan lórí ìlà kọ̀ọ̀kan.",  # yo: review
        # teachers
        "button_missed": "📚 Ṣe àtúnyẹ̀wò ohun tí o pàdánù",  # yo: review
        "missed_intro": "📚 <b>{title}</b>: ìbéèrè {n} tí o pàdánù nínú ẹgbẹ́, nísinsìnyí.",  # yo: review
        "missed_none": "🎉 O gba gbogbo ìbéèrè <b>{title}</b> ní ẹ̀tọ́ nínú ẹgbẹ́: kò sí nǹkan láti tún wò!",  # yo: review
        "missed_not_member": "Ẹ má bínú, àtúnyẹ̀wò yìí wà fún àwọn ọmọ ẹgbẹ́ tí ìdánwò náà ti wáyé. Kò sí ohun tí a ṣe.",  # yo: review
        "missed_running": "Ìdánwò náà ṣì ń lọ nínú ẹgbẹ́: àtúnyẹ̀wò rẹ yóò ṣí nígbà tí ó bá parí.",  # yo: review
        "member_check_failed": "Mi ò lè ṣàyẹ̀wò ìyẹn pẹ̀lú Telegram báyìí. Ẹ jọ̀wọ́ tẹ ìjápọ̀ náà lẹ́ẹ̀kan sí i láìpẹ́.",  # yo: review
        "report_title": "📊 <b>{title}</b>: ìjábọ̀",  # yo: review
        "report_participants": "👥 Olùkópa {n}",  # yo: review
        "report_average": "Ìpíndọ́gba: máàkì {points}, {right} nínú {n} tọ̀nà",  # yo: review
        "report_hardest": "Èyí tó le jù: ìbéèrè {k}, {right} nínú {answered} tọ̀nà: {text}",  # yo: review
        "report_nothing": "Kò sí ìdánwò ẹgbẹ́ kankan tí a ti ṣe níbí: ẹ bẹ̀rẹ̀ ọ̀kan pẹ̀lú /groupquiz.",  # yo: review
        "report_sent_privately": "📬 Mo ti fi ìjábọ̀ náà ránṣẹ́ sí yín ní ìkọ̀kọ̀.",  # yo: review
        "report_start_first": "Mi ò tíì lè kọ̀wé sí yín ní ìkọ̀kọ̀: ẹ tẹ bọ́tìnì ìsàlẹ̀, lẹ́yìn náà Start, ìjábọ̀ yóò sì dé ọ̀dọ̀ yín níbẹ̀.",  # yo: review
        "report_anonymous": "Àwọn alábòójútó àìlórúkọ kò ní ìjíròrò ìkọ̀kọ̀ pẹ̀lú mi: alábòójútó kan tẹ bọ́tìnì ìsàlẹ̀ láti gba ìjábọ̀ náà ní ìkọ̀kọ̀.",  # yo: review
        "button_report_private": "📥 Gba ìjábọ̀ ní ìkọ̀kọ̀",  # yo: review
        "report_admins_only": "Ẹ má bínú, ìjábọ̀ yẹn wà fún àwọn alábòójútó ẹgbẹ́. Kò sí ohun tí a fi ránṣẹ́.",  # yo: review
        "report_no_attempts": "Kò sí ẹni tí ó tíì parí <b>{title}</b>: kò sí nǹkan láti jábọ̀.",  # yo: review
        "report_quiz_caption": "📊 {title}: ìgbìyànjú ìkẹyìn akẹ́kọ̀ọ́ kọ̀ọ̀kan ({n})",  # yo: review
        "usage_report": "Ẹ fi <code>/report &lt;quiz id&gt; [csv|xlsx]</code> ránṣẹ́, fún àpẹẹrẹ <code>/report {example}</code>.",  # yo: review
        "args_report_format": "Ọ̀nà rẹ̀ ni <code>csv</code> tàbí <code>xlsx</code>, kì í ṣe {value}.",  # yo: review
        "cmd_report": "Ìjábọ̀ ìdánwò ìkẹyìn (alábòójútó)",  # yo: review
        "homework_post": "📝 <b>Iṣẹ́ àṣetiléwá #{number}: {title}</b> · ìbéèrè {n}\n⏰ Gbèdéke: {deadline}\nẸ ṣe é ní ìkọ̀kọ̀: ìgbìyànjú àkọ́kọ́ tí ẹ parí ṣáájú gbèdéke ni yóò kà.\n\n✅ {done} ti parí",  # yo: review
        "homework_post_closed": "📝 <b>Iṣẹ́ àṣetiléwá #{number}: {title}</b>\n⏰ Ó ti parí ní {deadline}\n\n✅ {done} ti parí",  # yo: review
        "homework_post_cancelled": "📝 <b>Iṣẹ́ àṣetiléwá #{number}: {title}</b>\n🚫 A ti fagilé e.",  # yo: review
        "button_homework_start": "▶️ Bẹ̀rẹ̀ ní ìkọ̀kọ̀",  # yo: review
        "homework_results": "🏁 <b>Iṣẹ́ àṣetiléwá #{number}: {title}</b>: èsì",  # yo: review
        "homework_nobody_done": "Kò sí ẹni tí ó parí i lásìkò.",  # yo: review
        "homework_unfinished": "Wọ́n bẹ̀rẹ̀ ṣùgbọ́n wọn kò parí lásìkò: {n}",  # yo: review
        "homework_none_open": "Kò sí iṣẹ́ àṣetiléwá tí ó ṣí níbí. Alábòójútó kan lè fi /assign ṣètò ọ̀kan.",  # yo: review
        "homework_list_title": "📝 <b>Iṣẹ́ àṣetiléwá tí ó ṣí</b>",  # yo: review
        "homework_list_line": "#{number} {title} · títí {deadline} · ✅ {done} ti parí",  # yo: review
        "homework_intro": "📝 <b>Iṣẹ́ àṣetiléwá: {title}</b>\n⏰ Gbèdéke: {deadline}. Ìgbìyànjú àkọ́kọ́ tí ẹ parí ṣáájú ìgbà náà ni yóò kà.",  # yo: review
        "homework_handed_in": "✅ Ẹ ti fi <b>{title}</b> lélẹ̀: {score}/{total}. Èsì yóò dé inú ẹgbẹ́ ní gbèdéke.",  # yo: review
        "homework_closed": "Iṣẹ́ àṣetiléwá yìí ti parí: èsì rẹ̀ wà nínú ẹgbẹ́.",  # yo: review
        "homework_cancelled": "Àwọn alábòójútó ẹgbẹ́ ti fagilé iṣẹ́ àṣetiléwá yìí.",  # yo: review
        "homework_not_member": "Ẹ má bínú, iṣẹ́ àṣetiléwá yìí wà fún àwọn ọmọ ẹgbẹ́ tí ó ṣètò rẹ̀. Kò sí ohun tí a ṣe.",  # yo: review
        "homework_reminder": "⏰ Wákàtí kan ló kù fún iṣẹ́ àṣetiléwá yín <b>{title}</b> (gbèdéke {deadline}). Ẹ tẹ̀síwájú pẹ̀lú <code>/quiz {quiz_id}</code>.",  # yo: review
        "homework_unassigned": "🚫 A ti fagilé iṣẹ́ àṣetiléwá #{number}.",  # yo: review
        "homework_unknown": "Kò sí iṣẹ́ àṣetiléwá #{number} tí ó ṣí nínú ìjíròrò yìí. /assignments ṣe àkójọ wọn.",  # yo: review
        "deadline_unreadable": "Mi ò lè ka {value} gẹ́gẹ́ bí gbèdéke.",  # yo: review
        "deadline_past": "{value} kò sí ní ọjọ́ iwájú.",  # yo: review
        "deadline_too_soon": "{value} ti yá jù: gbèdéke gbọ́dọ̀ jẹ́ ó kéré tán ìṣẹ́jú kan.",  # yo: review
        "group_timezone_set": "Àkókò agbègbè ẹgbẹ́ yìí ni {timezone} báyìí: a ó máa ka gbèdéke iṣẹ́ àṣetiléwá nínú rẹ̀.",  # yo: review
        "cmd_assign": "Iṣẹ́ àṣetiléwá pẹ̀lú gbèdéke (alábòójútó)",  # yo: review
        "cmd_assignments": "Iṣẹ́ àṣetiléwá tí ó ṣí",  # yo: review
        "cmd_unassign": "Fagilé iṣẹ́ àṣetiléwá (alábòójútó)",  # yo: review
        "chart_answers_title": "Ìdáhùn lójoojúmọ́, ọjọ́ 30 sẹ́yìn",  # yo: review
        "chart_right": "ó tọ̀nà",  # yo: review
        "chart_wrong": "kò tọ̀nà",  # yo: review
        "chart_mastery_title": "Ohun tí o mọ̀ dájú nínú ìdánwò kọ̀ọ̀kan",  # yo: review
        "chart_progress_alt": "📊 Àwòrán. Ìdáhùn ní ọjọ́ 30 sẹ́yìn: {right} tọ̀nà, {wrong} kò tọ̀nà, ní ọjọ́ {days}. Mímọ̀ dájú: {mastery}.",  # yo: review
        "chart_stats_title": "{title}: ìdáhùn tó tọ̀nà fún ìbéèrè kọ̀ọ̀kan",  # yo: review
        "chart_scores_title": "Máàkì ọmọ ẹgbẹ́ kọ̀ọ̀kan",  # yo: review
        "chart_points": "máàkì",  # yo: review
        "chart_members": "ọmọ ẹgbẹ́",  # yo: review
        "homework_line": "{place} {name}: {score}/{total} · ìṣẹ́jú-àáyá {seconds}",  # yo: review
        "homework_report_caption": "📝 Iṣẹ́ àṣetiléwá #{number}: {title}: ọmọ ẹgbẹ́ {n} ló ṣí i",  # yo: review
        "homework_report_offer": "Alábòójútó ẹgbẹ́ kan tẹ bọ́tìnì ìsàlẹ̀ láti gba ìjábọ̀ iṣẹ́ àṣetiléwá náà ní ìkọ̀kọ̀.",  # yo: review
        "homework_groups_only": "Inú ẹgbẹ́ ni a ti ń ṣètò iṣẹ́ àṣetiléwá: ẹ fi /assign ránṣẹ́ níbẹ̀.",  # yo: review
        "usage_assign": "Ẹ fi <code>/assign &lt;quiz id&gt; &lt;deadline&gt;</code> ránṣẹ́: àkókò bí <code>90m</code>, <code>2h</code>, <code>3d</code>, tàbí ọjọ́ àti àkókò <code>YYYY-MM-DD HH:MM</code> ({timezone}; alábòójútó lè yí i padà pẹ̀lú /timezone). Fún àpẹẹrẹ <code>/assign {example} 2d</code>.",  # yo: review
        "usage_unassign": "Ẹ fi <code>/unassign &lt;nọ́mbà&gt;</code> ránṣẹ́; /assignments ṣe àkójọ iṣẹ́ àṣetiléwá tí ó ṣí.",  # yo: review
        "args_assignment": "Nọ́mbà iṣẹ́ àṣetiléwá ni a ń kọ pẹ̀lú àwọn nọ́mbà 0-9; {value} kì í ṣe ọ̀kan.",  # yo: review
        "deadline_missing": "Gbèdéke wo?",  # yo: review
        "deadline_too_far": "{value} ti jìnnà jù: ọdún kan ni ó pọ̀ jù.",  # yo: review
        "deadline_no_such_time": "{value} kò sí ní agbègbè àkókò yìí (aago ń yípadà nígbà náà).",  # yo: review
        "chart_stats_alt": "📊 Àwòrán: ìpín ìdáhùn tó tọ̀nà fún ìbéèrè kọ̀ọ̀kan, èyí tó le jù ní àkọ́kọ́. {hardest}",  # yo: review
        "chart_stats_quiz": "{title}: èyí tó le jù ni ìbéèrè {k}, {percent}% tọ̀nà.",  # yo: review
        "chart_scores_alt": "📊 Àwòrán: iye ọmọ ẹgbẹ́ tí ó gba iye máàkì kọ̀ọ̀kan. Ọmọ ẹgbẹ́ {n}, láti {low} dé {high} máàkì.",  # yo: review
        "group_language_set": "Èdè ẹgbẹ́ yìí ni {language} báyìí: inú rẹ̀ ni màá máa kọ̀wé níbí. Ìdáhùn ọmọ ẹgbẹ́ kọ̀ọ̀kan yóò wà ní èdè tirẹ̀.",  # yo: review
        "usage_group_language": "Ẹ fi <code>/language &lt;code&gt;</code> ránṣẹ́, ọ̀kan nínú {choices}. Báyìí: {language}.",  # yo: review
        "args_language": "{value} kì í ṣe ọ̀kan nínú àwọn èdè: {choices}.",  # yo: review
        "group_skipped": "A fo ìbéèrè {n} ti ìdánwò yìí níbí: a máa ń kọ ìdáhùn wọn (nọ́ńbà tàbí ọ̀rọ̀), gbogbo ènìyàn ibí yóò sì rí ìdáhùn náà. Ẹ ṣe ìdánwò náà pẹ̀lú mi ní ìkọ̀kọ̀ láti rí wọn.",  # yo: review
        "group_nothing_playable": "Ẹgbẹ́ kò lè ṣe ìbéèrè kankan ti <code>{quiz_id}</code> síbẹ̀: ẹ ṣe é pẹ̀lú mi ní ìkọ̀kọ̀.",  # yo: review
        "push_nothing_playable": "A kò lè fi ìbéèrè kankan ti <code>{quiz_id}</code> ránṣẹ́ sí ẹgbẹ́ síbẹ̀: ẹgbẹ́ kò lè ṣe irú wọn.",  # yo: review
        # issue 14: question types, code and pictures (learner side)
        "true": "Òótọ́",
        "false": "Irọ́",
        "hint_multiple": "Ẹ yan gbogbo ìdáhùn tó tọ̀nà, lẹ́yìn náà ẹ tẹ ✅ Fi ránṣẹ́.",  # yo: review
        "hint_number": "Ẹ fi nọ́ńbà kan dáhùn.",  # yo: review
        "hint_number_unit": "Ẹ fi nọ́ńbà kan dáhùn (ní {unit}).",  # yo: review
        "hint_typed": "Ẹ kọ ìdáhùn yín ránṣẹ́.",  # yo: review
        "button_submit": "✅ Fi ránṣẹ́",  # yo: review
        "pick_first": "Ẹ kọ́kọ́ yan ìdáhùn kan ó kéré tán.",  # yo: review
        "picked_toast": "Ohun tí ẹ yàn: {letters}",  # yo: review
        "picked_none": "Ẹ kò tíì yan nǹkan kan.",  # yo: review
        "mark_missed": "ẹ fò ó",  # yo: review
        "partial_toast": "🟡 Ó tọ̀nà díẹ̀: {score}.",  # yo: review
        "wrong_options_toast": "❌ Kò tọ̀nà. Àwọn ìdáhùn tó tọ̀nà ni {letters}.",  # yo: review
        "reveal_partial": "🟡 <b>Ó tọ̀nà díẹ̀</b> ({score}). Àwọn ìdáhùn tó tọ̀nà ni <b>{letters}</b>.",  # yo: review
        "reveal_wrong_options": "❌ <b>Kò tọ̀nà.</b> Àwọn ìdáhùn tó tọ̀nà ni <b>{letters}</b>.",  # yo: review
        "reveal_wrong_value": "❌ <b>Kò tọ̀nà.</b> Ìdáhùn tó tọ̀nà ni <b>{answer}</b>.",
        "reveal_wrong_number": "❌ <b>Kò tọ̀nà.</b> Ìdáhùn náà ni <b>{answer}</b>.",  # yo: review
        "reveal_wrong_typed": "❌ <b>Kò tọ̀nà.</b> Àwọn ìdáhùn tí a gbà: {accepted}.",  # yo: review
        "your_reply": "Ìdáhùn yín: {reply}",
        "within_tolerance": "{answer} (± {tolerance})",
        "not_a_number": "Èyí kì í ṣe nọ́ńbà. Ẹ fi nọ́ńbà kan dáhùn, bí 14 tàbí 2.5.",  # yo: review
        "digit_grouping": "Ẹ kọ nọ́ńbà náà láìsí àmì ìpín-nọ́ńbà: {ungrouped}.",  # yo: review
        "digit_grouping_ambiguous": "Ẹ kọ {ungrouped} tàbí {as_decimal}: kọ́mà ṣáájú díjítì mẹ́ta lè jẹ́ èyíkéyìí nínú méjèèjì.",  # yo: review
        "empty_reply": "Ẹ kọ ìdáhùn yín ní ọ̀rọ̀.",  # yo: review
        "reply_not_current": "Ìbéèrè yẹn kò dúró de ìdáhùn mọ́: èsì yìí kò yí nǹkan kan padà.",  # yo: review
        "picture": "🖼 {alt}",
        "picture_no_alt": "🖼 (àwòrán kan)",  # yo: review
        "preview_multiple": "(ìdáhùn tó tọ̀nà ju ẹyọ kan lọ)",  # yo: review
        "preview_true_false": "Òótọ́ tàbí irọ́?",  # yo: review
        "preview_number": "Ìdáhùn: nọ́ńbà kan",  # yo: review
        "preview_number_unit": "Ìdáhùn: nọ́ńbà kan, ní {unit}",  # yo: review
        "preview_typed": "Ìdáhùn: ọ̀rọ̀ tí ẹ kọ",  # yo: review
        "group_hint_multiple": "Ẹ yan gbogbo ìdáhùn tó tọ̀nà: ẹ̀yin nìkan ló ń rí àṣàyàn yín. Lẹ́yìn náà ẹ tẹ ✅ Fi ìdáhùn mi ránṣẹ́.",  # yo: review
        "button_submit_mine": "✅ Fi ìdáhùn mi ránṣẹ́",  # yo: review
        "group_picked_toast": "Àṣàyàn yín: {letters} — ẹ tẹ ✅ Fi ìdáhùn mi ránṣẹ́.",  # yo: review
        "group_picked_none": "Ẹ kò tíì yan nǹkan kan: ẹ tẹ àwọn ìdáhùn tí ẹ yàn.",  # yo: review
        "group_toast_partly": "🟡 Ó tọ̀nà díẹ̀ ({score}): +{points} àmì. Ìdáhùn yín dúró.",  # yo: review
        "group_toast_wrong_options": "❌ Kò tọ̀nà. Ìdáhùn yín dúró; ìfihàn yóò fi àwọn èyí tó tọ̀nà hàn.",  # yo: review
        "group_answered_right": "👥 {count} ti dáhùn, {right} ló tọ̀nà pátápátá",  # yo: review
    },
}


def translate(language: str, key: str, /, **values: object) -> str:
    """The string `key` in `language` (or English), with `values` filled in."""
    template = STRINGS.get(language, {}).get(key) or STRINGS[FALLBACK][key]
    return template.format(**values) if values else template


def ui_languages() -> frozenset[str]:
    return frozenset(STRINGS)


def language_name(code: str) -> str:
    return LANGUAGE_NAMES.get(code, code)


@dataclass(frozen=True)
class Locale:
    """A person's language and the content's default, for field-by-field fallback."""

    language: str
    default: str

    def t(self, key: str, /, **values: object) -> str:
        return translate(self.language, key, **values)

    def plain(self, value: LocalizedText) -> str:
        """A content field in this language, as plain text (no bidi overrides)."""
        return without_overrides(value.get(self.language, self.default))

    def text(self, value: LocalizedText, limit: int) -> str:
        """A content field in this language, clipped to `limit`, escaped for HTML.

        Valid banks never need the clip; it keeps every message inside Telegram's limit
        whatever the content.
        """
        return html.escape(clip(self.plain(value), limit))

    def rich(self, value: LocalizedText, limit: int) -> str:
        """A question's, an option's or an explanation's text in this language, clipped to
        `limit`, as Telegram HTML with its code shown as code (`telegram_html.from_markup`)."""
        return from_markup(clip(self.plain(value), limit))

    def label(self, value: LocalizedText) -> str:
        """A content field as plain text with its code flattened: for buttons and polls."""
        plain = self.plain(value)
        return flatten(plain) if "`" in plain else plain
