"""A repeat changed in place by a model that then writes no words is said by clockbot
(issue 61: "make it every other week"; `bot.agent.own_reply`)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bot.test_gateway import inbound
from tests.bot.test_text_calls import model_gateway
from tests.support.fake_llm import FakeLLMServer, Reply


async def test_a_rule_changed_with_no_words_after_says_what_was_set(tmp_path: Path) -> None:
    remind = Reply.tool_call("remind", json.dumps({"text": "call Sam", "when": "in 2 hours"}))
    change = Reply.tool_call(
        "remind", json.dumps({"id": "r1", "text": "call Sam", "when": "every day"})
    )
    async with FakeLLMServer() as server:
        server.script(remind, "I'll remind you.", change, "r1", "r1")
        async with model_gateway(server, tmp_path) as (gw, channel):
            assert channel.sink is not None
            await channel.sink(inbound("remind me in 2 hours to call Sam"))
            await gw.settle()
            await channel.sink(inbound("make it every day", message_id="m2"))
            await gw.settle()
        results = [
            json.loads(body["messages"][-1]["content"])
            for body in (r.json for r in server.completions)
            if body["messages"][-1]["role"] == "tool"
        ]
    changed = results[-1]
    assert changed["changed"] is True and changed["id"] == "r1", changed
    assert [sent.text for sent in channel.sent][-1] == (
        f"Set: call Sam, repeating; next: {changed['said'][0]}."
    )
