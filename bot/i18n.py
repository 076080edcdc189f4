"""Interface strings per language; a missing string falls back to English.

Strings are HTML-safe templates: `{placeholders}` are filled with values the caller has
already escaped. Kept as plain dicts (two languages, no build step); a gettext catalogue
would be the move once translators outside the code base join.
"""

from __future__ import annotations

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
        "usage_quiz": "Which quiz? Send <code>/quiz &lt;id&gt;</code>, for example <code>/quiz {example}</code>, or pick one from /quizzes.",
        "usage_preview": "Which quiz? Send <code>/preview &lt;id&gt;</code>, for example <code>/preview {example}</code>.",
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
        "already_answered": "You already answered this question.",
        "not_your_quiz": "This is someone else's quiz. Start your own with /quizzes.",
        "quiz_finished_already": "This quiz attempt is finished. Take it again from /quizzes.",
        "quiz_gone": "This quiz is no longer available.",
        "private_only": "Quizzes for one learner run in a private chat: open {link} and send /quizzes.",
        "unknown_command": "I don't know that command. /help lists what I can do.",
        "plain_text": "I answer to commands and buttons. Try /quizzes or /help.",
        "storage_error": "Sorry, I could not save that just now. Please try again in a moment.",
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
            "one: {link}"
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
        "timezone_unknown": "I don't know the time zone <code>{timezone}</code>. Try for example <code>Africa/Lagos</code> or <code>+01:00</code>.",
        "remind_usage": "Send <code>/remind HH:MM</code> (24-hour clock, time zone {timezone}) for a daily reminder on days when reviews are due, or <code>/remind off</code>. Now: {current}.",
        "remind_set": "Every day at {time} ({timezone}) I will remind you if reviews are due.",
        "remind_off": "Reminders are off.",
        "remind_none": "off",
        "cmd_review": "Review the questions due now",
        "cmd_timezone": "Set your time zone",
        "cmd_remind": "Daily reminder: /remind HH:MM or off",
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
        "already_answered": "Ẹ ti dáhùn ìbéèrè yìí.",
        "not_your_quiz": "Ìdánwò ẹlòmíràn nìyí. Ẹ bẹ̀rẹ̀ tiyín pẹ̀lú /quizzes.",
        "quiz_finished_already": "Ìdánwò yìí ti parí. Ẹ tún un ṣe láti /quizzes.",
        "quiz_gone": "Ìdánwò yìí kò sí mọ́.",
        "unknown_command": "Mi ò mọ àṣẹ yẹn. /help máa fi ohun tí mo lè ṣe hàn.",
        "plain_text": "Mo ń dáhùn sí àwọn àṣẹ àti bọ́tìnì. Ẹ gbìyànjú /quizzes tàbí /help.",
        "storage_error": "Ẹ pẹ̀lẹ́, mi ò lè fi pamọ́ báyìí. Ẹ tún gbìyànjú láìpẹ́.",
        "button_start": "▶️ {title}",
        "button_continue": "⏯ {title} ({answered}/{total})",
        "usage_quiz": (
            "Ìdánwò wo? Ẹ fi <code>/quiz &lt;id&gt;</code> ránṣẹ́, fún àpẹẹrẹ "
            "<code>/quiz {example}</code>, tàbí ẹ yan ọ̀kan láti /quizzes."
        ),
        "usage_preview": (
            "Ìdánwò wo? Ẹ fi <code>/preview &lt;id&gt;</code> ránṣẹ́, fún àpẹẹrẹ "
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
            "ṣe ọ̀kan: {link}"
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
        "timezone_unknown": "Mi ò mọ agbègbè àkókò <code>{timezone}</code>. Ẹ gbìyànjú <code>Africa/Lagos</code> tàbí <code>+01:00</code>.",
        "remind_usage": "Ẹ fi <code>/remind HH:MM</code> ránṣẹ́ (agbègbè àkókò {timezone}) fún ìránnilétí ojoojúmọ́, tàbí <code>/remind off</code>. Báyìí: {current}.",
        "remind_set": "Lójoojúmọ́ ní {time} ({timezone}) màá rán yín létí tí àtúnyẹ̀wò bá wà.",
        "remind_off": "Ìránnilétí ti dúró.",
        "remind_none": "kò sí",
        "cmd_review": "Tún àwọn ìbéèrè tó yẹ wò",
        "cmd_timezone": "Yan agbègbè àkókò yín",
        "cmd_remind": "Ìránnilétí ojoojúmọ́: /remind HH:MM tàbí off",
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
