"""A real local HTTP server that speaks enough of the OpenAI and Anthropic APIs for tests.

It records every request and plays a script of replies, so tests drive the real SDKs (and the
providers in `bot.llm`) over real HTTP::

    from tests.support.fake_llm import FakeLLMServer, Reply

    async with FakeLLMServer() as server:
        server.script(
            Reply.tool_call("get_time", '{"tz": "UTC"}'),    # first request: a tool call
            Reply.text("It is noon.", cached_tokens=80),     # second: text, 80 tokens cached
            Reply.error(429, retry_after=1),                 # third: rate limited
            Reply.error(500),                                # fourth: server error
            Reply.slow(5),                                   # fifth: answers after 5 s
            Reply.calls(ScriptedToolCall("a"), ScriptedToolCall("b", '{"x": 1}')),
        )
        provider = OpenAIProvider(base_url=server.openai_base_url, model="m", api_key="k")
        # or AnthropicProvider(base_url=server.anthropic_base_url, ...)
        ...
        body = server.completions[-1].json                   # what the SDK sent

Endpoints (127.0.0.1, a free port):

- OpenAI: `POST /v1/chat/completions`, `GET /v1/models` (`openai_base_url` ends in `/v1`);
- Anthropic: `POST /v1/messages`, `GET /v1/models` (`anthropic_base_url` is the bare root);
  `GET /v1/models` answers in the shape of the API its `anthropic-version` header names.

Each POST to a completion endpoint takes the next scripted `Reply`, whichever API asked; with
the script empty it answers `default_text`. Plain strings in `script()` mean `Reply.text`. Usage
is reported as `prompt_tokens` (total input, cached included), `cached_tokens` (OpenAI
`prompt_tokens_details.cached_tokens`; Anthropic `cache_read_input_tokens`, with
`input_tokens = prompt_tokens - cached_tokens`) and `completion_tokens`.

`requests` holds every request (GETs and unknown paths too) as a `RecordedRequest`: method,
path, headers, the raw body bytes and the parsed JSON. `completions` is the subset that hit a
completion endpoint. Leaving the `async with` wakes any reply still sleeping in `Reply.slow`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import json
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self

from aiohttp import web
from multidict import CIMultiDict, CIMultiDictProxy

__all__ = ["FakeLLMServer", "RecordedRequest", "Reply", "ScriptedToolCall"]

COMPLETION_PATHS = ("/v1/chat/completions", "/v1/messages")


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request as the server received it."""

    method: str
    path: str
    headers: Mapping[str, str]  # case-insensitive
    body: bytes
    json: Any  # the parsed body, or None when it is empty or not JSON


@dataclass(frozen=True, slots=True)
class ScriptedToolCall:
    """A tool call in a scripted reply; `id` defaults to a fresh `call_N` / `toolu_N`."""

    name: str
    arguments: str = "{}"
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Reply:
    """One scripted answer; build it with the class methods."""

    content: str = ""
    tool_calls: tuple[ScriptedToolCall, ...] = ()
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    error_message: str = "scripted failure"
    delay: float = 0.0
    prompt_tokens: int = 12
    cached_tokens: int | None = None
    completion_tokens: int = 5

    @classmethod
    def text(
        cls,
        content: str,
        *,
        prompt_tokens: int = 12,
        cached_tokens: int | None = None,
        completion_tokens: int = 5,
    ) -> Reply:
        """A plain text answer with the given usage numbers."""
        return cls(
            content=content,
            prompt_tokens=prompt_tokens,
            cached_tokens=cached_tokens,
            completion_tokens=completion_tokens,
        )

    @classmethod
    def tool_call(
        cls, name: str, arguments: str = "{}", *, id: str | None = None, content: str = ""
    ) -> Reply:
        """An answer that calls one tool, with optional text before the call."""
        return cls(content=content, tool_calls=(ScriptedToolCall(name, arguments, id),))

    @classmethod
    def calls(cls, *calls: ScriptedToolCall, content: str = "") -> Reply:
        """An answer that calls several tools in order."""
        return cls(content=content, tool_calls=calls)

    @classmethod
    def error(
        cls, status: int = 500, *, retry_after: float | None = None, message: str = ""
    ) -> Reply:
        """An HTTP error in the API's error shape; `retry_after` sets the Retry-After header."""
        headers = {} if retry_after is None else {"Retry-After": f"{retry_after:g}"}
        return cls(status=status, headers=headers, error_message=message or f"HTTP {status}")

    @classmethod
    def slow(cls, seconds: float, then: Reply | None = None) -> Reply:
        """`then` (default: a text answer), sent only after `seconds`; forces client timeouts."""
        return dataclasses.replace(then or cls(content="sorry, I was slow"), delay=seconds)


