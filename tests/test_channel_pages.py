"""Each channel page says what people get without a model, and Telegram's ends with the
line that runs it (issue 61, "The first hour")."""

from __future__ import annotations

from pathlib import Path

import pytest

CHANNELS = Path(__file__).resolve().parents[1] / "docs" / "channels"


@pytest.mark.parametrize("page", sorted(CHANNELS.glob("*.md")), ids=lambda p: p.stem)
def test_every_channel_page_says_what_people_get_without_a_model(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert "**Without a model**" in text, page.name
    assert "mostly English" not in text, page.name  # the rules agent speaks seven languages


def test_the_telegram_page_ends_with_the_line_that_runs_it() -> None:
    lines = (CHANNELS / "telegram.md").read_text(encoding="utf-8").rstrip().splitlines()
    assert lines[-1] == "```"
    assert lines[-2].endswith("clockbot run"), lines[-2]


def test_there_are_channel_pages() -> None:
    assert {p.stem for p in CHANNELS.glob("*.md")} >= {"telegram", "slack", "email"}
