"""Schema migrations, applied in order; `PRAGMA user_version` records how many have run.

Each migration is a tuple of SQL statements, one statement per item, that `Database` runs in
one transaction together with the `user_version` it sets: all of it, or none of it.

Why one statement per item rather than a script: `sqlite3.executescript` commits the open
transaction before it starts, so a script cannot run inside the migration's transaction; and
splitting a script on `;` breaks on a `;` inside a string literal or a trigger's body. An item
that holds two statements is refused by `sqlite3` itself ("You can only execute one statement
at a time"), so a slip fails the first test run instead of being half applied.

Rules: never edit a migration that has been released (databases in use ran it as it was);
add the next one at the end. A migration that moves data says, in SQL, where every row goes,
and tests/storage/test_upgrade.py upgrades a database holding rows of every version.
"""

from __future__ import annotations

Migration = tuple[str, ...]

# The columns of `answers` as 1 created them; 2 rebuilds the table with the same columns and a
# wider unique key (the text is the SQL each migration has always run, to the character).
_ANSWER_COLUMNS = """\
            id INTEGER PRIMARY KEY,
            attempt_id INTEGER NOT NULL REFERENCES attempts(id),
            user_id INTEGER NOT NULL,
            quiz_id TEXT NOT NULL,
            question_id TEXT NOT NULL,
            chosen INTEGER NOT NULL,
            correct INTEGER NOT NULL,
            answered_at REAL NOT NULL,"""

# The columns of `review_log` as 2 created them, before the answer it came from; 10 rebuilds
# the table with them, naming a private answer or a group answer.
_REVIEW_COLUMNS = """\
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL,
            quiz_id TEXT NOT NULL,
            question_id TEXT NOT NULL,
            rating INTEGER NOT NULL,
            reviewed_at REAL NOT NULL,"""


def _review_log(table: str, answers: str) -> str:
    """`review_log` as 10 made it, naming a private answer of `answers` or a group answer;
    13 makes it again, naming the rebuilt answers."""
    return f"""CREATE TABLE {table} (
{_REVIEW_COLUMNS}
            answer_id INTEGER REFERENCES {answers}(id),
            session_id INTEGER,
            position INTEGER,
            CHECK ((answer_id IS NULL) = (session_id IS NOT NULL)),
            CHECK ((session_id IS NULL) = (position IS NULL))
        )"""


