"""The chat template the local runs give Gemma 3 (bench/templates/gemma3-turns.jinja).

Rendered with jinja2 here; llama-server renders it with its own engine, and the
same conversation came out byte-identical from its /apply-template (docs/eval.md).
"""

from __future__ import annotations

from pathlib import Path

import jinja2

TEMPLATE = Path(__file__).resolve().parents[1] / "bench" / "templates" / "gemma3-turns.jinja"


def _render(messages: list[dict[str, str]], *, add_generation_prompt: bool = True) -> str:
    template = jinja2.Environment(autoescape=False).from_string(TEMPLATE.read_text())  # noqa: S701
    return template.render(messages=messages, add_generation_prompt=add_generation_prompt)


def test_gemma_turns_carry_the_system_text_in_the_first_user_turn() -> None:
    messages = [
        {"role": "system", "content": "SYS"},
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "yo"},
        {"role": "user", "content": "again"},
    ]
    assert _render(messages) == (
        "<start_of_turn>user\nSYS\n\nhi<end_of_turn>\n"
        "<start_of_turn>model\nyo<end_of_turn>\n"
        "<start_of_turn>user\nagain<end_of_turn>\n"
        "<start_of_turn>model\n"
    )


def test_a_conversation_grows_by_appending_so_its_prefix_stays_cached() -> None:
    """A turn's prompt starts with the previous turn's, byte for byte (the prompt cache)."""
    first = [{"role": "system", "content": "SYS"}, {"role": "user", "content": "hi"}]
    later = [*first, {"role": "assistant", "content": "yo"}, {"role": "user", "content": "x"}]
    before = _render(first, add_generation_prompt=False)
    assert _render(later).startswith(before)
    assert "<|im_start|>" not in before  # not ChatML
