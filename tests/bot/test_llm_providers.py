"""The LLM providers, through the real SDKs, against the local fake server (tests/support)."""

from __future__ import annotations

import copy
import json
import socket
import time
from collections.abc import AsyncIterator, Callable, Mapping
from types import MappingProxyType
from typing import Any

import anthropic
import openai
import pytest

from bot.llm import (
    AnthropicProvider,
    LLMError,
    LLMRateLimited,
    LLMRequestError,
    LLMServerError,
    LLMUnavailable,
    Message,
    OpenAIProvider,
    Provider,
    ToolCall,
    ToolSpec,
)
from bot.llm.errors import parse_retry_after
from tests.support.fake_llm import FakeLLMServer, Reply, ScriptedToolCall

KEY = "sk-test-SECRET-0123456789abcdef"
SYSTEM = "You are clockbot. Be brief."
TIME_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"tz": {"type": "string", "description": "IANA zone"}},
    "required": ["tz"],
}
TOOLS = (
    ToolSpec("get_time", "The current time in a zone.", MappingProxyType(TIME_SCHEMA)),
    ToolSpec("remember", "Store a note.", {"type": "object", "properties": {}}),
)
HISTORY = (
    Message("system", SYSTEM),
    Message("user", "hi"),
    Message("assistant", "Hello!"),
    Message("user", "what time is it in Tokyo?"),
)
KINDS = ("openai", "anthropic")

Factory = Callable[..., Provider]


def _strip_cache_control(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_cache_control(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_strip_cache_control(item) for item in value]
    return value


def _assert_no_key(exc: BaseException) -> None:
    assert KEY not in str(exc)
    assert KEY not in repr(exc)
    assert KEY not in str(exc.args)


@pytest.fixture
async def server() -> AsyncIterator[FakeLLMServer]:
    async with FakeLLMServer() as fake:
        yield fake


@pytest.fixture
async def make(server: FakeLLMServer) -> AsyncIterator[Factory]:
    """Build providers of a kind against the fake server; all are closed after the test."""
    made: list[Provider] = []

    def factory(kind: str, **options: Any) -> Provider:
        options.setdefault("api_key", KEY)
        options.setdefault("max_retries", 0)
        options.setdefault("timeout", 5)
        provider: Provider
        if kind == "openai":
            options.setdefault("base_url", server.openai_base_url)
            provider = OpenAIProvider(model="fake-model", **options)
        else:
            options.setdefault("base_url", server.anthropic_base_url)
            provider = AnthropicProvider(model="fake-model", **options)
        made.append(provider)
        return provider

    yield factory
    for provider in made:
        await provider.aclose()


def _sent_key(headers: Mapping[str, str]) -> str | None:
    """The key as the Anthropic SDK sent it (`x-api-key`, or a bearer token in newer SDKs)."""
    if "x-api-key" in headers:
        return headers["x-api-key"]
    return headers.get("authorization", "").removeprefix("Bearer ") or None


def _closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


# --- replies ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
async def test_text_reply_and_usage(kind: str, server: FakeLLMServer, make: Factory) -> None:
    server.script(Reply.text("It is noon.", prompt_tokens=100, cached_tokens=80))
    completion = await make(kind).complete(HISTORY, TOOLS)
    assert completion.message == Message("assistant", "It is noon.")
    assert (completion.prompt_tokens, completion.cached_tokens) == (100, 80)
    assert completion.completion_tokens == 5
    assert completion.stop_reason == ("stop" if kind == "openai" else "end_turn")
    (request,) = server.completions
    assert request.json["model"] == "fake-model"
    if kind == "openai":
        assert request.path == "/v1/chat/completions"
        assert request.headers["Authorization"] == f"Bearer {KEY}"
    else:
        assert request.path == "/v1/messages"
        assert _sent_key(request.headers) == KEY
        assert request.json["max_tokens"] == 1024


@pytest.mark.parametrize("kind", KINDS)
async def test_empty_script_answers_the_default(
    kind: str, server: FakeLLMServer, make: Factory
) -> None:
    completion = await make(kind).complete(HISTORY[:2], ())
    assert completion.message.content == server.default_text
    assert "tools" not in server.completions[0].json


async def test_no_api_key_sends_a_placeholder(server: FakeLLMServer, make: Factory) -> None:
    await make("openai", api_key=None).complete(HISTORY[:2], TOOLS)
    await make("anthropic", api_key=None).complete(HISTORY[:2], TOOLS)
    openai_request, anthropic_request = server.completions
    assert openai_request.headers["Authorization"] == "Bearer no-key"
    assert _sent_key(anthropic_request.headers) == "no-key"


# --- tool calls ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
async def test_tool_call_round_trip(kind: str, server: FakeLLMServer, make: Factory) -> None:
    server.script(Reply.tool_call("get_time", '{"tz": "Asia/Tokyo"}', id="call_7"), "Noon.")
    provider = make(kind)
    first = await provider.complete(HISTORY, TOOLS)
    call = ToolCall("call_7", "get_time", '{"tz": "Asia/Tokyo"}')
    assert first.message == Message("assistant", "", tool_calls=(call,))
    assert first.stop_reason == ("tool_calls" if kind == "openai" else "tool_use")

    result = Message("tool", '{"now": "12:00"}', tool_call_id="call_7")
    second = await provider.complete((*HISTORY, first.message, result), TOOLS)
    assert second.message.content == "Noon."

    body = server.completions[1].json
    if kind == "openai":
        assert body["messages"][-2:] == [
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_7",
                        "type": "function",
                        "function": {"name": "get_time", "arguments": '{"tz": "Asia/Tokyo"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_7", "content": '{"now": "12:00"}'},
        ]
        assert body["tools"][0] == {
            "type": "function",
            "function": {
                "name": "get_time",
                "description": "The current time in a zone.",
                "parameters": TIME_SCHEMA,
            },
        }
    else:
        assert _strip_cache_control(body["messages"][-2:]) == [
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "call_7",
                        "name": "get_time",
                        "input": {"tz": "Asia/Tokyo"},
                    }
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "call_7", "content": '{"now": "12:00"}'}
                ],
            },
        ]
        assert _strip_cache_control(body["tools"][0]) == {
            "name": "get_time",
            "description": "The current time in a zone.",
            "input_schema": TIME_SCHEMA,
        }


