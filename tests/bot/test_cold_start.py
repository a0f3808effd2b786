"""The CLI starts at once: ``clockbot --help`` and ``clockbot time …`` load no store and no SDK.

Each command runs in a fresh interpreter under ``python -X importtime``, and the modules it
loaded are read from that report. How fast it starts is measured by
``bench/startup_bench.py``, not here (tests assert no durations).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("openai", "anthropic", "sqlalchemy", "alembic", "asyncpg", "aiohttp",
         "pydantic_settings", "telegram", "slack_bolt", "jinja2", "jsonschema")  # fmt: skip
"""What a command that needs no store, no model and no channel must not import."""


def _imported(*arguments: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "bot.cli.main", *arguments],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode in (0, 1, 2), done.stderr[-2000:]
    names = set()
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    assert names, "python -X importtime reported nothing"
    return names


def _roots(names: set[str]) -> set[str]:
    return {name.split(".", 1)[0] for name in names}


@pytest.mark.parametrize(
    "arguments",
    [("--help",), ("time", "now", "--tz", "Asia/Tokyo"), ("time", "parse", "tomorrow at 9")],
)
def test_help_and_the_time_commands_load_no_store_and_no_sdk(arguments: tuple[str, ...]) -> None:
    loaded = _imported(*arguments)
    assert "bot.cli.outbox_cli" in loaded  # the command line was built
    assert not (_roots(loaded) & set(HEAVY)), sorted(_roots(loaded) & set(HEAVY))
    assert "wrapper.core" not in loaded
    assert "bot.config.settings" not in loaded


def test_the_import_check_sees_a_heavy_module() -> None:
    """The check itself: a command that opens the store does load SQLAlchemy."""
    loaded = _imported("outbox", "--limit", "1", "--config", "/nonexistent/config.yaml")
    assert "sqlalchemy" in _roots(loaded) or "pydantic_settings" in _roots(loaded)
