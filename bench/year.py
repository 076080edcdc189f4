"""A school's year of Quiz Tutor data, built fast through the bot's own schema and cached.

At `scale` 1: 50,000 learners; 300 quizzes of 8 to 50 questions; 5,000,000 private answers
(quiz attempts, review sessions and homework), each with its review in the log, and the
learners' cards; 200 chats of 10 to 10,000 members (log-spread) holding 2,000 group sessions
(1,800 timed quizzes and 200 posted questions) with 5,000,000 group answers, among them one
session where all 10,000 members of the largest chat answered 50 questions; 500 homeworks.
Every count but the quizzes and the few heavy learners (5,000 answers each) is multiplied by
`scale`: 0.1 and 0.01 give the curve.

The schema is the bot's: the database is created by `Database.open` with the first
`BASE_SCHEMA` migrations (the schema these rows were written for), and the rows are inserted
in bulk with the indexes dropped and then made again from their own SQL, so the result is the
schema the migrations made, holding the rows the bot would have written. No `ANALYZE`: the bot
never runs it, so the query planner sees what it sees in production. A build is kept in
`cache_dir()` under a name that says its scale and generator version.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import random
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from storage import Database
from storage.migrations import MIGRATIONS

# The schema the generator writes rows for: the tables as the first 12 migrations left them.
BASE_SCHEMA = 12
GENERATOR_VERSION = 2  # change when the rows change: old caches are not reused

NOW = 1_767_225_600.0  # 2026-01-01 UTC: the end of the year
DAY = 86_400.0
YEAR = 365 * DAY
HEAVY_LEARNERS = 5  # user ids 1..5: 5,000 private answers each (progress, /forgetme)
HEAVY_ANSWERS = 5_000
MEMBER_IDS = 10_000_000  # group members who never started the bot: ids from here
LEARNER_SHARE = 0.3  # of a chat's members, those who are also learners
HOMEWORK_SHARE = 0.1  # of the private answers, those given to homework
REVIEW_SHARE = 0.2  # of a learner's answers, those given in review sessions
TYPED_EVERY = 20  # question n with n % 20 == 7 is typed, == 13 multiple (partial credit)
QUIZ_TOPICS = (
    "data-parallelism", "pipeline-schedules", "tensor-parallelism", "yoruba-grammar",
    "cell-biology", "organic-chemistry", "world-history", "linear-algebra", "probability",
    "english-vocabulary",
)  # fmt: skip


@dataclass(frozen=True)
class Plan:
    """What a year holds at one scale."""

    scale: float
    learners: int
    private_answers: int
    chats: int
    sessions: int
    posts: int
    group_answers: int
    homeworks: int
    largest_chat: int
    report_questions: int = 50

    @classmethod
    def at(cls, scale: float) -> Plan:
        def n(full: int, least: int = 1) -> int:
            return max(least, round(full * scale))

        return cls(
            scale=scale,
            learners=n(50_000, 100),
            private_answers=n(5_000_000, HEAVY_LEARNERS * HEAVY_ANSWERS * 2),
            chats=n(200, 4),
            sessions=n(1_800, 8),
            posts=n(200, 2),
            group_answers=n(5_000_000, 10_000),
            homeworks=n(500, 5),
            largest_chat=n(10_000, 100),
        )


@dataclass(frozen=True)
class Built:
    """A year built: its file and the ids the benchmark reads by."""

    path: Path
    plan: Plan
    quizzes: dict[str, int]  # quiz id -> questions
    popular_quiz: str  # the quiz with the most answers
    report_session: int  # the largest chat's session over 50 questions, everyone answering
    largest_chat: int
    session_sizes: dict[int, int]  # timed session -> members who answered its questions
    chat_sizes: dict[int, int]
    homework_takers: dict[int, int]  # assignment -> members who opened it
    learner_answers: dict[int, int]  # learner -> private answers
    build_seconds: float

    def manifest(self) -> dict[str, object]:
        return {
            "plan": self.plan.__dict__,
            "quizzes": self.quizzes,
            "popular_quiz": self.popular_quiz,
            "report_session": self.report_session,
            "largest_chat": self.largest_chat,
            "session_sizes": self.session_sizes,
            "chat_sizes": self.chat_sizes,
            "homework_takers": self.homework_takers,
            "learner_answers": self.learner_answers,
            "build_seconds": self.build_seconds,
        }

    @classmethod
    def from_manifest(cls, path: Path, data: dict[str, object]) -> Built:
        def ints(key: str) -> dict[int, int]:
            return {int(k): int(v) for k, v in data[key].items()}  # type: ignore[attr-defined]

        return cls(
            path=path,
            plan=Plan(**data["plan"]),  # type: ignore[arg-type]
            quizzes=dict(data["quizzes"]),  # type: ignore[call-overload]
            popular_quiz=str(data["popular_quiz"]),
            report_session=int(data["report_session"]),  # type: ignore[call-overload]
            largest_chat=int(data["largest_chat"]),  # type: ignore[call-overload]
            session_sizes=ints("session_sizes"),
            chat_sizes=ints("chat_sizes"),
            homework_takers=ints("homework_takers"),
            learner_answers=ints("learner_answers"),
            build_seconds=float(data["build_seconds"]),  # type: ignore[arg-type]
        )


def cache_dir() -> Path:
    """Where built years are kept between runs (`QUIZ_BENCH_CACHE`, else the temp folder)."""
    folder = os.environ.get("QUIZ_BENCH_CACHE") or Path(tempfile.gettempdir()) / "quiz-tutor-bench"
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    return path


def year(scale: float, *, log: bool = True) -> Built:
    """The year at `scale`, from the cache or built now (and cached)."""
    name = f"year-{scale:g}-v{GENERATOR_VERSION}-schema{BASE_SCHEMA}"
    path = cache_dir() / f"{name}.sqlite3"
    manifest = cache_dir() / f"{name}.json"
    if path.exists() and manifest.exists():
        return Built.from_manifest(path, json.loads(manifest.read_text()))
    for stale in (path, manifest):
        stale.unlink(missing_ok=True)
    partial = path.with_name(f".{path.name}.partial-{os.getpid()}")
    partial.unlink(missing_ok=True)
    started = time.perf_counter()
    if log:
        print(f"building a year at scale {scale:g} in {partial.parent} ...", flush=True)
    built = _build(partial, Plan.at(scale), log)
    built = Built(**{**built.__dict__, "build_seconds": time.perf_counter() - started})
    os.replace(partial, path)
    partial.with_name(partial.name + ".lock").unlink(missing_ok=True)
    manifest.write_text(json.dumps(built.manifest()))
    if log:
        print(f"built in {built.build_seconds:.0f} s", flush=True)
    return Built(**{**built.__dict__, "path": path})


# building


def _quizzes(rng: random.Random) -> dict[str, int]:
    quizzes = {}
    for n in range(300):
        topic = QUIZ_TOPICS[n % len(QUIZ_TOPICS)]
        quizzes[f"{topic}-{n // len(QUIZ_TOPICS) + 1}"] = rng.randint(8, 50)
    return quizzes


def _question_ids(count: int) -> list[str]:
    return [f"q{n}" for n in range(1, count + 1)]


def _build(path: Path, plan: Plan, log: bool) -> Built:
    asyncio.run(_create(path))
    rng = random.Random(29)
    quizzes = _quizzes(rng)
    ids = list(quizzes)
    # popularity: the first quizzes of the list are taken most (a Zipf-like share)
    weights = [1 / (rank + 1) ** 0.8 for rank in range(len(ids))]
    db = sqlite3.connect(path, isolation_level=None)
    try:
        for pragma in (
            "PRAGMA journal_mode=OFF",
            "PRAGMA synchronous=OFF",
            "PRAGMA foreign_keys=OFF",
            "PRAGMA cache_size=-1000000",
            "PRAGMA temp_store=MEMORY",
        ):
            db.execute(pragma)
        indexes = [
            (name, sql)
            for name, sql in db.execute(
                "SELECT name, sql FROM sqlite_master WHERE type='index' AND sql IS NOT NULL"
            )
        ]
        db.execute("BEGIN")
        for name, _ in indexes:
            db.execute(f'DROP INDEX "{name}"')
        step = _Steps(log)
        step("learners")
        db.executemany(
            """INSERT INTO users (user_id, first_name, telegram_language, language, created_at,
                   updated_at, timezone, remind_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
            (
                (user, f"Learner{user}", "en" if user % 3 else "yo", None if user % 4 else "yo",
                 NOW - YEAR + rng.random() * YEAR / 2, NOW - rng.random() * YEAR / 2,
                 "Africa/Lagos" if user % 5 == 0 else None,
                 f"{7 + user % 12:02d}:{user % 60:02d}" if user % 10 == 0 else None)
                for user in range(1, plan.learners + 1)
            ),
        )  # fmt: skip
        step("chats and their members")
        chats = _chats(plan)
        members = _members(rng, plan, chats)
        db.execute(
            "CREATE TEMP TABLE bench_members (chat_id INTEGER, k INTEGER, user_id INTEGER, "
            "name TEXT, PRIMARY KEY (chat_id, k))"
        )
        db.executemany(
            "INSERT INTO bench_members VALUES (?, ?, ?, ?)",
            (
                (chat, k, user, f"Member{user % 100_000}")
                for chat, users in members.items()
                for k, user in enumerate(users)
            ),
        )
        step("homework")
        attempts: list[_Attempt] = []
        takers = _homework(db, rng, plan, chats, members, quizzes, ids, weights, attempts)
        step("private attempts")
        learner_answers = _private_attempts(rng, plan, quizzes, ids, weights, attempts)
        attempts.sort(key=lambda a: a.started_at)
        db.execute(
            "CREATE TEMP TABLE bench_plan (attempt_id INTEGER PRIMARY KEY, answered INTEGER)"
        )
        db.executemany(
            """INSERT INTO attempts (id, user_id, quiz_id, question_ids, total, started_at,
                   finished_at, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
            (
                (n, a.user_id, a.quiz_id, json.dumps(a.items), len(a.items), a.started_at,
                 a.finished_at, a.kind)
                for n, a in enumerate(attempts, start=1)
            ),
        )  # fmt: skip
        db.executemany(
            "INSERT INTO bench_plan VALUES (?, ?)",
            ((n, a.answered) for n, a in enumerate(attempts, start=1)),
        )
        db.executemany(
            """INSERT INTO homework_attempts (assignment_id, user_id, attempt_id, opened_at)
               VALUES (?, ?, ?, ?)""",
            (
                (a.assignment, a.user_id, n, a.started_at)
                for n, a in enumerate(attempts, start=1)
                if a.assignment is not None
            ),
        )
        step("private answers")
        _private_answers(db)
        step("group sessions")
        sessions, report_session = _group_sessions(db, rng, plan, chats, quizzes, ids, weights)
        step("group answers")
        _group_answers(db, plan)
        step("reviews")
        _reviews(db, plan)
        step("cards")
        _cards(db)
        step("indexes")
        for _, sql in indexes:
            db.execute(sql)
        db.execute("DROP TABLE bench_members")
        db.execute("DROP TABLE bench_plan")
        db.execute("COMMIT")
        popular = db.execute(
            "SELECT quiz_id FROM answers GROUP BY quiz_id ORDER BY COUNT(*) DESC LIMIT 1"
        ).fetchone()[0]
        db.execute("PRAGMA journal_mode=WAL")
        step("done")
    finally:
        db.close()
    return Built(
        path=path,
        plan=plan,
        quizzes=quizzes,
        popular_quiz=popular,
        report_session=report_session,
        largest_chat=max(chats, key=lambda chat: chats[chat]),
        session_sizes=sessions,
        chat_sizes=chats,
        homework_takers=takers,
        learner_answers=learner_answers,
        build_seconds=0.0,
    )


async def _create(path: Path) -> None:
    database = await Database.open(path, migrations=MIGRATIONS[:BASE_SCHEMA])
    await database.close()


class _Steps:
    def __init__(self, log: bool) -> None:
        self._log = log
        self._started = time.perf_counter()

    def __call__(self, what: str) -> None:
        if self._log:
            print(f"  {time.perf_counter() - self._started:6.1f} s  {what}", flush=True)


def _chats(plan: Plan) -> dict[int, int]:
    """Chat id -> members, from 10 to the largest, log-spread; the largest chat is the last."""
    sizes = {}
    for n in range(plan.chats):
        fraction = n / max(1, plan.chats - 1)
        sizes[-1_000_000_000_000 - n] = round(10 * (plan.largest_chat / 10) ** fraction)
    return sizes


def _members(rng: random.Random, plan: Plan, chats: dict[int, int]) -> dict[int, list[int]]:
    """Each chat's members: about LEARNER_SHARE of them learners (never the heavy ones, whose
    answers are counted exactly), the rest members who never started the bot."""
    learners = range(HEAVY_LEARNERS + 1, plan.learners + 1)
    members = {}
    for chat, size in chats.items():
        share = min(round(size * LEARNER_SHARE), len(learners))
        chosen = rng.sample(learners, share)
        others = [MEMBER_IDS + chat % 1000 * 100_000 + k for k in range(size - share)]
        everyone = chosen + others
        rng.shuffle(everyone)
        members[chat] = everyone
    return members


@dataclass
class _Attempt:
    user_id: int
    quiz_id: str
    items: list[str]
    started_at: float
    finished_at: float | None
    answered: int
    kind: str = "quiz"
    assignment: int | None = None


ANSWER_SECONDS = 20.0


def _attempt(
    rng: random.Random, user: int, quiz_id: str, count: int, at: float, finished: bool
) -> _Attempt:
    items = rng.sample(_question_ids(count), count)
    answered = count if finished else rng.randint(0, count - 1)
    end = at + count * ANSWER_SECONDS if finished else None
    return _Attempt(user, quiz_id, items, at, end, answered)


def _homework(
    db: sqlite3.Connection,
    rng: random.Random,
    plan: Plan,
    chats: dict[int, int],
    members: dict[int, list[int]],
    quizzes: dict[str, int],
    ids: list[str],
    weights: list[float],
    attempts: list[_Attempt],
) -> dict[int, int]:
    """Assignments in the chats (more in larger ones), each opened by a share of the chat's
    learners, most of whom finish before the deadline; the last few still open."""
    chat_ids = list(chats)
    chat_weights = [math.sqrt(chats[chat]) for chat in chat_ids]
    takers = {}
    rows = []
    picks = [
        (
            rng.choices(chat_ids, chat_weights)[0],
            rng.choices(ids, weights)[0],
            rng.uniform(0.3, 0.9),
        )
        for _ in range(plan.homeworks)
    ]
    learners_of = {chat: [u for u in members[chat] if u < MEMBER_IDS] for chat in chats}
    # homework is HOMEWORK_SHARE of the year's private answers
    full = sum(len(learners_of[chat]) * share * quizzes[quiz] for chat, quiz, share in picks)
    fit = min(1.0, plan.private_answers * HOMEWORK_SHARE / full)
    for number, (chat, quiz_id, share) in enumerate(picks, start=1):
        created = NOW - YEAR + (number / plan.homeworks) * (YEAR - 8 * DAY)
        deadline = created + 7 * DAY
        closed = deadline < NOW
        rows.append(
            (number, chat, quiz_id, deadline, "en", "Africa/Lagos", 4242, created, number,
             created + 6 * DAY if closed else None, deadline if closed else None,
             "finished" if closed else None)
        )  # fmt: skip
        learners = learners_of[chat]
        opened = rng.sample(learners, max(1, round(len(learners) * share * fit)))
        takers[number] = len(opened)
        for user in opened:
            at = created + rng.random() * 6 * DAY
            attempt = _attempt(rng, user, quiz_id, quizzes[quiz_id], at, rng.random() < 0.85)
            attempt.assignment = number
            attempts.append(attempt)
    db.executemany(
        """INSERT INTO assignments (id, chat_id, quiz_id, deadline, language, timezone,
               created_by, created_at, message_id, reminded_at, closed_at, outcome)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        rows,
    )
    return takers


