"""One IMAP reader among two workers on one PostgreSQL, taken over when the reader stops.

Two gateways share a real PostgreSQL store and the bot's mailbox on a real Dovecot. Only the
worker leading ``email:<address>`` reads it; when that worker stops, the other reads on from the
UID the store keeps and answers the next mail, once. Issue 14, "One reader".
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.app.gateway import Gateway
from bot.config.settings import Settings
from tests.channels.email.conftest import ALICE, BOT, letter, make_channel, submit
from tests.support.leading import until_reading
from tests.support.mail import DovecotServer, SmtpSink


@pytest.mark.peer("postgres")
async def test_one_mailbox_reader_among_two_workers_and_the_other_reads_on_after_a_stop(
    tmp_path: Path, dovecot: DovecotServer, mail: SmtpSink, postgres_url: str
) -> None:
    def worker(name: str) -> Gateway:
        home = tmp_path / name
        home.mkdir()
        settings = Settings(home=home, database_url=postgres_url, http_port=0)
        return Gateway(settings, channels=[make_channel(dovecot, mail)], poll_interval=0.2)

    first, second = worker("a"), worker("b")
    name = f"email:{BOT}"
    await first.start()
    try:
        await second.start()
        try:
            assert first.intake is not None and second.intake is not None
            assert (first.intake.status(), second.intake.status()) == ({name: True}, {name: False})
            await submit(mail, letter("what time is it in Tokyo"))
            await mail.wait_for(ALICE, 1)

            await first.stop()
            await until_reading(second, name)
            await submit(mail, letter("what time is it in Lisbon", message_id="<m2@example.test>"))
            answers = await mail.wait_for(ALICE, 2)
            await asyncio.sleep(1.0)  # the new reader had its look at the older mail too
            await second.settle()
        finally:
            await second.stop()
    finally:
        await first.stop()
    assert "Asia/Tokyo" in answers[0].get_content()
    assert "Europe/Lisbon" in answers[1].get_content()
    assert len(mail.to(ALICE)) == 2  # the first mail was not answered again
