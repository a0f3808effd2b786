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

Responder mode plays a model that thinks and uses tools, for as long as the server runs (it
outlives the clients, e.g. a `clockbot run` killed and restarted)::

    async with FakeLLMServer(responder=Responder(seed=7)) as server:
        ...
        server.responder.calls          # every OpenAI request it answered, with its timing

For each chat request it waits a seeded random `delay` (1-3 s) and reads the newest user
message: "msg N" (after the runtime block) first gets the tool calls `remind` ("reminder N",
in an hour), `clock_it` ("action N") and `remind` again ("scheduled N", in five hours), all in one round or one per round; the request after the last tool result gets
"answer to msg N". A proactive turn for "reminder N" or "scheduled N" waits `proactive_delay`
and answers "due now: reminder N" (its call has ``proactive`` set); other requests (a
summary) get a short text at once. Scripted
replies, when queued, still come first.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import json
import random
import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal, Protocol, Self

from aiohttp import web
from multidict import CIMultiDict, CIMultiDictProxy

__all__ = [
    "FakeLLMServer",
    "ModelCall",
    "RecordedRequest",
    "Reply",
    "Responder",
    "ScriptedToolCall",
]

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
    cache_write_tokens: int = 0
    llama_timings: bool = False

    @classmethod
    def text(
        cls,
        content: str,
        *,
        prompt_tokens: int = 12,
        cached_tokens: int | None = None,
        completion_tokens: int = 5,
        cache_write_tokens: int = 0,
        llama_timings: bool = False,
    ) -> Reply:
        """A plain text answer with the given usage numbers.

        `cache_write_tokens` is Anthropic's ``cache_creation_input_tokens``;
        `llama_timings` reports the cached share as llama.cpp does, in
        ``timings.cache_n`` / ``prompt_n`` instead of ``prompt_tokens_details``.
        """
        return cls(
            content=content,
            prompt_tokens=prompt_tokens,
            cached_tokens=cached_tokens,
            completion_tokens=completion_tokens,
            cache_write_tokens=cache_write_tokens,
            llama_timings=llama_timings,
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


@dataclass(slots=True)
class ModelCall:
    """One request the responder took: which message, which round, and when (loop time)."""

    n: int | None  # the "msg N" it answers; None for any other request
    round: int  # 0 for the first request of the turn
    final: bool  # this request gets the text answer (the tool results are in)
    started: float
    delay: float
    ended: float | None = None  # when the answer went out, or the wait was cut short
    cut: bool = False  # the client went away (or the server closed) before the answer
    proactive: bool = False  # a due job's turn: `n` is the N of "reminder N" / "scheduled N"

    @property
    def due(self) -> float:
        """When the answer is (or was) planned to go out."""
        return self.started + self.delay


_MSG_RE = re.compile(r"(?:^|\n)msg (\d+)\s*$")
_DUE_RE = re.compile(r"is due now: (reminder|scheduled) (\d+)\n")


class Responder:
    """A model that thinks 1-3 s and calls the three writing tools before answering.

    `tools_per_round` "all" sends the three calls in one answer, "each" one per answer.
    `calls` records every request it took, oldest first.
    """

    def __init__(
        self,
        *,
        seed: int = 0,
        delay: tuple[float, float] = (1.0, 3.0),
        tools_per_round: Literal["all", "each"] = "all",
        remind_in: str = "in 1 hour",
        schedule_in: str = "in 5 hours",
        proactive_delay: float = 1.0,
    ) -> None:
        self.delay = delay
        self.proactive_delay = proactive_delay
        self.tools_per_round = tools_per_round
        self.remind_in = remind_in
        self.schedule_in = schedule_in
        self.calls: list[ModelCall] = []
        self._random = random.Random(seed)

    def tool_calls(self, n: int) -> tuple[ScriptedToolCall, ...]:
        """The calls the model makes for "msg N", in order."""
        return (
            ScriptedToolCall(
                "remind", json.dumps({"text": f"reminder {n}", "when": self.remind_in})
            ),
            ScriptedToolCall("clock_it", json.dumps({"label": f"action {n}"})),
            ScriptedToolCall(
                "remind", json.dumps({"text": f"scheduled {n}", "when": self.schedule_in})
            ),
        )

    def plan(self, body: Any, now: float) -> tuple[Reply, ModelCall]:
        """The reply to an OpenAI chat request, and its record (already in `calls`)."""
        due = _due_job(body)
        if due is not None:
            n, what = due
            call = ModelCall(
                n=n, round=0, final=True, started=now, delay=self.proactive_delay, proactive=True
            )
            self.calls.append(call)
            reply = Reply.text(f"due now: {what}")
            return dataclasses.replace(reply, delay=self.proactive_delay), call
        n, done = _newest_turn(body)
        delay = self._random.uniform(*self.delay)
        calls = self.tool_calls(n) if n is not None else ()
        reply: Reply
        if n is None:
            reply, final = Reply.text("Noted."), True
        elif self.tools_per_round == "all":
            final = done > 0
            reply = Reply.text(f"answer to msg {n}") if final else Reply.calls(*calls)
        else:
            final = done >= len(calls)
            reply = Reply.text(f"answer to msg {n}") if final else Reply.calls(calls[done])
        call = ModelCall(n=n, round=done, final=final, started=now, delay=delay)
        self.calls.append(call)
        return dataclasses.replace(reply, delay=delay), call

    def in_flight(self, at: float) -> list[ModelCall]:
        """The requests being thought about at loop time `at`."""
        return [c for c in self.calls if c.started <= at < (c.ended or c.due)]


def _due_job(body: Any) -> tuple[int, str] | None:
    """(N, "reminder N") when an OpenAI request body is the proactive turn of a due job."""
    messages = body.get("messages") if isinstance(body, dict) else None
    if not isinstance(messages, list) or not messages or not isinstance(messages[-1], dict):
        return None
    content = messages[-1].get("content")
    if isinstance(content, list):
        content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
    if messages[-1].get("role") != "user" or not isinstance(content, str):
        return None
    match = _DUE_RE.search(content)
    return (int(match[2]), f"{match[1]} {match[2]}") if match else None


def _newest_turn(body: Any) -> tuple[int | None, int]:
    """("msg N"'s N or None, how many model answers follow it) for an OpenAI request body."""
    if not isinstance(body, dict) or not body.get("tools"):
        return None, 0  # a request without tools is no conversation turn
    messages = body.get("messages")
    if not isinstance(messages, list):
        return None, 0
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):
                content = "".join(
                    part.get("text", "") for part in content if isinstance(part, dict)
                )
            # A summary request (bot.agent._summarise) ends with transcript lines, each
            # after its role ("user: msg 3"): never a bare "msg N".
            match = _MSG_RE.search(content) if isinstance(content, str) else None
            if match is None:
                return None, 0
            later = messages[index + 1 :]
            answers = sum(1 for m in later if isinstance(m, dict) and m.get("role") == "assistant")
            return int(match[1]), answers
    return None, 0