def _private_attempts(
    rng: random.Random,
    plan: Plan,
    quizzes: dict[str, int],
    ids: list[str],
    weights: list[float],
    attempts: list[_Attempt],
) -> dict[int, int]:
    """Each learner's quiz attempts and review sessions, until their share of the year's
    answers (heavy-tailed: a few learners answer thousands, most a few dozen); a tenth of the
    learners have an attempt running. Returns each learner's answers."""
    done: dict[int, int] = {}
    for a in attempts:
        done[a.user_id] = done.get(a.user_id, 0) + a.answered
    left = plan.private_answers - sum(done.values()) - HEAVY_LEARNERS * HEAVY_ANSWERS
    activity = [rng.lognormvariate(0, 1.2) for _ in range(plan.learners - HEAVY_LEARNERS)]
    total = sum(activity)
    budgets = {user: HEAVY_ANSWERS for user in range(1, HEAVY_LEARNERS + 1)}
    for user, share in enumerate(activity, start=HEAVY_LEARNERS + 1):
        budgets[user] = max(1, round(left * share / total))
    for user, budget in budgets.items():
        have = done.get(user, 0)
        seen: list[tuple[str, str]] = []
        start = NOW - YEAR + rng.random() * YEAR / 2
        while have < budget:
            at = start + rng.random() * (NOW - start - DAY)
            if seen and rng.random() < REVIEW_SHARE:
                distinct = list(dict.fromkeys(seen))
                count = min(10, len(distinct), budget - have)
                items = [f"{q}/{question}" for q, question in rng.sample(distinct, count)]
                end = at + count * ANSWER_SECONDS
                attempts.append(_Attempt(user, ":review", items, at, end, count, "review"))
                have += count
                continue
            quiz_id = rng.choices(ids, weights)[0]
            count = quizzes[quiz_id]
            finished = have + count <= budget or rng.random() < 0.5
            attempt = _attempt(rng, user, quiz_id, count, at, finished)
            if not finished:
                attempt.answered = min(attempt.answered, budget - have)
            if user <= HEAVY_LEARNERS:
                attempt.answered = min(attempt.answered, budget - have)
                if attempt.answered < count:
                    attempt.finished_at = None
            attempts.append(attempt)
            have += attempt.answered
            seen.extend((quiz_id, item) for item in attempt.items[: attempt.answered])
            if len(seen) > 400:
                del seen[:200]
        done[user] = have
    # one running attempt per learner and quiz: the later ones of a pair are finished
    running: set[tuple[int, str]] = set()
    for attempt in sorted(attempts, key=lambda a: -a.started_at):
        if attempt.finished_at is None:
            key = (attempt.user_id, attempt.quiz_id)
            if key in running:
                attempt.finished_at = attempt.started_at + attempt.answered * ANSWER_SECONDS
            running.add(key)
    return done


