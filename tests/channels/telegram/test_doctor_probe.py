"""`clockbot doctor` asks Telegram: ``getMe`` on the fake Bot API, with the real python-telegram-bot."""

from __future__ import annotations

from pathlib import Path

from pydantic import SecretStr

from bot.cli.doctor import diagnose
from bot.config.settings import LLMSettings, Settings, TelegramSettings
from tests.support.fake_telegram import FakeTelegram


def _settings(home: Path, token: str, api_url: str) -> Settings:
    telegram = TelegramSettings(token=SecretStr(token), api_url=api_url)  # type: ignore[arg-type]
    return Settings(home=home, llm=LLMSettings(provider="none"), telegram=telegram)


async def test_the_doctor_names_the_bot_getme_answered_for(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    checks = {c.name: c for c in await diagnose(_settings(tmp_path, tg.token, tg.api_url))}
    assert checks["telegram"].ok
    assert checks["telegram"].detail.endswith("; getMe: @clockbot_bot")
    assert [c.method for c in tg.calls] == ["getMe"]  # asked, nothing started


async def test_a_refused_token_fails_without_showing_it(tg: FakeTelegram, tmp_path: Path) -> None:
    wrong = "999:not-the-token"
    checks = {c.name: c for c in await diagnose(_settings(tmp_path, wrong, tg.api_url))}
    assert not checks["telegram"].ok
    assert checks["telegram"].detail.endswith("but telegram: the Bot API refused the token")
    assert "not-the-token" not in checks["telegram"].line()
