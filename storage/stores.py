"""`Storage`: the one object the bot holds, opened once. Every store receives the same
`Database` and none reaches into another (the arrows: stores -> database; privacy -> learners,
to drop the learners it deleted from their cache)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Unpack

from storage.audit import AuditLog
from storage.chat_moves import ChatMove
from storage.chat_store import ChatStore
from storage.content_store import ContentStore
from storage.database import Database, OpenOptions
from storage.exam_store import ExamStore
from storage.group_store import GroupStore
from storage.homework_store import HomeworkStore
from storage.learner_store import LearnerStore
from storage.media_store import MediaStore
from storage.privacy import Privacy
from storage.report_store import ReportStore


@dataclass(frozen=True)
class Storage:
    database: Database
    learners: LearnerStore  # users, attempts, answers (in batches), cards, reminders
    groups: GroupStore  # group quizzes and posted questions
    content: ContentStore  # banks changed through the bot, retired questions, schedules, stats
    audit: AuditLog
    privacy: Privacy  # /forgetme, prune
    reports: ReportStore  # what /report and homework results read
    homework: HomeworkStore  # assignments and the members who opened them
    chats: ChatStore  # a group's own language and time zone
    media: MediaStore  # Telegram's file_id of each picture uploaded, per bot
    exams: ExamStore  # exam attempts: their papers and responses until they end

    @classmethod
    async def open(cls, path: Path | str, **options: Unpack[OpenOptions]) -> Storage:
        """Open the database (see `Database.open`) and every store on it."""
        return cls.on(await Database.open(path, **options))

    @classmethod
    def on(cls, database: Database) -> Storage:
        """Every store on an open database."""
        learners = LearnerStore(database)
        return cls(
            database=database,
            learners=learners,
            groups=GroupStore(database),
            content=ContentStore(database),
            audit=AuditLog(database),
            privacy=Privacy(database, learners),
            reports=ReportStore(database),
            homework=HomeworkStore(database),
            chats=ChatStore(database),
            media=MediaStore(database),
            exams=ExamStore(database),
        )

    async def move_chat(self, old: int, new: int, now: float) -> ChatMove:
        """A group became a supergroup: every row of chat `old` moved to `new`, in one
        transaction (storage/chat_moves.py); a second move is a no-op."""
        try:
            return await self.chats.move(old, new, now)
        finally:
            self.groups.forget_sessions()

    async def close(self) -> None:
        """Write the answers still waiting, then close the database."""
        await self.learners.drain()
        await self.groups.drain()
        await self.database.close()

    @property
    def lost(self) -> str | None:
        """Why the database file is lost, or None (see `Database.lost`)."""
        return self.database.lost

    @property
    def healthy(self) -> bool:
        return self.database.healthy