# the hash every generated answer draws its option from: deterministic, about 70% right
_RIGHT = "((({a} * 2654435761 + {b} * 40503) % 100) < 70)"


def _private_answers(db: sqlite3.Connection) -> None:
    """Each attempt's first `answered` items, 20 s apart; question n % 20 == 7 is typed (a
    reply), == 13 multiple (partial credit); scores of finished attempts."""
    right = _RIGHT.format(a="a.id", b="j.key")
    number = "CAST(substr(j.value, instr(j.value, '/q') + 2) AS INTEGER)"
    plain = "CAST(substr(j.value, 2) AS INTEGER)"
    n = f"(CASE WHEN a.kind = 'review' THEN {number} ELSE {plain} END)"
    db.execute(
        f"""INSERT INTO answers (attempt_id, user_id, quiz_id, question_id, chosen, correct,
                answered_at, credit, reply)
            SELECT a.id, a.user_id,
                CASE WHEN a.kind = 'review' THEN substr(j.value, 1, instr(j.value, '/') - 1)
                     ELSE a.quiz_id END,
                CASE WHEN a.kind = 'review' THEN substr(j.value, instr(j.value, '/') + 1)
                     ELSE j.value END,
                CASE WHEN {n} % {TYPED_EVERY} = 7 THEN -1
                     WHEN {right} THEN 0 ELSE 1 + (a.id + j.key) % 3 END,
                {right},
                a.started_at + (j.key + 1) * {ANSWER_SECONDS},
                CASE WHEN {n} % {TYPED_EVERY} = 13 THEN
                     CASE WHEN {right} THEN 1.0 ELSE 0.5 END END,
                CASE WHEN {n} % {TYPED_EVERY} = 7 THEN
                     CASE WHEN {right} THEN 'pipeline bubble'
                          ELSE 'wrong answer ' || ((a.id + j.key) % 7) END END
            FROM attempts a JOIN bench_plan p ON p.attempt_id = a.id,
                 json_each(a.question_ids) j
            WHERE j.key < p.answered"""
    )
    db.execute(
        """UPDATE attempts SET score = (
               SELECT SUM(COALESCE(credit, correct)) FROM answers WHERE attempt_id = attempts.id)
           WHERE finished_at IS NOT NULL"""
    )


