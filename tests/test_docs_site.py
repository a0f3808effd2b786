"""The documentation site builds without a warning, has the pages the README points to,
and its configuration reference is the settings model's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config.reference import BEGIN, meanings, reference, rewrite
from bot.config.settings import ENV_VARS

ROOT = Path(__file__).resolve().parents[1]
PAGES = (
    "index", "talking", "reminders", "time-rules", "web", "data", "channels/console",
    "channels/telegram", "channels/slack", "channels/email", "configuration", "local-models",
    "deployment",
    "limits", "metrics", "eval", "SECURITY", "ARCHITECTURE", "clock-spec", "development",
)  # fmt: skip


def test_the_site_builds_strictly_with_every_page(tmp_path: Path) -> None:
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
         "-f", str(ROOT / "mkdocs.yml"), "-d", str(site)],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    built = {page: site / ("" if page == "index" else page) / "index.html" for page in PAGES}
    assert not [page for page, path in built.items() if not path.is_file()]
    assert "CLOCKBOT_TELEGRAM_WEBHOOK_SECRET" in (site / "configuration" / "index.html").read_text()


def test_the_configuration_page_holds_the_current_reference() -> None:
    page = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert BEGIN in page
    assert rewrite(page) == page, "run: python -m bot.config.reference --write"


def test_every_variable_is_in_the_reference_with_a_meaning() -> None:
    text = reference()
    for variable in ENV_VARS:
        line = next(row for row in text.splitlines() if row.startswith(f"| `{variable}` |"))
        assert not line.endswith("|  |"), (
            f"{variable} has no meaning: document it in bot/config/settings.py"
        )


def test_a_meaning_is_read_whole_from_its_docstring() -> None:
    from pydantic import BaseModel

    class Example(BaseModel):
        """An example.

        Attributes:
            first: one line.
            second: starts here
                and goes on here; None is the default.
        """

        first: int = 1
        second: int = 2

    assert meanings(Example) == {
        "first": "one line.",
        "second": "starts here and goes on here; unset is the default.",
    }


@pytest.mark.parametrize("broken", ["no markers here", BEGIN + " but no end"])
def test_a_page_without_the_block_is_refused(broken: str) -> None:
    with pytest.raises(ValueError, match="settings reference"):
        rewrite(broken)


def test_the_slack_manifest_turns_on_what_the_adapter_uses() -> None:
    """Issue 61: the documented manifest had interactivity off, so no button ever worked."""
    import re

    import yaml

    page = (ROOT / "docs" / "channels" / "slack.md").read_text(encoding="utf-8")
    [block] = re.findall(r"```yaml\n(.*?)```", page, flags=re.DOTALL)
    manifest = yaml.safe_load(block)
    settings = manifest["settings"]
    assert settings["interactivity"]["is_enabled"] is True
    assert settings["socket_mode_enabled"] is True
    assert {"app_mention", "message.im"} <= set(settings["event_subscriptions"]["bot_events"])
    scopes = set(manifest["oauth_config"]["scopes"]["bot"])
    assert {"app_mentions:read", "chat:write", "im:history", "users:read"} <= scopes
