"""The errors a tool handler raises; `bot.agent.tools.toolbox.run_tool` makes each a JSON error.

Its message goes back to the model. `ask`, when a refusal carries one, is the
question only the person can answer (which city they are in): it goes into
the error as ``ask`` (with the instants it offers as ``choices``, where it offers
some), and a turn that ends on such an error asks it (`bot.agent`) instead of a
generic apology (docs/clock-spec.md §4.3).
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["BadArguments", "NotAvailable", "ZoneUnknown", "tool_error", "tool_result"]


class BadArguments(ValueError):
    """Arguments the model got wrong; `ask` is the question for the person, if any.

    `choices`, when the question picks one of a few instants (a time the clocks skip
    or repeat), are those instants as ISO text, in the order `ask` names them: the
    question kept as a value with the thread, so an answer is read against them.
    """

    def __init__(
        self, message: str, *, ask: str | None = None, choices: tuple[str, ...] = ()
    ) -> None:
        super().__init__(message)
        self.ask = ask
        self.choices = choices


class ZoneUnknown(BadArguments):
    """A wall-clock time while the person's zone is unknown; the error kind is ``zone_unknown``."""


class NotAvailable(Exception):
    """A tool that cannot act here: no outbox, or turned off by the person's policy."""


def tool_result(content: str | None) -> dict[str, Any]:
    """A tool result as the JSON object it is; {} if it is none."""
    try:
        data = json.loads(content or "")
    except json.JSONDecodeError:
        return {}
    return data if isinstance(data, dict) else {}


def tool_error(content: str | None) -> dict[str, Any]:
    """A tool result's error object (``error``, ``message``, maybe ``ask``); {} if it is none."""
    data = tool_result(content)
    return data if "error" in data else {}