def _group_sessions(
    db: sqlite3.Connection,
    rng: random.Random,
    plan: Plan,
    chats: dict[int, int],
    quizzes: dict[str, int],
    ids: list[str],
    weights: list[float],
) -> tuple[dict[int, int], int]:
    """Timed sessions in every chat (more in larger chats), each question answered by the same
    share of the chat's members, so that the year holds `group_answers`; one session of the
    largest chat over 50 questions answered by everyone; posted questions. Returns each timed
    session's answering members, and the report session."""
    chat_ids = list(chats)
    largest = chat_ids[-1]
    fifty = next(quiz for quiz, count in quizzes.items() if count == 50)
    plans = []  # (chat, quiz, members answering)
    for n in range(plan.sessions - 1):
        chat = chat_ids[n % len(chat_ids)]
        plans.append((chat, rng.choices(ids, weights)[0]))
    report_rows = chats[largest] * plan.report_questions
    full = sum(chats[chat] * quizzes[quiz] for chat, quiz in plans)
    share = min(1.0, (plan.group_answers - report_rows) / full)
    sessions: list[tuple[int, str, int]] = [
        (chat, quiz, max(1, round(chats[chat] * share))) for chat, quiz in plans
    ]
    report_at = len(sessions) // 2
    sessions.insert(report_at, (largest, fifty, chats[largest]))
    session_rows = []
    question_rows = []
    sizes = {}
    plan_rows = []
    started = NOW - YEAR
    gap = (YEAR - DAY) / len(sessions)
    running_chats = set(chat_ids[:2])  # two quizzes running at the end of the year
    for number, (chat, quiz_id, answering) in enumerate(sessions, start=1):
        at = started + (number - 1) * gap
        count = quizzes[quiz_id]
        question_ids = rng.sample(_question_ids(count), count)
        seconds = 30
        running = number > len(sessions) - len(chat_ids) and chat in running_chats
        if running:
            running_chats.discard(chat)
            at = NOW - 60 * count
        asked = count if not running else count // 2
        finished = None if running else at + count * (seconds + 5)
        session_rows.append(
            (number, chat, "supergroup", quiz_id, json.dumps(question_ids), seconds, "buttons",
             "en", 4242, at, asked if not running else asked - 1, finished,
             None if running else "finished", "timed")
        )  # fmt: skip
        for position in range(asked):
            sent = at + position * (seconds + 5)
            revealed = sent + seconds if (not running or position < asked - 1) else None
            deadline = sent + seconds if not running else NOW + 3600
            question_rows.append(
                (number, position, question_ids[position], 1000 + position, sent, deadline,
                 revealed)
            )  # fmt: skip
        offset = rng.randint(0, chats[chat] - answering)
        plan_rows.append((number, chat, offset, answering))
        sizes[number] = answering
    first_post = len(sessions) + 1
    posted: set[tuple[int, str, str]] = set()
    for n in range(plan.posts):
        number = first_post + n
        chat = chat_ids[n % len(chat_ids)]
        quiz_id = rng.choices(ids, weights)[0]
        question_id = rng.choice(_question_ids(quizzes[quiz_id]))
        while (chat, quiz_id, question_id) in posted:  # a question is posted into a chat once
            quiz_id = rng.choices(ids, weights)[0]
            question_id = rng.choice(_question_ids(quizzes[quiz_id]))
        posted.add((chat, quiz_id, question_id))
        at = started + n * (YEAR - DAY) / plan.posts
        is_open = n >= plan.posts - 2
        session_rows.append(
            (number, chat, "supergroup", quiz_id, json.dumps([question_id]), 0, "buttons", "en",
             None, at, 0 if is_open else 1, None if is_open else at + DAY,
             None if is_open else "finished", "post")
        )  # fmt: skip
        question_rows.append(
            (number, 0, question_id, 5000 + n, at, math.inf, None if is_open else at + DAY)
        )
        answering = min(chats[chat], max(1, round(chats[chat] * share * 4)))
        plan_rows.append((number, chat, rng.randint(0, chats[chat] - answering), answering))
    db.executemany(
        """INSERT INTO group_sessions (id, chat_id, chat_type, quiz_id, question_ids, seconds,
               mode, language, started_by, started_at, position, finished_at, outcome, kind,
               post_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
               CASE WHEN ? = 'post' THEN ? END)""",
        [(*row, row[-1], row[0] - first_post + 1) for row in session_rows],
    )
    db.executemany(
        """INSERT INTO group_questions (session_id, position, question_id, message_id,
               asked_at, deadline, revealed_at) VALUES (?, ?, ?, ?, ?, ?, ?)""",
        question_rows,
    )
    db.execute(
        "CREATE TEMP TABLE bench_sessions (id INTEGER PRIMARY KEY, chat_id INTEGER, "
        "offset INTEGER, answering INTEGER)"
    )
    db.executemany("INSERT INTO bench_sessions VALUES (?, ?, ?, ?)", plan_rows)
    return sizes, report_at + 1


