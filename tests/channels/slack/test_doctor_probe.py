"""`clockbot doctor` asks Slack: ``auth.test`` and, in Socket Mode, ``apps.connections.open``."""

from __future__ import annotations

from pathlib import Path

from pydantic import SecretStr

from bot.cli.doctor import diagnose
from bot.config.settings import LLMSettings, Settings, SlackSettings
from tests.support.fake_slack import FakeSlack


def _settings(home: Path, slack: FakeSlack, *, bot_token: str) -> Settings:
    group = SlackSettings(
        bot_token=SecretStr(bot_token), app_token=SecretStr(slack.app_token), api_url=slack.api_url
    )
    return Settings(home=home, llm=LLMSettings(provider="none"), slack=group)


async def test_the_doctor_names_the_team_and_checks_the_app_token(
    slack: FakeSlack, tmp_path: Path
) -> None:
    checks = {
        c.name: c for c in await diagnose(_settings(tmp_path, slack, bot_token=slack.bot_token))
    }
    assert checks["slack"].ok, checks["slack"].detail
    assert "; auth.test: team " in checks["slack"].detail
    assert checks["slack"].detail.endswith("the app token opens Socket Mode")
    assert slack.connections == 0  # asked, nothing connected


async def test_a_refused_bot_token_fails_without_showing_it(
    slack: FakeSlack, tmp_path: Path
) -> None:
    checks = {c.name: c for c in await diagnose(_settings(tmp_path, slack, bot_token="xoxb-wrong"))}
    assert not checks["slack"].ok
    assert "), but slack: auth.test" in checks["slack"].detail
    assert "xoxb-wrong" not in checks["slack"].line()
