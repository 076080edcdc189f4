"""The simulated people of the sandbox and the chats they share with the bot."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.sandbox.server import Chat, FakeBotApi, FakeUser

SANDBOX_TOKEN = "100000:SANDBOX-NOT-A-REAL-TOKEN"
GROUP_ID = -1001000000001
GROUP_TITLE = "Study group"
CHANNEL_ID = -1001000000002
CHANNEL_TITLE = "Study news"  # a channel where the bot is an admin that may post


@dataclass(frozen=True)
class Person:
    key: str  # the page's name for them, in URLs and JSON
    user: FakeUser
    role: str  # shown beside the name
    chat_admin: bool = False  # an administrator of the group and of the channel
    bot_admin: bool = False  # in the bot's admin ids

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "id": self.user.id,
            "name": self.user.first_name,
            "language": self.user.language_code,
            "role": self.role,
        }


CAST = (
    Person("ade", FakeUser(1001, "Adé", "yo"), "learner, Yoruba"),
    Person("emma", FakeUser(1002, "Emma", "en"), "learner, English"),
    Person("chidi", FakeUser(1003, "Chidi", "en"), "group admin", chat_admin=True),
    # the teacher who runs the bot: imports, pushes, sets homework for her group and channel
    Person("funmi", FakeUser(1004, "Funmi", "en"), "bot admin", chat_admin=True, bot_admin=True),
)


class Cast:
    """The people, their private chats, the group and the channel, made known to the
    stand-in."""

    def __init__(self, api: FakeBotApi, people: tuple[Person, ...] = CAST) -> None:
        self.people = {person.key: person for person in people}
        for person in people:
            api.private_chat(person.user)  # each has opened a chat with the bot
        admins = {person.user.id for person in people if person.chat_admin}
        self.group: Chat = api.group(GROUP_ID, GROUP_TITLE, admins)
        self.channel: Chat = api.group(CHANNEL_ID, CHANNEL_TITLE, admins, type="channel")

    @property
    def bot_admin_ids(self) -> frozenset[int]:
        return frozenset(p.user.id for p in self.people.values() if p.bot_admin)

    def by_id(self, user_id: int) -> Person | None:
        return next((p for p in self.people.values() if p.user.id == user_id), None)

    def chat_of(self, person: Person, where: str) -> int | None:
        """The chat a person means by `private`, `group` or `channel`."""
        if where == "private":
            return person.user.id
        if where == "group":
            return self.group.id
        if where == "channel":
            return self.channel.id
        return None
