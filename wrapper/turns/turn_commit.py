"""A turn's commit: everything one turn changes, in one transaction, once.

`bot.turns.lifecycle` builds a `TurnCommit` after the model is done and hands it to
`InteractionWrapper.commit_turn`. The transaction first proves the turn still
owns its work: the inbound message's claim on the waiting list (removing it)
or the proactive job's claim in the outbox (recording the agent's decision).
A lost claim (a worker taken for dead whose message was answered elsewhere)
commits nothing. Then the history (after an optional compaction), then every
staged effect in the order the tools staged it, the reply's outbox row last.

A crash before the commit leaves no trace; after it, the message is done.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.engine import Connection

from clockcore import Policy
from wrapper.outbound.outbox import JobDecision, decide_in, enqueue_in
from wrapper.turns import pending
from wrapper.turns.effect_writes import apply_effect
from wrapper.turns.effects import Effect, Enqueue, outbox_values
from wrapper.turns.history import StoredMessage, append_in, count_in, replace_prefix_in
from wrapper.turns.pending import WaitingTurn

__all__ = ["Compaction", "JobDecision", "TurnCommit", "commit_in", "release_in"]


@dataclass(frozen=True, slots=True)
class Compaction:
    """Replace the thread's first `upto_seq` messages with `head`.

    Applied only while the thread still has `expected_length` messages (what
    the turn summarised); otherwise the history is left whole.
    """

    upto_seq: int
    head: tuple[StoredMessage, ...]
    expected_length: int


@dataclass(frozen=True, slots=True)
class TurnCommit:
    """One turn's changes. Exactly one of `waiting` and `job` is the claim it commits under."""

    thread_key: str
    at: datetime
    history: tuple[StoredMessage, ...] = ()
    compaction: Compaction | None = None
    effects: tuple[Effect, ...] = ()
    waiting: WaitingTurn | None = None
    job: JobDecision | None = None

    def __post_init__(self) -> None:
        if (self.waiting is None) == (self.job is None):
            raise ValueError("a turn commits under exactly one claim: a waiting message or a job")


def commit_in(conn: Connection, commit: TurnCommit, *, policy: Policy, agent_tz: str) -> bool:
    """Write the turn in the caller's transaction; False (nothing written) if its claim is lost."""
    if commit.waiting is not None and not pending.finish(conn, commit.waiting):
        return False
    if commit.job is not None and not decide_in(conn, commit.job, at=commit.at):
        return False
    compaction = commit.compaction
    if compaction is not None and count_in(conn, commit.thread_key) == compaction.expected_length:
        replace_prefix_in(
            conn, commit.thread_key, compaction.upto_seq, compaction.head, at=commit.at
        )
    append_in(conn, commit.thread_key, commit.history, at=commit.at)
    for effect in commit.effects:
        apply_effect(conn, effect, policy=policy, agent_tz=agent_tz, now=commit.at)
    return True


def release_in(
    conn: Connection, turn: WaitingTurn, *, retry_at: datetime, notice: Enqueue | None, at: datetime
) -> bool:
    """Give a failed turn's message back for a retry, and queue `notice` (once per message)."""
    if not pending.release(conn, turn, retry_at=retry_at):
        return False
    if notice is not None:
        enqueue_in(conn, outbox_values(notice, at))
    return True
