"""Markdown → mrkdwn, splitting, and Slack's text back to plain: table tests."""

from __future__ import annotations

import pytest

from channels.slack.render import PART_LIMIT, from_slack, split_markdown, to_mrkdwn, to_parts


@pytest.mark.parametrize(
    ("markdown", "mrkdwn"),
    [
        ("**bold** and __bold__", "*bold* and *bold*"),
        ("*it* and _it_", "_it_ and _it_"),
        ("***both***", "*_both_*"),
        ("~~gone~~", "~gone~"),
        (
            "[the docs](https://example.org/a?b=1&c=2)",
            "<https://example.org/a?b=1&amp;c=2|the docs>",
        ),
        ("<https://example.org>", "<https://example.org>"),
        ("a < b & c > d", "a &lt; b &amp; c &gt; d"),
        (
            "<@U123> is not a mention from the agent",
            "&lt;@U123&gt; is not a mention from the agent",
        ),
        ("# Title\ntext", "*Title*\ntext"),
        ("- one\n- two", "• one\n• two"),
        ("`a **b** <c>`", "`a **b** &lt;c&gt;`"),
        ("```python\nx = a < b ** 2\n```", "```x = a &lt; b ** 2\n```"),
        ("snake_case_name stays", "snake_case_name stays"),
        ("2 * 3 * 4", "2 * 3 * 4"),
        ("", ""),
    ],
)
def test_markdown_becomes_mrkdwn(markdown: str, mrkdwn: str) -> None:
    assert to_mrkdwn(markdown) == mrkdwn


def test_short_text_is_one_part() -> None:
    assert split_markdown("hello") == ["hello"]
    assert split_markdown("  \n ") == []


def test_long_text_is_cut_at_paragraphs_under_the_limit() -> None:
    paragraphs = [f"Paragraph {n}. " + "word " * 150 for n in range(12)]
    parts = split_markdown("\n\n".join(paragraphs))
    assert len(parts) > 1
    assert all(len(part) <= PART_LIMIT for part in parts)
    assert all(part.startswith("Paragraph") for part in parts)  # never mid-paragraph
    assert " ".join(" ".join(parts).split()) == " ".join(" ".join(paragraphs).split())


def test_a_single_long_paragraph_is_cut_at_sentences() -> None:
    text = " ".join(f"Sentence number {n} is here." for n in range(400))
    parts = split_markdown(text, limit=500)
    assert all(len(part) <= 500 for part in parts)
    assert all(part.endswith(".") for part in parts)


def test_text_without_spaces_is_cut_hard() -> None:
    parts = split_markdown("x" * 1200, limit=500)
    assert "".join(parts) == "x" * 1200
    assert all(len(part) <= 500 for part in parts)


def test_a_code_fence_cut_in_two_is_closed_and_reopened() -> None:
    code = "\n".join(f"line {n}" for n in range(200))
    parts = split_markdown(f"Here:\n```\n{code}\n```\nDone.", limit=400)
    assert len(parts) > 2
    for part in parts:
        assert part.count("```") % 2 == 0, part


def test_parts_stay_under_slacks_limit_even_when_escaping_grows_them() -> None:
    parts = to_parts("<&>" * 3000)
    assert all(len(part) <= 4000 for part in parts)
    assert "".join(parts) == "&lt;&amp;&gt;" * 3000


@pytest.mark.parametrize(
    ("slack", "plain"),
    [
        ("<@UBOT> what time is it", "what time is it"),
        ("hey <@UBOT|clockbot>, remind me", "hey , remind me"),
        ("ask <@U2>", "ask @U2"),
        ("see <https://example.org|the site>", "see the site (https://example.org)"),
        ("see <https://example.org>", "see https://example.org"),
        ("in <#C1|general>", "in #general"),
        ("<!here> meeting", "@here meeting"),
        ("mail <mailto:a@b.org|a@b.org>", "mail a@b.org"),
        ("a &lt; b &amp;&amp; c &gt; d", "a < b && c > d"),
        ("&amp;lt; stays literal", "&lt; stays literal"),
    ],
)
def test_slack_text_becomes_plain(slack: str, plain: str) -> None:
    assert from_slack(slack, bot_user_id="UBOT") == plain
