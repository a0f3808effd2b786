"""Thread keys and user keys (docs/clock-spec.md §7.2), built and read in one place."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Address",
    "group_mail_thread",
    "is_private_thread",
    "private_mail_thread",
    "split_thread_key",
    "split_user_key",
    "thread_key",
    "user_key",
]

_PRIVATE_CHANNELS = frozenset({"email", "console"})
_GROUP_MAIL = "group/"


def thread_key(agent_id: str, channel: str, thread_id: str) -> str:
    """``agent:<agent_id>:<channel>:<thread_id>``."""
    return f"agent:{agent_id}:{channel}:{thread_id}"


def group_mail_thread(writer: str, message_id: str) -> str:
    """The id of the group mail thread `writer`'s mail `message_id` starts.

    The email reader builds the same id (`channels.email.reading.GROUP_THREAD`): the
    first writer's address, then the first mail's Message-ID.
    """
    return f"{_GROUP_MAIL}{writer}/{message_id}"


def private_mail_thread(thread_id: str) -> str:
    """The private mail thread a group mail thread id would be, had its mail named nobody else."""
    return thread_id.removeprefix(_GROUP_MAIL)


def user_key(channel: str, user_id: str) -> str:
    """``<channel>:<user_id>``: one person on one channel, until they link identities."""
    return f"{channel}:{user_id}"


def split_user_key(key: str) -> tuple[str, str]:
    """(channel, user_id) of a stored user key.

    Raises:
        ValueError: the key is not ``<channel>:<user id>``.
    """
    channel, _, user_id = key.partition(":")
    if not channel or not user_id:
        raise ValueError(f"user_key must be '<channel>:<user id>', got {key!r}")
    return channel, user_id


def split_thread_key(key: str) -> tuple[str, str, str]:
    """(agent_id, channel, thread_id) of a thread key.

    A key in another shape (from a foreign CLOCK-STATE file) becomes the thread id.
    """
    parts = key.split(":", 3)
    if len(parts) == 4 and parts[0] == "agent":
        return parts[1], parts[2], parts[3]
    return "main", "", key


def is_private_thread(channel: str, thread_id: str) -> bool:
    """A direct conversation with one person (a DM, an email thread, the console).

    Actions and reminders clocked in private threads are shown only in private
    threads; a group thread sees only what was clocked in it (docs/clock-spec.md §7.3).
    An email thread is private unless its first mail named other people too
    (``group/…``, `channels.email.reading.GROUP_THREAD`): then all of them read
    its answers.
    """
    if thread_id.startswith(_GROUP_MAIL):
        return False
    return channel in _PRIVATE_CHANNELS or thread_id.startswith("dm:")


@dataclass(frozen=True, slots=True)
class Address:
    """Who a message is from and where it goes: one agent, channel, thread and person.

    The keys are built from it (`thread_key`, `user_key`) and read back into it
    (`parse`), so a message's route travels as one value instead of five loose fields
    (docs/ARCHITECTURE.md, "Words"). `user` is the channel's id of the person.
    """

    agent: str
    channel: str
    thread: str
    user: str

    def __post_init__(self) -> None:
        if not self.agent or ":" in self.agent or not self.channel or ":" in self.channel:
            raise ValueError(f"agent and channel must be non-empty, without ':': {self!r}")
        if not self.thread or not self.user:
            raise ValueError(f"thread and user must be non-empty: {self!r}")

    @property
    def thread_key(self) -> str:
        return thread_key(self.agent, self.channel, self.thread)

    @property
    def user_key(self) -> str:
        return user_key(self.channel, self.user)

    @property
    def private(self) -> bool:
        """A direct conversation with one person (`is_private_thread`)."""
        return is_private_thread(self.channel, self.thread)

    @classmethod
    def parse(cls, thread: str, user: str) -> Address:
        """The address a stored thread key and user key name.

        Raises:
            ValueError: a key is not in clockbot's shape, or the two name other channels.
        """
        agent, channel, thread_id = split_thread_key(thread)
        user_channel, user_id = split_user_key(user)
        if not channel or channel != user_channel:
            raise ValueError(f"{thread!r} and {user!r} are not one channel's keys")
        return cls(agent, channel, thread_id, user_id)