MIGRATIONS: tuple[Migration, ...] = (
    # 1: learners, attempts and their answers
    (
        """CREATE TABLE users (
            user_id INTEGER PRIMARY KEY,
            first_name TEXT NOT NULL DEFAULT '',
            telegram_language TEXT,
            language TEXT,
            active INTEGER NOT NULL DEFAULT 1,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        )""",
        """CREATE TABLE attempts (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users(user_id),
            quiz_id TEXT NOT NULL,
            question_ids TEXT NOT NULL,
            total INTEGER NOT NULL,
            started_at REAL NOT NULL,
            finished_at REAL,
            score INTEGER
        )""",
        """CREATE UNIQUE INDEX attempts_one_running ON attempts(user_id, quiz_id)
            WHERE finished_at IS NULL""",
        "CREATE INDEX attempts_by_user ON attempts(user_id, quiz_id, finished_at)",
        f"""CREATE TABLE answers (
{_ANSWER_COLUMNS}
            UNIQUE (attempt_id, question_id)
        )""",
        """CREATE INDEX answers_by_user_question
            ON answers(user_id, quiz_id, question_id, answered_at)""",
    ),
    # 2: the tutor: spaced-repetition cards and their log, review sessions, time zones, reminders
    (
        "ALTER TABLE attempts ADD COLUMN kind TEXT NOT NULL DEFAULT 'quiz'",
        "ALTER TABLE users ADD COLUMN timezone TEXT",
        "ALTER TABLE users ADD COLUMN remind_at TEXT",
        "ALTER TABLE users ADD COLUMN last_reminded TEXT",
        "CREATE INDEX users_with_reminders ON users(remind_at) WHERE remind_at IS NOT NULL",
        """CREATE TABLE cards (
            user_id INTEGER NOT NULL REFERENCES users(user_id),
            quiz_id TEXT NOT NULL,
            question_id TEXT NOT NULL,
            card TEXT NOT NULL,
            due REAL NOT NULL,
            last_review REAL,
            PRIMARY KEY (user_id, quiz_id, question_id)
        )""",
        "CREATE INDEX cards_due ON cards(user_id, due)",
        # a review session mixes quizzes: an answer is unique per (attempt, quiz, question)
        f"""CREATE TABLE answers_v2 (
{_ANSWER_COLUMNS}
            UNIQUE (attempt_id, quiz_id, question_id)
        )""",
        """INSERT INTO answers_v2 SELECT id, attempt_id, user_id, quiz_id, question_id, chosen,
            correct, answered_at FROM answers""",
        "DROP TABLE answers",
        "ALTER TABLE answers_v2 RENAME TO answers",
        """CREATE INDEX answers_by_user_question
            ON answers(user_id, quiz_id, question_id, answered_at)""",
        f"""CREATE TABLE review_log (
{_REVIEW_COLUMNS}
            answer_id INTEGER NOT NULL REFERENCES answers(id)
        )""",
        "CREATE INDEX answers_by_user_time ON answers(user_id, answered_at)",
    ),
    # 3: admin content: banks changed through the bot, retired questions, posted questions and
    # their answers (moved into group sessions by 6), push schedules, and the audit log
    (
        """CREATE TABLE content_banks (
            quiz_id TEXT PRIMARY KEY,
            yaml TEXT NOT NULL,
            updated_at REAL NOT NULL,
            updated_by INTEGER NOT NULL
        )""",
        """CREATE TABLE retired_questions (
            quiz_id TEXT NOT NULL,
            question_id TEXT NOT NULL,
            text TEXT NOT NULL,
            retired_at REAL NOT NULL,
            retired_by INTEGER NOT NULL,
            PRIMARY KEY (quiz_id, question_id)
        )""",
        """CREATE TABLE posts (
            id INTEGER PRIMARY KEY,
            chat_id INTEGER NOT NULL,
            quiz_id TEXT NOT NULL,
            question_id TEXT NOT NULL,
            message_id INTEGER,
            posted_at REAL NOT NULL,
            posted_by INTEGER NOT NULL,
            revealed_at REAL,
            UNIQUE (chat_id, quiz_id, question_id)
        )""",
        """CREATE TABLE post_answers (
            post_id INTEGER NOT NULL REFERENCES posts(id),
            user_id INTEGER NOT NULL,
            chosen INTEGER NOT NULL,
            correct INTEGER NOT NULL,
            answered_at REAL NOT NULL,
            PRIMARY KEY (post_id, user_id)
        )""",
        """CREATE TABLE push_schedules (
            id INTEGER PRIMARY KEY,
            quiz_id TEXT NOT NULL,
            chat TEXT NOT NULL,
            minute_of_day INTEGER NOT NULL,
            created_at REAL NOT NULL,
            created_by INTEGER NOT NULL,
            UNIQUE (quiz_id, chat)
        )""",
        """CREATE TABLE audit_log (
            id INTEGER PRIMARY KEY,
            at REAL NOT NULL,
            admin_id INTEGER NOT NULL,
            action TEXT NOT NULL,
            quiz_id TEXT,
            detail TEXT NOT NULL DEFAULT ''
        )""",
    ),
    # 4: group and channel quizzes: one running session per chat, its questions, its answers
    (
        """CREATE TABLE group_sessions (
            id INTEGER PRIMARY KEY,
            chat_id INTEGER NOT NULL,
            chat_type TEXT NOT NULL,
            quiz_id TEXT NOT NULL,
            question_ids TEXT NOT NULL,
            seconds INTEGER NOT NULL,
            mode TEXT NOT NULL CHECK (mode IN ('buttons', 'poll')),
            language TEXT NOT NULL,
            started_by INTEGER,
            started_at REAL NOT NULL,
            position INTEGER NOT NULL DEFAULT 0,
            finished_at REAL,
            outcome TEXT
        )""",
        """CREATE UNIQUE INDEX group_sessions_one_running ON group_sessions(chat_id)
            WHERE finished_at IS NULL""",
        "CREATE INDEX group_sessions_by_chat ON group_sessions(chat_id, started_at)",
        """CREATE TABLE group_questions (
            session_id INTEGER NOT NULL REFERENCES group_sessions(id),
            position INTEGER NOT NULL,
            question_id TEXT NOT NULL,
            message_id INTEGER NOT NULL,
            poll_id TEXT UNIQUE,
            asked_at REAL NOT NULL,
            deadline REAL NOT NULL,
            revealed_at REAL,
            PRIMARY KEY (session_id, position)
        )""",
        """CREATE TABLE group_answers (
            session_id INTEGER NOT NULL REFERENCES group_sessions(id),
            position INTEGER NOT NULL,
            question_id TEXT NOT NULL,
            user_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            chosen INTEGER NOT NULL,
            correct INTEGER NOT NULL,
            elapsed REAL NOT NULL,
            points INTEGER NOT NULL,
            answered_at REAL NOT NULL,
            PRIMARY KEY (session_id, position, user_id)
        )""",
    ),
    # 5: a leaderboard shows each member's latest name; without this index that lookup
    # scanned every group answer once per member (15 s for 800,000 answers; bench/queries.py)
    ("CREATE INDEX group_answers_by_user ON group_answers(user_id, answered_at)",),
    # 6: a posted question (/push, /schedule) is a group session of kind 'post': one question,
    # no timer (its deadline is +infinity), revealed by the next push. Its buttons carry its
    # post number (`adp:<post_id>:<option>`), so each post keeps the number it had as a row of
    # `posts`, and old messages stay answerable. The one-running-session rule is for timed
    # quizzes only: open posts never block /groupquiz.
    (
        """ALTER TABLE group_sessions ADD COLUMN kind TEXT NOT NULL DEFAULT 'timed'
            CHECK (kind IN ('timed', 'post'))""",
        """ALTER TABLE group_sessions ADD COLUMN post_id INTEGER
            CHECK ((post_id IS NULL) = (kind = 'timed'))""",
        "DROP INDEX group_sessions_one_running",
        """CREATE UNIQUE INDEX group_sessions_one_running ON group_sessions(chat_id)
            WHERE finished_at IS NULL AND kind = 'timed'""",
        """CREATE UNIQUE INDEX group_sessions_by_post ON group_sessions(post_id)
            WHERE post_id IS NOT NULL""",
        # a question is posted into a chat once (question_ids holds the one id, as JSON)
        """CREATE UNIQUE INDEX group_sessions_posted_once
            ON group_sessions(chat_id, quiz_id, question_ids) WHERE kind = 'post'""",
        # every post: its chat type was never recorded (''), nor its language ('': the bot's
        # default, which is what posts are drawn in); posted_by 0 was "no admin" (a schedule)
        """INSERT INTO group_sessions (chat_id, chat_type, quiz_id, question_ids, seconds, mode,
                language, started_by, started_at, position, finished_at, outcome, kind, post_id)
            SELECT chat_id, '', quiz_id, json_array(question_id), 0, 'buttons', '',
                NULLIF(posted_by, 0), posted_at,
                CASE WHEN revealed_at IS NULL THEN 0 ELSE 1 END, revealed_at,
                CASE WHEN revealed_at IS NULL THEN NULL ELSE 'finished' END, 'post', id
            FROM posts ORDER BY id""",
        # its message, where one was sent (a post whose send failed has none, nor answers)
        """INSERT INTO group_questions (session_id, position, question_id, message_id, poll_id,
                asked_at, deadline, revealed_at)
            SELECT s.id, 0, p.question_id, p.message_id, NULL, p.posted_at, 9e999, p.revealed_at
            FROM posts p JOIN group_sessions s ON s.post_id = p.id
            WHERE p.message_id IS NOT NULL""",
        # its answers, worth no points; named like the member's other group answers (a
        # leaderboard shows the latest name a member answered under)
        """INSERT INTO group_answers (session_id, position, question_id, user_id, name, chosen,
                correct, elapsed, points, answered_at)
            SELECT s.id, 0, p.question_id, a.user_id,
                COALESCE(
                    (SELECT b.name FROM group_answers b WHERE b.user_id = a.user_id
                     ORDER BY b.answered_at DESC LIMIT 1),
                    (SELECT u.first_name FROM users u WHERE u.user_id = a.user_id),
                    ''),
                a.chosen, a.correct, MAX(a.answered_at - p.posted_at, 0), 0, a.answered_at
            FROM post_answers a JOIN posts p ON p.id = a.post_id
            JOIN group_sessions s ON s.post_id = p.id
            ORDER BY a.post_id, a.answered_at""",
        "DROP TABLE post_answers",
        "DROP TABLE posts",
    ),
    # 7: /forgetme during an open question: the answer keeps the member's id (so that they
    # cannot answer again) until the question closes, and then takes the placeholder kept in
    # `forgotten_as` (storage/held_answers.py). NULL: an answer not held, as every answer was.
    (
        "ALTER TABLE group_answers ADD COLUMN forgotten_as INTEGER CHECK (forgotten_as < 0)",
        """CREATE INDEX group_answers_held ON group_answers(forgotten_as)
            WHERE forgotten_as IS NOT NULL""",
    ),
    # 8: teachers: a group's own time zone and language; homework (an assignment posted into
    # a group, taken in private by deep link, closed at its deadline) and the attempts tagged
    # to it, one per member
    (
        """CREATE TABLE chat_settings (
            chat_id INTEGER PRIMARY KEY,
            timezone TEXT,
            language TEXT,
            updated_at REAL NOT NULL
        )""",
        """CREATE TABLE assignments (
            id INTEGER PRIMARY KEY,
            chat_id INTEGER NOT NULL,
            thread_id INTEGER,
            quiz_id TEXT NOT NULL,
            deadline REAL NOT NULL,
            language TEXT NOT NULL,
            timezone TEXT NOT NULL,
            created_by INTEGER,
            created_at REAL NOT NULL,
            message_id INTEGER,
            shown_done INTEGER NOT NULL DEFAULT 0,
            reminded_at REAL,
            closed_at REAL,
            outcome TEXT CHECK (outcome IN ('finished', 'cancelled'))
        )""",
        "CREATE INDEX assignments_open ON assignments(chat_id) WHERE closed_at IS NULL",
        """CREATE TABLE homework_attempts (
            assignment_id INTEGER NOT NULL REFERENCES assignments(id),
            user_id INTEGER NOT NULL,
            attempt_id INTEGER NOT NULL REFERENCES attempts(id),
            opened_at REAL NOT NULL,
            PRIMARY KEY (assignment_id, user_id)
        )""",
        "CREATE INDEX homework_attempts_by_attempt ON homework_attempts(attempt_id)",
        # forum topics: a group quiz runs in the topic where it was started, one per topic
        # (NULL: the General topic, or a group without topics)
        "ALTER TABLE group_sessions ADD COLUMN thread_id INTEGER",
        "DROP INDEX group_sessions_one_running",
        """CREATE UNIQUE INDEX group_sessions_one_running
            ON group_sessions(chat_id, COALESCE(thread_id, 0))
            WHERE finished_at IS NULL AND kind = 'timed'""",
    ),
    # 9: question types (issue 14), in private chats. An answer's credit (0 to 1: a multiple
    # question's partial credit; NULL, as every older answer has, means `correct`) and its
    # typed reply (numeric and typed questions; NULL for a tap). A multiple question's
    # selection while it is being made, and the question a learner's next text message
    # answers: both go with their attempt. Telegram's file_id of each picture the bot has
    # uploaded, per bot (a file_id is valid for the bot that got it only).
    (
        "ALTER TABLE answers ADD COLUMN credit REAL CHECK (credit BETWEEN 0 AND 1)",
        "ALTER TABLE answers ADD COLUMN reply TEXT",
        """CREATE TABLE picks (
            attempt_id INTEGER NOT NULL REFERENCES attempts(id) ON DELETE CASCADE,
            item TEXT NOT NULL,
            options INTEGER NOT NULL DEFAULT 0 CHECK (options >= 0),
            updated_at REAL NOT NULL,
            PRIMARY KEY (attempt_id, item)
        )""",
        """CREATE TABLE awaited_replies (
            user_id INTEGER PRIMARY KEY,
            attempt_id INTEGER NOT NULL REFERENCES attempts(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            message_id INTEGER NOT NULL,
            photo_message_id INTEGER,
            asked_at REAL NOT NULL
        )""",
        "CREATE INDEX awaited_replies_by_attempt ON awaited_replies(attempt_id)",
        """CREATE TABLE photo_file_ids (
            bot_id INTEGER NOT NULL,
            sha256 TEXT NOT NULL,
            file_id TEXT NOT NULL,
            stored_at REAL NOT NULL,
            PRIMARY KEY (bot_id, sha256)
        )""",
    ),
    # 10: a group answer is a review of its member's card too (storage/card_reviews.py): the
    # review log names the answer it came from, a private answer (answer_id) or a group answer
    # (session_id, position), exactly one of them
    (
        _review_log("review_log_v2", "answers"),
        """INSERT INTO review_log_v2 (id, user_id, quiz_id, question_id, rating, reviewed_at,
                answer_id)
            SELECT id, user_id, quiz_id, question_id, rating, reviewed_at, answer_id
            FROM review_log""",
        "DROP TABLE review_log",
        "ALTER TABLE review_log_v2 RENAME TO review_log",
    ),
    # 11: pictures of banks that came through /import (or were changed through the bot),
    # kept in SQLite: one row per distinct file, found by its SHA-256 and shared by every
    # bank that names it; each bank's names for them. A file no bank names is deleted in the
    # transaction that stops naming it.
    (
        """CREATE TABLE pictures (
            sha256 TEXT PRIMARY KEY,
            data BLOB NOT NULL,
            size INTEGER NOT NULL CHECK (size = length(data)),
            stored_at REAL NOT NULL
        )""",
        """CREATE TABLE bank_pictures (
            quiz_id TEXT NOT NULL REFERENCES content_banks(quiz_id) ON DELETE CASCADE,
            location TEXT NOT NULL,
            sha256 TEXT NOT NULL REFERENCES pictures(sha256),
            PRIMARY KEY (quiz_id, location)
        )""",
        "CREATE INDEX bank_pictures_by_file ON bank_pictures(sha256)",
    ),
    # 12: question types in groups and channels (issue 14). A member's selection on a
    # multiple question while they make it (the shared keyboard never shows it), which goes
    # with its session; and whether a question went out as a photo (its reveal and live count
    # then edit the caption).
    (
        """CREATE TABLE group_picks (
            session_id INTEGER NOT NULL REFERENCES group_sessions(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            options INTEGER NOT NULL DEFAULT 0 CHECK (options >= 0),
            updated_at REAL NOT NULL,
            PRIMARY KEY (session_id, position, user_id)
        )""",
        "CREATE INDEX group_picks_by_user ON group_picks(user_id)",
        "ALTER TABLE group_questions ADD COLUMN photo INTEGER NOT NULL DEFAULT 0",
    ),
    # 13: Moodle's weights (content/grading.py). An answer's credit is -1 to 1: a single
    # question's option with a negative weight marks the answer down. SQLite cannot change a
    # CHECK, so `answers` is rebuilt with the same rows; `review_log` names its rows, so it
    # is rebuilt too, naming the new table, before the old one is dropped. A group answer
    # keeps its credit as a private one does (NULL: `correct` says it all).
    (
        f"""CREATE TABLE answers_v3 (
{_ANSWER_COLUMNS}
            credit REAL CHECK (credit BETWEEN -1 AND 1),
            reply TEXT,
            UNIQUE (attempt_id, quiz_id, question_id)
        )""",
        """INSERT INTO answers_v3 (id, attempt_id, user_id, quiz_id, question_id, chosen,
                correct, answered_at, credit, reply)
            SELECT id, attempt_id, user_id, quiz_id, question_id, chosen, correct, answered_at,
                credit, reply
            FROM answers""",
        _review_log("review_log_v3", "answers_v3"),
        """INSERT INTO review_log_v3 (id, user_id, quiz_id, question_id, rating, reviewed_at,
                answer_id, session_id, position)
            SELECT id, user_id, quiz_id, question_id, rating, reviewed_at, answer_id,
                session_id, position
            FROM review_log""",
        "DROP TABLE review_log",
        "DROP TABLE answers",
        "ALTER TABLE answers_v3 RENAME TO answers",
        "ALTER TABLE review_log_v3 RENAME TO review_log",
        """CREATE INDEX answers_by_user_question
            ON answers(user_id, quiz_id, question_id, answered_at)""",
        "CREATE INDEX answers_by_user_time ON answers(user_id, answered_at)",
        "ALTER TABLE group_answers ADD COLUMN credit REAL CHECK (credit BETWEEN -1 AND 1)",
    ),
    # 14: the tutor a learner feels. A card's lapses (an Again while it was in the
    # Review state: fsrs's Card keeps no count), its last lapse, and when its learner was told
    # it had become a leech (told once); a learner's daily goal (answers a day; NULL: off); the
    # review log read per learner and time (true retention, today's count).
    (
        "ALTER TABLE cards ADD COLUMN lapses INTEGER NOT NULL DEFAULT 0 CHECK (lapses >= 0)",
        "ALTER TABLE cards ADD COLUMN lapsed_at REAL",
        "ALTER TABLE cards ADD COLUMN leech_told_at REAL",
        "ALTER TABLE users ADD COLUMN daily_goal INTEGER CHECK (daily_goal > 0)",
        "CREATE INDEX review_log_by_user_time ON review_log(user_id, reviewed_at)",
    ),
    # 15: a homework attempt is an attempt of its own, started from the homework's link and
    # tied to it (`attempts.assignment_id`): it runs beside the learner's own attempt at the
    # quiz (one running attempt per learner, quiz and assignment) and one started before the
    # homework never counts. The homework says which attempt counts (`counts`: the first, or
    # the best when members may try again) and whether each member's questions come in an
    # order of their own (`shuffled`). The tags of before move onto the attempts they tagged,
    # when that attempt began after the homework was set and was tagged to it alone; the others
    # (an attempt already running when the homework was set) never counted by this rule and
    # are dropped with their table.
    (
        "ALTER TABLE attempts ADD COLUMN assignment_id INTEGER REFERENCES assignments(id)",
        "DROP INDEX attempts_one_running",
        """CREATE UNIQUE INDEX attempts_one_running
            ON attempts(user_id, quiz_id, COALESCE(assignment_id, 0)) WHERE finished_at IS NULL""",
        """CREATE INDEX attempts_by_assignment ON attempts(assignment_id, user_id)
            WHERE assignment_id IS NOT NULL""",
        """UPDATE attempts SET assignment_id = (
                SELECT h.assignment_id FROM homework_attempts h
                JOIN assignments s ON s.id = h.assignment_id
                WHERE h.attempt_id = attempts.id AND attempts.started_at >= s.created_at)
            WHERE id IN (SELECT attempt_id FROM homework_attempts
                         GROUP BY attempt_id HAVING COUNT(*) = 1)""",
        "DROP TABLE homework_attempts",
        """ALTER TABLE assignments ADD COLUMN counts TEXT NOT NULL DEFAULT 'first'
            CHECK (counts IN ('first', 'best'))""",
        """ALTER TABLE assignments ADD COLUMN shuffled INTEGER NOT NULL DEFAULT 0
            CHECK (shuffled IN (0, 1))""",
    ),
    # 16: a command waiting for a chat picked with Telegram's chat picker (`/push week-3`
    # with no chat): who asked, what for, and its details (JSON), until the pick arrives
    (
        """CREATE TABLE chat_requests (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL,
            action TEXT NOT NULL,
            details TEXT NOT NULL,
            created_at REAL NOT NULL
        )""",
        "CREATE INDEX chat_requests_by_user ON chat_requests(user_id)",
    ),
    # 17: exams (content/exams.py). An exam attempt is an attempt of kind 'exam' named
    # ':exam:<quiz id>' (a homework's tied to it by `attempts.assignment_id`, as any homework
    # attempt: one running per learner, quiz and homework, beside their own quiz attempt), its
    # questions the paper drawn. Beside it: the seed it was drawn from, the paper's sections and
    # the rules it is marked by (JSON), when its time is up, the question shown and the message
    # that shows it, who ended it. Its answers stay changeable responses until it ends, when
    # they become answers (and reviews of their cards) at once.
    # A homework may be an exam (`exam`), with a time limit of its own (`exam_minutes`;
    # NULL: the bank's).
    (
        """CREATE TABLE exam_attempts (
            attempt_id INTEGER PRIMARY KEY REFERENCES attempts(id) ON DELETE CASCADE,
            seed INTEGER NOT NULL,
            paper TEXT NOT NULL,
            ends_at REAL NOT NULL,
            position INTEGER NOT NULL DEFAULT 0 CHECK (position >= 0),
            message_id INTEGER,
            ended_by TEXT CHECK (ended_by IN ('learner', 'time'))
        )""",
        """CREATE TABLE exam_responses (
            attempt_id INTEGER NOT NULL REFERENCES attempts(id) ON DELETE CASCADE,
            item TEXT NOT NULL,
            chosen INTEGER NOT NULL,
            reply TEXT,
            answered_at REAL NOT NULL,
            PRIMARY KEY (attempt_id, item)
        )""",
        "CREATE INDEX exam_attempts_open ON exam_attempts(ends_at) WHERE ended_by IS NULL",
        """ALTER TABLE assignments ADD COLUMN exam INTEGER NOT NULL DEFAULT 0
            CHECK (exam IN (0, 1))""",
        "ALTER TABLE assignments ADD COLUMN exam_minutes INTEGER CHECK (exam_minutes > 0)",
    ),
    # 18: the chats the bot is in, as Telegram last said (my_chat_member), and who administers
    # each, as getChatAdministrators and chat_member updates last said: the Bot API cannot
    # list a person's chats, so the teacher's dashboard finds a person's classes here
    (
        """CREATE TABLE known_chats (
            chat_id INTEGER PRIMARY KEY,
            type TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT '',
            bot_status TEXT NOT NULL,
            admins_checked_at REAL,
            updated_at REAL NOT NULL
        )""",
        """CREATE TABLE chat_admins (
            chat_id INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            PRIMARY KEY (chat_id, user_id)
        )""",
        "CREATE INDEX chat_admins_by_user ON chat_admins(user_id)",
    ),
)

SCHEMA_VERSION = len(MIGRATIONS)