class FakeLLMServer:
    """The fake OpenAI + Anthropic server; use it as an async context manager."""

    def __init__(self, *, default_text: str = "Hello from the fake LLM.") -> None:
        self.default_text = default_text
        self.requests: list[RecordedRequest] = []
        self._script: deque[Reply] = deque()
        self._ids = itertools.count(1)
        self._closing = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._port = 0

    # --- lifecycle ------------------------------------------------------------------------------

    async def __aenter__(self) -> Self:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._openai_completion)
        app.router.add_post("/v1/messages", self._anthropic_message)
        app.router.add_get("/v1/models", self._models)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(
            app, handler_cancellation=True, shutdown_timeout=1.0, access_log=None
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None)
        assert sockets
        self._port = int(sockets[0].getsockname()[1])
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._closing.set()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # --- the test's side -----------------------------------------------------------------------

    @property
    def port(self) -> int:
        """The TCP port the server listens on."""
        return self._port

    @property
    def url(self) -> str:
        """The server root, `http://127.0.0.1:<port>`."""
        return f"http://127.0.0.1:{self._port}"

    @property
    def openai_base_url(self) -> str:
        """The `base_url` for the OpenAI SDK (ends in `/v1`)."""
        return f"{self.url}/v1"

    @property
    def anthropic_base_url(self) -> str:
        """The `base_url` for the Anthropic SDK (the root; the SDK adds `/v1`)."""
        return self.url

    @property
    def completions(self) -> list[RecordedRequest]:
        """The recorded requests that hit a completion endpoint, oldest first."""
        return [r for r in self.requests if r.method == "POST" and r.path in COMPLETION_PATHS]

    @property
    def pending(self) -> int:
        """How many scripted replies are still unplayed."""
        return len(self._script)

    def script(self, *replies: Reply | str) -> None:
        """Queue replies for the next completion requests (a string means `Reply.text`)."""
        self._script.extend(Reply.text(r) if isinstance(r, str) else r for r in replies)

    # --- handlers -------------------------------------------------------------------------------

    async def _record(self, request: web.Request) -> RecordedRequest:
        body = await request.read()
        try:
            parsed = json.loads(body) if body else None
        except ValueError:
            parsed = None
        recorded = RecordedRequest(
            method=request.method,
            path=request.path,
            headers=CIMultiDictProxy(CIMultiDict(request.headers)),
            body=body,
            json=parsed,
        )
        self.requests.append(recorded)
        return recorded

    async def _next_reply(self) -> Reply:
        reply = self._script.popleft() if self._script else Reply.text(self.default_text)
        if reply.delay > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), timeout=reply.delay)
        return reply

    def _call_id(self, call: ScriptedToolCall, prefix: str) -> str:
        return call.id if call.id is not None else f"{prefix}_{next(self._ids)}"

    async def _openai_completion(self, request: web.Request) -> web.Response:
        recorded = await self._record(request)
        reply = await self._next_reply()
        if reply.status != 200:
            kind = "rate_limit_error" if reply.status == 429 else "server_error"
            error = {"message": reply.error_message, "type": kind, "param": None, "code": None}
            return web.json_response({"error": error}, status=reply.status, headers=reply.headers)
        calls = [
            {
                "id": self._call_id(call, "call"),
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments},
            }
            for call in reply.tool_calls
        ]
        message: dict[str, Any] = {"role": "assistant", "content": reply.content or None}
        if calls:
            message["tool_calls"] = calls
        usage: dict[str, Any] = {
            "prompt_tokens": reply.prompt_tokens,
            "completion_tokens": reply.completion_tokens,
            "total_tokens": reply.prompt_tokens + reply.completion_tokens,
        }
        if reply.cached_tokens is not None:
            usage["prompt_tokens_details"] = {"cached_tokens": reply.cached_tokens}
        answer = {
            "id": f"chatcmpl-{next(self._ids)}",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": _model(recorded),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if calls else "stop",
                    "logprobs": None,
                }
            ],
            "usage": usage,
        }
        return web.json_response(answer, headers=reply.headers)

    async def _anthropic_message(self, request: web.Request) -> web.Response:
        recorded = await self._record(request)
        reply = await self._next_reply()
        if reply.status != 200:
            kind = "rate_limit_error" if reply.status == 429 else "api_error"
            error = {"type": kind, "message": reply.error_message}
            body = {"type": "error", "error": error}
            return web.json_response(body, status=reply.status, headers=reply.headers)
        content: list[dict[str, Any]] = []
        if reply.content:
            content.append({"type": "text", "text": reply.content})
        for call in reply.tool_calls:
            try:
                arguments = json.loads(call.arguments)
            except ValueError:
                arguments = {}
            content.append(
                {
                    "type": "tool_use",
                    "id": self._call_id(call, "toolu"),
                    "name": call.name,
                    "input": arguments if isinstance(arguments, dict) else {},
                }
            )
        cached = reply.cached_tokens or 0
        answer = {
            "id": f"msg_{next(self._ids)}",
            "type": "message",
            "role": "assistant",
            "model": _model(recorded),
            "content": content,
            "stop_reason": "tool_use" if reply.tool_calls else "end_turn",
            "stop_sequence": None,
            "usage": {
                "input_tokens": reply.prompt_tokens - cached,
                "output_tokens": reply.completion_tokens,
                "cache_read_input_tokens": reply.cached_tokens,
                "cache_creation_input_tokens": 0,
            },
        }
        return web.json_response(answer, headers=reply.headers)

    async def _models(self, request: web.Request) -> web.Response:
        await self._record(request)
        if "anthropic-version" in request.headers:
            entry = {
                "type": "model",
                "id": "fake-model",
                "display_name": "Fake model",
                "created_at": "2025-01-01T00:00:00Z",
            }
            listing = {"data": [entry], "has_more": False, "first_id": "fake-model"}
            return web.json_response({**listing, "last_id": "fake-model"})
        model = {"id": "fake-model", "object": "model", "created": 0, "owned_by": "fake"}
        return web.json_response({"object": "list", "data": [model]})

    async def _unknown(self, request: web.Request) -> web.Response:
        await self._record(request)
        error = {"type": "not_found_error", "message": f"no route {request.path}"}
        return web.json_response({"type": "error", "error": error}, status=404)


def _model(recorded: RecordedRequest) -> str:
    """The model the request named, echoed back like the real APIs do."""
    if isinstance(recorded.json, dict) and isinstance(recorded.json.get("model"), str):
        return str(recorded.json["model"])
    return "fake-model"
