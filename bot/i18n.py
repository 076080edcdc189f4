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
            "/progress: your scores and what to review\n"
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
        "group_usage": (
            "Which quiz? Send <code>/groupquiz &lt;id&gt; [seconds] [poll]</code>, for example "
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
        "group_usage": (
            "Ìdánwò wo? Ẹ fi <code>/groupquiz &lt;id&gt; [seconds] [poll]</code> ránṣẹ́, fún "
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
