"""clockbot sends its own sampling with every request (issue 63, item 1; docs/configuration.md).

Through the real SDKs against the fake model server: what a request body carries is what
the server samples with.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.app.gateway import Gateway
from bot.config.settings import ConfigError, LLMSettings, Settings, load_settings
from bot.evaluation.run import write_report
from bot.llm import AnthropicProvider, Message, OpenAIProvider
from bot.llm.types import Sampling
from tests.bot.test_gateway import RecordingChannel, inbound
from tests.support.fake_llm import FakeLLMServer

BASE = {"CLOCKBOT_LLM_PROVIDER": "openai", "CLOCKBOT_LLM_MODEL": "m"}
T = "must be a number from 0 to 2, or server-default to send none"
P = "must be a number above 0 and at most 1, or server-default to send none"
LOCAL = BASE | {"CLOCKBOT_LLM_BASE_URL": "http://127.0.0.1:8080/v1"}
HOSTED = BASE | {"CLOCKBOT_LLM_API_KEY": "k"}


def _llm(tmp_path: Path, environ: dict[str, str]) -> LLMSettings:
    return load_settings(environ={"CLOCKBOT_HOME": str(tmp_path), **environ}).llm


async def test_every_request_of_a_turn_carries_clockbots_sampling(tmp_path: Path) -> None:
    """A local server at a base_url gets temperature 0.2 unless told otherwise, and top_p set."""
    async with FakeLLMServer() as server:
        server.script("Hello!")
        llm = LLMSettings(provider="openai", base_url=server.openai_base_url, model="m", top_p=0.9)
        channel = RecordingChannel()
        settings = Settings(home=tmp_path, http_port=0, llm=llm)
        async with Gateway(settings, channels=[channel]) as gateway:
            assert channel.sink is not None
            await channel.sink(inbound("hello there"))
            await gateway.settle()
        bodies = [request.json for request in server.completions]
    assert [sent.text for sent in channel.sent] == ["Hello!"]
    assert bodies and all((b["temperature"], b["top_p"]) == (0.2, 0.9) for b in bodies)


@pytest.mark.parametrize(
    ("sampling", "sent"),
    [
        (Sampling(0.0, 0.5), {"temperature": 0.0, "top_p": 0.5}),
        (Sampling(1.3), {"temperature": 1.3}),
        (Sampling(), {}),  # server-default: nothing of it in the body
    ],
)
async def test_the_openai_body_carries_what_is_set_and_nothing_else(
    sampling: Sampling, sent: dict[str, float]
) -> None:
    async with FakeLLMServer() as server:
        provider = OpenAIProvider(
            base_url=server.openai_base_url, model="m", api_key="k", sampling=sampling
        )
        await provider.complete([Message("user", "hi")], ())
        await provider.aclose()
        body = server.completions[-1].json
    assert {k: body[k] for k in ("temperature", "top_p") if k in body} == sent


@pytest.mark.parametrize(
    ("sampling", "sent"),
    [
        (Sampling(0.3), {"temperature": 0.3}),
        (Sampling(None, 0.8), {"top_p": 0.8}),
        (Sampling(), {}),
    ],
)
async def test_the_anthropic_body_carries_what_is_set(
    sampling: Sampling, sent: dict[str, float]
) -> None:
    async with FakeLLMServer() as server:
        provider = AnthropicProvider(
            base_url=server.anthropic_base_url, model="m", api_key="k", sampling=sampling
        )
        await provider.complete([Message("user", "hi")], ())
        await provider.aclose()
        body = server.completions[-1].json
    assert {k: body[k] for k in ("temperature", "top_p") if k in body} == sent


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        (LOCAL, Sampling(0.2)),  # a local server: clockbot's own, low for tool calls
        (HOSTED, Sampling()),  # a hosted API: its own
        (LOCAL | {"CLOCKBOT_LLM_TEMPERATURE": "server-default"}, Sampling()),
        (LOCAL | {"CLOCKBOT_LLM_TEMPERATURE": " Server-Default "}, Sampling()),
        (HOSTED | {"CLOCKBOT_LLM_TEMPERATURE": "0.7", "CLOCKBOT_LLM_TOP_P": "0.95"},
         Sampling(0.7, 0.95)),
        (LOCAL | {"CLOCKBOT_LLM_TEMPERATURE": "0", "CLOCKBOT_LLM_TOP_P": "server-default"},
         Sampling(0.0)),
        (LOCAL | {"CLOCKBOT_LLM_TEMPERATURE": "2", "CLOCKBOT_LLM_TOP_P": "1"}, Sampling(2.0, 1.0)),
    ],
)  # fmt: skip
def test_the_sampling_read_from_the_environment(
    tmp_path: Path, environ: dict[str, str], expected: Sampling
) -> None:
    assert _llm(tmp_path, environ).sampling == expected


def test_the_sampling_read_from_the_file(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text(
        "llm: {provider: openai, model: m, api_key: k, temperature: 0.4, top_p: 0.9}\n",
        encoding="utf-8",
    )
    assert _llm(tmp_path, {}).sampling == Sampling(0.4, 0.9)


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("CLOCKBOT_LLM_TEMPERATURE", "hot", T),
        ("CLOCKBOT_LLM_TEMPERATURE", "2.5", T),
        ("CLOCKBOT_LLM_TEMPERATURE", "-0.1", T),
        ("CLOCKBOT_LLM_TEMPERATURE", "nan", T),
        ("CLOCKBOT_LLM_TOP_P", "0", P),
        ("CLOCKBOT_LLM_TOP_P", "1.5", P),
        ("CLOCKBOT_LLM_TOP_P", "most", P),
    ],
)
def test_a_bad_sampling_value_is_a_clear_error_naming_its_setting(
    tmp_path: Path, name: str, value: str, said: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        _llm(tmp_path, LOCAL | {name: value})
    [(field, message)] = caught.value.problems
    assert name in field and "from the environment" in field
    assert message == said  # the value is not quoted


def test_anthropic_takes_a_temperature_up_to_one(tmp_path: Path) -> None:
    anthropic = {"CLOCKBOT_LLM_PROVIDER": "anthropic", "CLOCKBOT_LLM_MODEL": "m"}
    anthropic |= {"CLOCKBOT_LLM_API_KEY": "k"}
    assert _llm(tmp_path, anthropic | {"CLOCKBOT_LLM_TEMPERATURE": "1"}).sampling == Sampling(1.0)
    with pytest.raises(ConfigError, match="Anthropic takes a temperature from 0 to 1"):
        _llm(tmp_path, anthropic | {"CLOCKBOT_LLM_TEMPERATURE": "1.5"})


@pytest.mark.parametrize(
    ("sampling", "line", "data"),
    [
        (Sampling(0.2), "Sampling: temperature 0.2, top_p server default.",
         {"temperature": 0.2, "top_p": None}),
        (Sampling(), "Sampling: temperature server default, top_p server default.",
         {"temperature": None, "top_p": None}),
        (None, "Sampling: none (no model).", None),
    ],
)  # fmt: skip
def test_the_eval_report_says_the_sampling_it_ran_with(
    tmp_path: Path, sampling: Sampling | None, line: str, data: object
) -> None:
    report = tmp_path / "report.md"
    written = write_report({"wrapper": []}, report, about="Model: openai m", sampling=sampling)
    assert line in report.read_text(encoding="utf-8").splitlines()
    assert json.loads(written.read_text(encoding="utf-8"))["sampling"] == data