async def test_anthropic_merges_tool_results_into_one_user_turn(
    server: FakeLLMServer, make: Factory
) -> None:
    server.script(
        Reply.calls(ScriptedToolCall("get_time", '{"tz": "UTC"}'), ScriptedToolCall("remember"))
    )
    provider = make("anthropic")
    first = await provider.complete(HISTORY, TOOLS)
    assert [call.name for call in first.message.tool_calls] == ["get_time", "remember"]
    assert [call.arguments for call in first.message.tool_calls] == ['{"tz": "UTC"}', "{}"]
    results = [Message("tool", "ok", tool_call_id=call.id) for call in first.message.tool_calls]
    await provider.complete((*HISTORY, first.message, *results), TOOLS)
    messages = server.completions[1].json["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant", "user"]
    assert [block["tool_use_id"] for block in messages[-1]["content"]] == [
        call.id for call in first.message.tool_calls
    ]


async def test_anthropic_sends_unparseable_arguments_as_an_empty_object(
    server: FakeLLMServer, make: Factory
) -> None:
    broken = Message("assistant", "", tool_calls=(ToolCall("t1", "get_time", "{not json"),))
    history = (*HISTORY, broken, Message("tool", "bad arguments", tool_call_id="t1"))
    await make("anthropic").complete(history, TOOLS)
    tool_use = server.completions[0].json["messages"][-2]["content"][0]
    assert tool_use["input"] == {}


@pytest.mark.parametrize("kind", KINDS)
async def test_unexpressible_messages_are_request_errors(kind: str, make: Factory) -> None:
    with pytest.raises(LLMRequestError):
        await make(kind).complete((*HISTORY, Message("tool", "orphan")), TOOLS)


