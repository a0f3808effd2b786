"""The agent: one turn of the model with its tools, and what keeps its words true.

- `bot.agent.turn`: `Agent`, a turn as a function of its inputs (envelope, history,
  text → messages and effects), and a proactive job's decision.
- `bot.agent.compaction`: past the budget, older turns become one summary.
- `bot.agent.conversation`: one turn's rounds with the model, and the ordered list of
  repairs (empty answer, a change left undone, machinery or no words, a reply passed
  on, the same refused call again) that keep what it says true.
- `bot.agent.asks`: what a turn asks the model and the person, and what its calls said.

The names below are what the rest of clockbot uses; the modules are the agent's own.
They load on first use: the agent's tools and claims (`bot.agent.tools`, `bot.agent.claims`)
are imported by the rules agent, which the agent itself imports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from clockcore.lazy import lazy_names

if TYPE_CHECKING:
    from bot.agent.asks import speak_up
    from bot.agent.compaction import (
        COMPACT_AFTER_CHARS,
        CONTEXT_SHARE,
        KEEP_RECENT,
        SUMMARY_AGAIN,
        SUMMARY_PROMPT,
    )
    from bot.agent.conversation import MAX_TOOL_ROUNDS
    from bot.agent.turn import (
        RETRY_LEASE,
        Agent,
        ProactiveOutput,
        TurnOutput,
        message_to_stored,
        stored_to_message,
    )

__all__ = [
    "COMPACT_AFTER_CHARS",
    "CONTEXT_SHARE",
    "KEEP_RECENT",
    "MAX_TOOL_ROUNDS",
    "RETRY_LEASE",
    "SUMMARY_AGAIN",
    "SUMMARY_PROMPT",
    "Agent",
    "ProactiveOutput",
    "TurnOutput",
    "message_to_stored",
    "speak_up",
    "stored_to_message",
]

_HOME = {
    "speak_up": "bot.agent.asks",
    "COMPACT_AFTER_CHARS": "bot.agent.compaction",
    "CONTEXT_SHARE": "bot.agent.compaction",
    "KEEP_RECENT": "bot.agent.compaction",
    "SUMMARY_AGAIN": "bot.agent.compaction",
    "SUMMARY_PROMPT": "bot.agent.compaction",
    "MAX_TOOL_ROUNDS": "bot.agent.conversation",
    "RETRY_LEASE": "bot.agent.turn",
    "Agent": "bot.agent.turn",
    "ProactiveOutput": "bot.agent.turn",
    "TurnOutput": "bot.agent.turn",
    "message_to_stored": "bot.agent.turn",
    "stored_to_message": "bot.agent.turn",
}

__getattr__ = lazy_names(__name__, _HOME, globals())