class Planner(Protocol):
    """What answers a request when nothing is scripted: `Responder`, the eval's `ScriptedModel`."""

    def plan(self, body: Any, now: float) -> tuple[Reply, ModelCall | None]: ...


class FakeLLMServer:
    """The fake OpenAI + Anthropic server; use it as an async context manager."""

    def __init__(
        self,
        *,
        default_text: str = "Hello from the fake LLM.",
        responder: Planner | None = None,
        context_limit: int | None = None,
    ) -> None:
        self.context_limit = context_limit
        self.overflows = 0  # requests refused for the context (OpenAI endpoint)
        self._overflow_next = 0
        self.default_text = default_text
        self.responder = responder
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
        app.router.add_get("/props", self._props)
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

    def overflow_next(self) -> None:
        """Refuse the next OpenAI completion as over the context, whatever its size."""
        self._overflow_next += 1

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

    async def _next_reply(self, recorded: RecordedRequest | None = None) -> Reply:
        call: ModelCall | None = None
        loop = asyncio.get_running_loop()
        if self._script:
            reply = self._script.popleft()
        elif self.responder is not None and recorded is not None:
            reply, call = self.responder.plan(recorded.json, loop.time())
        else:
            reply = Reply.text(self.default_text)
        try:
            if reply.delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._closing.wait(), timeout=reply.delay)
        except asyncio.CancelledError:  # the client went away (handler cancellation)
            if call is not None:
                call.cut, call.ended = True, loop.time()
            raise
        if call is not None:
            call.cut = self._closing.is_set()
            call.ended = loop.time()
        return reply

    def _call_id(self, call: ScriptedToolCall, prefix: str) -> str:
        return call.id if call.id is not None else f"{prefix}_{next(self._ids)}"

    def _refused_for_context(self, body: Any) -> tuple[web.Response | None, int | None]:
        """llama.cpp's 400 for a request past `context_limit` (or one `overflow_next` asked for).

        The request's size in tokens is its messages' and tools' JSON length over four.
        """
        if self.context_limit is None and not self._overflow_next:
            return None, None
        parts = [body.get("messages"), body.get("tools")] if isinstance(body, dict) else [body]
        tokens = len(json.dumps(parts)) // 4
        limit = self.context_limit or tokens
        if self._overflow_next or tokens > limit:
            self._overflow_next = max(self._overflow_next - 1, 0)
            self.overflows += 1
            message = (
                f"request ({max(tokens, limit + 1)} tokens) exceeds the available context size "
                f"({limit} tokens), try increasing it"
            )
            error = {"code": 400, "message": message, "type": "exceed_context_size_error"}
            return web.json_response({"error": error}, status=400), tokens
        return None, tokens

    async def _props(self, request: web.Request) -> web.Response:
        await self._record(request)
        if self.context_limit is None:
            return web.json_response({"error": {"message": "not found"}}, status=404)
        return web.json_response({"default_generation_settings": {"n_ctx": self.context_limit}})

    async def _openai_completion(self, request: web.Request) -> web.Response:
        recorded = await self._record(request)
        refused, tokens = self._refused_for_context(recorded.json)
        if refused is not None:
            return refused
        reply = await self._next_reply(recorded)
        if tokens is not None:
            reply = dataclasses.replace(reply, prompt_tokens=tokens)
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
        timings: dict[str, Any] | None = None
        if reply.llama_timings:
            cache_n = reply.cached_tokens or 0
            timings = {"cache_n": cache_n, "prompt_n": reply.prompt_tokens - cache_n}
        elif reply.cached_tokens is not None:
            usage["prompt_tokens_details"] = {"cached_tokens": reply.cached_tokens}
        answer: dict[str, Any] = {
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
        if timings is not None:
            answer["timings"] = timings
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
        written = reply.cache_write_tokens
        answer = {
            "id": f"msg_{next(self._ids)}",
            "type": "message",
            "role": "assistant",
            "model": _model(recorded),
            "content": content,
            "stop_reason": "tool_use" if reply.tool_calls else "end_turn",
            "stop_sequence": None,
            "usage": {
                "input_tokens": reply.prompt_tokens - cached - written,
                "output_tokens": reply.completion_tokens,
                "cache_read_input_tokens": reply.cached_tokens,
                "cache_creation_input_tokens": written,
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