async def test_anthropic_allows_the_system_message_only_first(make: Factory) -> None:
    with pytest.raises(LLMRequestError):
        await make("anthropic").complete((*HISTORY, Message("system", "late")), TOOLS)


# --- determinism and the cache prefix -----------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
async def test_same_inputs_give_byte_identical_requests(
    kind: str, server: FakeLLMServer, make: Factory
) -> None:
    schema_before = copy.deepcopy(dict(TOOLS[1].parameters))
    provider = make(kind)
    await provider.complete(HISTORY, TOOLS)
    await provider.complete(HISTORY, TOOLS)
    await make(kind).complete(HISTORY, TOOLS)  # a restart builds the same bytes too
    await make(kind).complete(list(HISTORY), tuple(TOOLS))  # equal but new sequences
    bodies = {request.body for request in server.completions}
    assert len(bodies) == 1
    assert dict(TOOLS[1].parameters) == schema_before  # the caller's schema is untouched
    assert "cache_control" not in TOOLS[1].parameters


@pytest.mark.parametrize("kind", KINDS)
async def test_appended_request_starts_with_the_previous_one(
    kind: str, server: FakeLLMServer, make: Factory
) -> None:
    provider = make(kind)
    first = await provider.complete(HISTORY, TOOLS)
    longer = (*HISTORY, first.message, Message("user", "and in Berlin?"))
    await provider.complete(longer, TOOLS)
    before, after = (request.json for request in server.completions)
    if kind == "anthropic":  # the cache breakpoints move; the content does not
        before, after = _strip_cache_control(before), _strip_cache_control(after)
        assert before["system"] == after["system"]
    assert after["messages"][: len(before["messages"])] == before["messages"]
    assert len(after["messages"]) == len(before["messages"]) + 2
    assert after["tools"] == before["tools"]


async def test_anthropic_cache_breakpoints(server: FakeLLMServer, make: Factory) -> None:
    await make("anthropic").complete((*HISTORY, Message("assistant", "Checking.")), TOOLS)
    body = server.completions[0].json
    ephemeral = {"type": "ephemeral"}
    assert body["system"] == [{"type": "text", "text": SYSTEM, "cache_control": ephemeral}]
    assert body["tools"][-1]["cache_control"] == ephemeral
    assert "cache_control" not in body["tools"][0]
    marked = [
        (index, block_index)
        for index, message in enumerate(body["messages"])
        for block_index, block in enumerate(message["content"])
        if "cache_control" in block
    ]
    # The second-to-last user turn (the previous request's end) and the final message.
    assert marked == [(0, 0), (3, 0)]
    assert body["messages"][2]["role"] == "user"  # the last user turn is not marked here
    assert len(marked) + 2 <= 4  # the API allows four breakpoints
    assert json.dumps(body).count("cache_control") == 4


# --- failures -----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
async def test_server_error(kind: str, server: FakeLLMServer, make: Factory) -> None:
    server.script(Reply.error(500))
    with pytest.raises(LLMServerError) as caught:
        await make(kind).complete(HISTORY, TOOLS)
    assert caught.value.status == 500
    assert isinstance(caught.value.__cause__, openai.APIStatusError | anthropic.APIStatusError)
    assert len(server.completions) == 1
    _assert_no_key(caught.value)


@pytest.mark.parametrize("kind", KINDS)
async def test_server_error_is_retried_by_the_sdk(
    kind: str, server: FakeLLMServer, make: Factory
) -> None:
    server.script(Reply.error(503, retry_after=0.01), Reply.error(502, retry_after=0.01))
    with pytest.raises(LLMServerError) as caught:
        await make(kind, max_retries=1).complete(HISTORY, TOOLS)
    assert caught.value.status == 502
    assert len(server.completions) == 2
    assert server.completions[0].body == server.completions[1].body


@pytest.mark.parametrize("kind", KINDS)
async def test_rate_limited(kind: str, server: FakeLLMServer, make: Factory) -> None:
    server.script(Reply.error(429, retry_after=1))
    with pytest.raises(LLMRateLimited) as caught:
        await make(kind).complete(HISTORY, TOOLS)
    assert caught.value.retry_after == 1
    assert isinstance(caught.value, LLMUnavailable)
    assert isinstance(caught.value, ConnectionError)
    _assert_no_key(caught.value)