def _group_answers(db: sqlite3.Connection, plan: Plan) -> None:
    """Every answering member's answer to every question asked (posts score no points)."""
    right = _RIGHT.format(a="m.user_id", b="q.session_id * 64 + q.position")
    elapsed = "(0.5 + ((m.k * 7 + q.position * 13) % 290) / 10.0)"
    db.execute(
        f"""INSERT INTO group_answers (session_id, position, question_id, user_id, name, chosen,
                correct, elapsed, points, answered_at)
            SELECT q.session_id, q.position, q.question_id, m.user_id, m.name,
                CASE WHEN {right} THEN 0 ELSE 1 + m.k % 3 END, {right}, {elapsed},
                CASE WHEN s.kind = 'timed' AND {right}
                     THEN 1000 - CAST({elapsed} * 1000 / 30 AS INTEGER) / 2 ELSE 0 END,
                q.asked_at + {elapsed}
            FROM group_questions q JOIN bench_sessions b ON b.id = q.session_id
            JOIN group_sessions s ON s.id = q.session_id
            JOIN bench_members m ON m.chat_id = b.chat_id
                 AND m.k >= b.offset AND m.k < b.offset + b.answering"""
    )
    db.execute("DROP TABLE bench_sessions")


def _reviews(db: sqlite3.Connection, plan: Plan) -> None:
    """Every private answer is a review of its learner's card; so is a group answer of a member
    who is a learner."""
    db.execute(
        """INSERT INTO review_log (user_id, quiz_id, question_id, rating, reviewed_at,
               answer_id)
           SELECT user_id, quiz_id, question_id, CASE WHEN correct THEN 3 ELSE 1 END,
               answered_at, id FROM answers ORDER BY id"""
    )
    db.execute(
        f"""INSERT INTO review_log (user_id, quiz_id, question_id, rating, reviewed_at,
               session_id, position)
            SELECT g.user_id, s.quiz_id, g.question_id, CASE WHEN g.correct THEN 3 ELSE 1 END,
                g.answered_at, g.session_id, g.position
            FROM group_answers g JOIN group_sessions s ON s.id = g.session_id
            WHERE g.user_id <= {plan.learners}
            ORDER BY g.answered_at"""
    )


