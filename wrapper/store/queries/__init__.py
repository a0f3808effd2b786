"""The store's statements, one module per noun (SQLAlchemy Core on `wrapper.store.tables`).

- `per_message`: what every message reads and stamps (statements built once per dialect);
- `people`: people and their identities, linked and split;
- `threads`, `actions`, `memory`: those rows, for the effects and the tools;
- `common`: rows as dataclasses, derived person ids, dialect inserts.

Callers take them from here (``from wrapper import queries as q``; ``q.person_for``).
The tables themselves are `wrapper.store.tables`.
"""

from wrapper.store.queries.actions import (
    action_row,
    calibration_for,
    compact_actions,
    compacted,
    has_action,
    insert_action,
    record_action,
    set_action_status,
)
from wrapper.store.queries.common import insert_for, own_user_id, row_as
from wrapper.store.queries.memory import (
    delete_memory,
    insert_memory,
    mark_reminded,
    memory_item,
    memory_newest_first,
)
from wrapper.store.queries.people import (
    merge_people,
    name_identity,
    person_for,
    split_identity,
    update_person,
)
from wrapper.store.queries.per_message import (
    REMINDER_KINDS,
    UPCOMING_LIMIT,
    journal_message,
    load_person,
    load_thread,
    open_actions,
    stamp_identity,
    stamp_participant,
    stamp_person,
    stamp_thread,
    upcoming,
)
from wrapper.store.queries.threads import set_thread_zone, update_thread

__all__ = [
    "REMINDER_KINDS",
    "UPCOMING_LIMIT",
    "action_row",
    "calibration_for",
    "compact_actions",
    "compacted",
    "delete_memory",
    "has_action",
    "insert_action",
    "insert_for",
    "insert_memory",
    "journal_message",
    "load_person",
    "load_thread",
    "mark_reminded",
    "memory_item",
    "memory_newest_first",
    "merge_people",
    "name_identity",
    "open_actions",
    "own_user_id",
    "person_for",
    "record_action",
    "row_as",
    "set_action_status",
    "set_thread_zone",
    "split_identity",
    "stamp_identity",
    "stamp_participant",
    "stamp_person",
    "stamp_thread",
    "upcoming",
    "update_person",
    "update_thread",
]