@pytest.mark.parametrize("kind", KINDS)
async def test_closed_port_is_unavailable(kind: str, make: Factory) -> None:
    port = _closed_port()
    base = f"http://127.0.0.1:{port}" + ("/v1" if kind == "openai" else "")
    with pytest.raises(LLMUnavailable) as caught:
        await make(kind, base_url=base).complete(HISTORY, TOOLS)
    assert not isinstance(caught.value, LLMRateLimited)
    assert caught.value.retry_after is None
    _assert_no_key(caught.value)


@pytest.mark.parametrize("kind", KINDS)
async def test_slow_answer_times_out(kind: str, server: FakeLLMServer, make: Factory) -> None:
    server.script(Reply.slow(5))
    started = time.monotonic()
    with pytest.raises(LLMUnavailable) as caught:
        await make(kind, timeout=0.3).complete(HISTORY, TOOLS)
    assert time.monotonic() - started < 3
    assert "0.3" in str(caught.value)
    _assert_no_key(caught.value)


@pytest.mark.parametrize("kind", KINDS)
async def test_rejected_request_never_shows_the_key(
    kind: str, server: FakeLLMServer, make: Factory
) -> None:
    server.script(Reply.error(401, message=f"Incorrect API key provided: {KEY}."))
    with pytest.raises(LLMRequestError) as caught:
        await make(kind).complete(HISTORY, TOOLS)
    assert caught.value.status == 401
    assert isinstance(caught.value, ValueError)
    assert "Incorrect API key provided: ***" in str(caught.value)
    _assert_no_key(caught.value)


def test_error_tree() -> None:
    assert issubclass(LLMRateLimited, LLMUnavailable)
    assert issubclass(LLMUnavailable, LLMError)
    assert issubclass(LLMUnavailable, ConnectionError)
    assert issubclass(LLMServerError, LLMError)
    assert issubclass(LLMRequestError, ValueError)


def test_retry_after_forms() -> None:
    assert parse_retry_after({"retry-after": "2"}) == 2
    assert parse_retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None


# --- the fake itself ----------------------------------------------------------------------------


async def test_fake_lists_models_for_both_sdks(server: FakeLLMServer) -> None:
    async with openai.AsyncOpenAI(base_url=server.openai_base_url, api_key=KEY) as oa:
        assert [model.id async for model in oa.models.list()] == ["fake-model"]
    async with anthropic.AsyncAnthropic(base_url=server.anthropic_base_url, api_key=KEY) as an:
        assert [model.id async for model in an.models.list()] == ["fake-model"]
    assert [r.path for r in server.requests] == ["/v1/models", "/v1/models"]
    assert server.completions == []


@pytest.mark.parametrize("kind", KINDS)
async def test_changed_tools_are_sent(kind: str, server: FakeLLMServer, make: Factory) -> None:
    provider = make(kind)
    tools = list(TOOLS)
    await provider.complete(HISTORY, tools)
    tools.pop()  # the same list object, other contents: the cached payload must not be reused
    await provider.complete(HISTORY, tools)
    counts = [len(request.json["tools"]) for request in server.completions]
    assert counts == [2, 1]
    if kind == "anthropic":  # the breakpoint moved to the new last tool
        assert server.completions[1].json["tools"][0]["cache_control"] == {"type": "ephemeral"}


async def test_anthropic_leaves_out_empty_messages(server: FakeLLMServer, make: Factory) -> None:
    history = (*HISTORY, Message("assistant", ""), Message("user", "hello?"))
    await make("anthropic").complete(history, TOOLS)
    messages = _strip_cache_control(server.completions[0].json["messages"])
    assert messages[-1] == {
        "role": "user",
        "content": [
            {"type": "text", "text": "what time is it in Tokyo?"},
            {"type": "text", "text": "hello?"},
        ],
    }
