"""After kill -9, a restart answers what the killed worker held within seconds, on both stores.

`clockbot run` (a child process) with the fake Telegram Bot API and a model that thinks 3 s
per request and calls the three writing tools. Four people write; the process is SIGKILLed
while their turns are with the model, then started again on the same store. Every message
must be answered once, each within RESTART_DEADLINE of the restart (the worker's heartbeat
stops, so its claims are free: no lease is waited out). The effects stored once are the
kill -9 and crash-point tests' business.
The second test does the same to due reminders: the worker is killed while it holds their
outbox jobs (one of them with the model, deciding its proactive turn), and every reminder
must be sent once within RESTART_DEADLINE of the restart, not after the claim's lease.
Issue "The middle floor", acceptance "After a restart", on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from tests.bot.test_kill9 import CONFIG, ENV, wait_ready
from tests.support.bot_process import BotProcess
from tests.support.fake_llm import FakeLLMServer, Responder
from tests.support.fake_telegram import FakeTelegram

RESTART_DEADLINE = 15.0
"""Seconds from the restart to the answer of every message the killed worker held."""
PEOPLE = 4
ANSWER = re.compile(r"^answer to msg (\d+)$")


@pytest.mark.slow
@pytest.mark.long  # its deadline is the kill -9 tests' (15 s), met beside the niced parallel phase
@pytest.mark.timeout(240)
async def test_a_restart_answers_what_the_killed_worker_held_within_seconds(
    tmp_path: Path, database_url: str
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(CONFIG)
    responder = Responder(delay=(3.0, 3.0))
    async with FakeTelegram() as tg, FakeLLMServer(responder=responder) as llm:
        env = {
            **ENV,
            "CLOCKBOT_HOME": str(tmp_path / "home"),
            "CLOCKBOT_DATABASE_URL": database_url,
            "CLOCKBOT_LLM_BASE_URL": llm.openai_base_url,
            "CLOCKBOT_TELEGRAM_TOKEN": tg.token,
            "CLOCKBOT_TELEGRAM_API_URL": tg.api_url,
        }
        bot = BotProcess(env=env, log=tmp_path / "clockbot.log", args=("--config", str(config)))
        loop = asyncio.get_running_loop()
        try:
            ready = await wait_ready(tg, bot, await bot.start())
            for n in range(PEOPLE):
                tg.private(tg.user(6000 + n, f"person{n}"), f"msg {n}")
            # Kill while every turn is with the model: nothing of theirs is committed yet.
            for _ in range(400):
                held = responder.in_flight(loop.time())
                if len({c.n for c in held if c.started >= ready and not c.proactive}) == PEOPLE:
                    break
                await asyncio.sleep(0.02)
            else:
                pytest.fail(f"the turns never reached the model:\n{bot.log_tail()}")
            await bot.kill()
            assert not [s for s in tg.sent if ANSWER.match(s.plain)]  # nothing answered yet
            restart = await bot.start()
            answered: dict[int, float] = {}
            for _ in range(int(3 * RESTART_DEADLINE / 0.1)):
                answered = {int(m[1]): s.at for s in tg.sent if (m := ANSWER.match(s.plain))}
                if len(answered) == PEOPLE:
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(2.0)  # a second answer, were there one, would be out by now
            answers = [int(m[1]) for s in tg.sent if (m := ANSWER.match(s.plain))]
        finally:
            await bot.stop()
    assert sorted(answers) == list(range(PEOPLE)), bot.log_tail()  # each once
    late = {
        n: round(at - restart, 1) for n, at in answered.items() if at - restart > RESTART_DEADLINE
    }
    assert not late, f"answered later than {RESTART_DEADLINE} s after the restart: {late}"


REMINDER = re.compile(r"^due now: reminder (\d+)$")


@pytest.mark.slow
@pytest.mark.long  # its deadline is the kill -9 tests' (15 s), met beside the niced parallel phase
@pytest.mark.timeout(240)
async def test_a_restart_sends_the_due_jobs_the_killed_worker_held_within_seconds(
    tmp_path: Path, database_url: str
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(CONFIG)
    # Answers at once; each reminder comes due 4 s later and its proactive turn thinks 20 s
    # (far past the kill), then, after the restart, half a second.
    responder = Responder(delay=(0.1, 0.1), remind_in="in 4 seconds", proactive_delay=20.0)
    async with FakeTelegram() as tg, FakeLLMServer(responder=responder) as llm:
        env = {
            **ENV,
            "CLOCKBOT_HOME": str(tmp_path / "home"),
            "CLOCKBOT_DATABASE_URL": database_url,
            "CLOCKBOT_LLM_BASE_URL": llm.openai_base_url,
            "CLOCKBOT_TELEGRAM_TOKEN": tg.token,
            "CLOCKBOT_TELEGRAM_API_URL": tg.api_url,
        }
        bot = BotProcess(env=env, log=tmp_path / "clockbot.log", args=("--config", str(config)))
        loop = asyncio.get_running_loop()
        try:
            await wait_ready(tg, bot, await bot.start())
            for n in range(PEOPLE):
                tg.private(tg.user(7000 + n, f"person{n}"), f"msg {n}")
            for _ in range(600):  # until a reminder's job is claimed and with the model
                if any(c.proactive for c in responder.in_flight(loop.time())):
                    break
                await asyncio.sleep(0.02)
            else:
                pytest.fail(f"no reminder reached the model:\n{bot.log_tail()}")
            await bot.kill()
            assert not [s for s in tg.sent if REMINDER.match(s.plain)]  # none sent yet
            assert len([s for s in tg.sent if ANSWER.match(s.plain)]) == PEOPLE
            responder.proactive_delay = 0.5
            restart = await bot.start()
            sent: dict[int, float] = {}
            for _ in range(int(3 * RESTART_DEADLINE / 0.1)):
                sent = {int(m[1]): s.at for s in tg.sent if (m := REMINDER.match(s.plain))}
                if len(sent) == PEOPLE:
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(2.0)  # a second send, were there one, would be out by now
            reminders = [int(m[1]) for s in tg.sent if (m := REMINDER.match(s.plain))]
        finally:
            await bot.stop()
    assert sorted(reminders) == list(range(PEOPLE)), bot.log_tail()  # each once
    late = {n: round(at - restart, 1) for n, at in sent.items() if at - restart > RESTART_DEADLINE}
    assert not late, f"sent later than {RESTART_DEADLINE} s after the restart: {late}"