def _cards(db: sqlite3.Connection) -> None:
    """One card per learner and question reviewed, as FSRS writes it (its JSON as long as the
    real one), due some days after its last review: a few are due now."""
    iso = "strftime('%Y-%m-%dT%H:%M:%S+00:00', {t}, 'unixepoch')"
    db.execute(
        f"""INSERT INTO cards (user_id, quiz_id, question_id, card, due, last_review)
            SELECT user_id, quiz_id, question_id,
                printf('{{"card_id": 0, "state": %d, "step": %s, "stability": %.4f, '
                       || '"difficulty": %.15f, "due": "%s", "last_review": "%s"}}',
                       CASE WHEN last_rating = 3 THEN 2 ELSE 3 END,
                       CASE WHEN last_rating = 3 THEN 'null' ELSE '0' END,
                       0.5 + reviews * 1.7, 1 + (reviews * 7919 % 900) / 100.0,
                       {iso.format(t="due")}, {iso.format(t="last")}),
                due, last
            FROM (SELECT user_id, quiz_id, question_id, COUNT(*) AS reviews,
                         MAX(reviewed_at) AS last,
                         MAX(reviewed_at) + CASE WHEN MIN(rating) = 1 AND COUNT(*) = 1
                             THEN 600 ELSE COUNT(*) * COUNT(*) * {DAY} END AS due,
                         MAX(rating) AS last_rating
                  FROM review_log GROUP BY user_id, quiz_id, question_id)"""
    )


