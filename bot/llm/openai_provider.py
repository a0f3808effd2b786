"""An OpenAI-compatible chat-completions provider over the `openai` SDK (non-streaming).

Works with OpenAI and any server that speaks `POST {base_url}/chat/completions` (vLLM, llama.cpp,
Ollama, LM Studio, ...). The request is built deterministically: the same messages and tools give
the same body bytes, so servers that cache prompt prefixes keep hitting their cache.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import openai
from openai.types.chat import (
    ChatCompletion,
    ChatCompletionFunctionToolParam,
    ChatCompletionMessageFunctionToolCall,
    ChatCompletionMessageParam,
    ChatCompletionMessageToolCallUnionParam,
)

from bot.llm.constrained import read_step, response_format, tools_note
from bot.llm.errors import (
    LLMRequestError,
    LLMServerError,
    sdk_errors,
)
from bot.llm.types import Completion, Message, Sampling, ToolCall, ToolSpec, same_specs

__all__ = ["PLACEHOLDER_API_KEY", "OpenAIProvider"]

# Sent when no key is configured: local OpenAI-compatible servers need none, but the SDK
# insists on one (and would otherwise read OPENAI_API_KEY from the environment).
PLACEHOLDER_API_KEY = "no-key"


class OpenAIProvider:
    """Chat completions through `openai.AsyncOpenAI`.

    Args:
        base_url: The API base including `/v1` (e.g. `http://127.0.0.1:8000/v1`); None means
            the SDK's default (`OPENAI_BASE_URL`, else api.openai.com).
        model: The model name sent with each request.
        api_key: The API key; None sends `PLACEHOLDER_API_KEY` (for local servers).
        timeout: Seconds per HTTP attempt (the SDK's `timeout`).
        max_retries: The SDK's retries for connection errors, 408, 409, 429 and 5xx.
        sampling: The temperature and top_p sent with every request; a None one is not
            sent, and the server uses its own (docs/configuration.md, "Sampling").
        constrained: Each step one JSON schema (`bot.llm.constrained`): the tools go in the
            system prompt and the ``response_format``, not as native tools, and the answer
            is read back into a reply or a call (docs/configuration.md, "Constrained").
    """

    name = "openai"

    def __init__(
        self,
        *,
        base_url: str | None,
        model: str,
        api_key: str | None,
        timeout: float = 60,
        max_retries: int = 2,
        sampling: Sampling | None = None,
        constrained: bool = False,
    ) -> None:
        self.model = model
        self.constrained = constrained
        self.sampling = sampling or Sampling()
        self._secret = api_key
        self._timeout = timeout
        self._client = openai.AsyncOpenAI(
            api_key=api_key or PLACEHOLDER_API_KEY,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
        )
        self._tools_for: tuple[ToolSpec, ...] | None = None
        self._tools: list[ChatCompletionFunctionToolParam] = []

    async def complete(self, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> Completion:
        """Send the conversation and return the model's reply.

        Raises:
            LLMUnavailable: Unreachable or timed out (`LLMRateLimited` on 429).
            LLMServerError: A 5xx answer or an unreadable one.
            LLMRequestError: The request was rejected, or a message cannot be expressed.
            LLMError: Any other SDK failure.
        """
        steps = self.constrained and bool(tools)
        if steps:
            messages = _noted(messages, tools_note(tools))
        payload = [_message_param(message) for message in messages]
        tool_params = [] if steps else self._tool_params(tools)
        with sdk_errors(
            "openai", openai, base=openai.OpenAIError, secret=self._secret, timeout=self._timeout
        ):
            response = await self._client.chat.completions.create(
                model=self.model,
                messages=payload,
                tools=tool_params or openai.omit,
                temperature=_given(self.sampling.temperature),
                top_p=_given(self.sampling.top_p),
                response_format=response_format(tools) if steps else openai.omit,  # type: ignore[arg-type]
            )
        completion = _completion(response)
        if steps and not completion.message.tool_calls:
            completion = replace(completion, message=read_step(completion.message.content, tools))
        return completion

    async def aclose(self) -> None:
        """Close the SDK's HTTP client."""
        await self._client.close()

    def _tool_params(self, tools: Sequence[ToolSpec]) -> list[ChatCompletionFunctionToolParam]:
        """The tools as SDK params, rebuilt only when the specs themselves change."""
        if not same_specs(tools, self._tools_for):
            self._tools = [
                {
                    "type": "function",
                    "function": {
                        "name": spec.name,
                        "description": spec.description,
                        "parameters": spec.schema(),
                    },
                }
                for spec in tools
            ]
            self._tools_for = tuple(tools)
        return self._tools


def _noted(messages: Sequence[Message], note: str) -> list[Message]:
    """`messages` with `note` at the end of the system prompt (one added where none is)."""
    if messages and messages[0].role == "system":
        first = replace(messages[0], content=f"{messages[0].content}\n\n{note}")
        return [first, *messages[1:]]
    return [Message("system", note), *messages]


def _given(value: float | None) -> float | openai.Omit:
    """`value`, or the SDK's marker that leaves the field out of the body."""
    return openai.omit if value is None else value


def _message_param(message: Message) -> ChatCompletionMessageParam:
    """One neutral message in the chat-completions format."""
    match message.role:
        case "system":
            return {"role": "system", "content": message.content}
        case "user":
            if message.name is not None:
                return {"role": "user", "content": message.content, "name": message.name}
            return {"role": "user", "content": message.content}
        case "tool":
            if message.tool_call_id is None:
                raise LLMRequestError("openai: a tool message needs its tool_call_id")
            return {
                "role": "tool",
                "tool_call_id": message.tool_call_id,
                "content": message.content,
            }
        case "assistant":
            if not message.tool_calls:
                return {"role": "assistant", "content": message.content}
            calls: list[ChatCompletionMessageToolCallUnionParam] = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments},
                }
                for call in message.tool_calls
            ]
            return {"role": "assistant", "content": message.content or None, "tool_calls": calls}


def _completion(response: ChatCompletion) -> Completion:
    """The neutral completion for an SDK response."""
    if not response.choices:
        raise LLMServerError("openai: the answer has no choices", status=200)
    choice = response.choices[0]
    calls = tuple(
        ToolCall(id=call.id, name=call.function.name, arguments=call.function.arguments)
        for call in choice.message.tool_calls or ()
        if isinstance(call, ChatCompletionMessageFunctionToolCall)
    )
    usage = response.usage
    details = usage.prompt_tokens_details if usage is not None else None
    cached = details.cached_tokens if details is not None else None
    if cached is None:
        cached = _llama_cache_n(response)
    return Completion(
        message=Message(role="assistant", content=choice.message.content or "", tool_calls=calls),
        prompt_tokens=usage.prompt_tokens if usage is not None else None,
        cached_tokens=cached,
        completion_tokens=usage.completion_tokens if usage is not None else None,
        stop_reason=choice.finish_reason,
    )


def _llama_cache_n(response: ChatCompletion) -> int | None:
    """llama.cpp's cached prompt tokens, ``timings.cache_n``, where it reports no details."""
    timings = (response.model_extra or {}).get("timings")
    cache_n = timings.get("cache_n") if isinstance(timings, dict) else None
    return cache_n if isinstance(cache_n, int) and not isinstance(cache_n, bool) else None