def bank_yaml(quiz_id: str, questions: int) -> str:
    """The bank of a generated quiz, as YAML: question n is typed when n % 20 == 7, multiple
    (two right of four) when n % 20 == 13, else single choice of four."""
    title = quiz_id.replace("-", " ").title()
    lines = [f"id: {quiz_id}", f'title: "{title}"', "level: medium", "questions:"]
    for n in range(1, questions + 1):
        lines.append(f"  - id: q{n}")
        lines.append(f'    text: "Question {n} of {quiz_id}: which of these is right?"')
        if n % TYPED_EVERY == 7:
            lines += ["    type: typed", '    answer: ["pipeline bubble"]']
            continue
        lines.append('    options: ["the first", "the second", "the third", "the fourth"]')
        if n % TYPED_EVERY == 13:
            lines += ["    type: multiple", "    answer: [0, 1]"]
        else:
            lines.append("    answer: 0")
        lines.append('    explanation: "Because the first is right."')
    return "\n".join(lines) + "\n"


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bench.year")
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    built = year(args.scale)
    with contextlib.closing(sqlite3.connect(built.path)) as db:
        for table in ("users", "attempts", "answers", "review_log", "cards", "group_sessions",
                      "group_answers", "assignments", "homework_attempts"):  # fmt: skip
            print(f"{table:>18} {db.execute(f'SELECT COUNT(*) FROM {table}').fetchone()[0]:>12,}")
    print(f"{built.path}: {built.path.stat().st_size / 2**20:,.0f} MiB")


if __name__ == "__main__":
    main()
