"""The service's settings groups of `bot.config.settings.Settings`: the model, workers, limits.

One group per YAML block and environment prefix: ``llm``, ``worker`` and
``limit`` here, a channel group for each of Telegram, Slack and email in
`bot.config.channel_groups`, on the field types of `bot.config.fields`. Each
group checks itself; errors name fields and never quote a value.
`bot.config.settings` assembles them into `Settings` and reads them from the
environment and the YAML file.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Literal, Self

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_core import PydanticCustomError

from bot.config.fields import (
    SERVER_DEFAULT,
    Group,
    HttpUrl,
    SamplingField,
    TopPField,
    required_error,
)
from bot.llm.types import Sampling
from wrapper.turns.limits import Bucket, TurnLimits

__all__ = ["DEFAULT_TEMPERATURE", "LLMSettings", "LimitSettings", "WorkerSettings"]

DEFAULT_TEMPERATURE = 0.2
"""The temperature sent to a server at a `base_url` unless set: low, for tool use
(docs/configuration.md, "Sampling")."""

# --------------------------------------------------------------------------- groups


LOCAL_SERVERS = {
    "ollama": "http://localhost:11434/v1",
    "llamacpp": "http://localhost:8080/v1",
    "llamaserver": "http://localhost:8080/v1",
    "lmstudio": "http://localhost:1234/v1",
    "vllm": "http://localhost:8000/v1",
}
"""Local model servers people name as the provider, and the base URL each serves by default."""


class LLMSettings(Group):
    """``llm``: the model provider; ``none`` runs the built-in rules agent.

    Attributes:
        provider: ``openai`` (any OpenAI-compatible endpoint), ``anthropic`` or ``none``.
        base_url: the API base; None is the provider's own (api.openai.com,
            api.anthropic.com).
        model: the model name; required unless the provider is ``none``.
        api_key: required for Anthropic and for OpenAI without a `base_url`.
        timeout_seconds: per-request timeout.
        context_tokens: the model's context window in tokens; None asks the server
            where it can tell (llama.cpp ``/props``, Ollama ``/api/show``) or uses the
            documented limit of a known model (`bot.llm.context`), else compacts by size.
        tools: ``false`` (or ``off``) runs the agent with no tools (the runtime block stays), for a
            chat template that cannot carry tool calls (one that demands strictly
            alternating user and assistant roles).
        text_calls: whether a reply that is nothing but a tool call written as text (JSON,
            in a fence or in tags) runs as that call; unset is on for an OpenAI-compatible
            server at a `base_url` (local servers often lack a tool-call parser) and off
            for hosted APIs, which return structured calls. A call shown inside prose
            never runs; either way a written call is never sent to the person.
        temperature: the sampling temperature sent with every request (0 to 2; Anthropic
            takes 0 to 1), or ``server-default`` to send none. Unset is 0.2 for a server at a
            `base_url` (a local model: low, for tool calls, docs/configuration.md, "Sampling")
            and ``server-default`` for hosted APIs, whose current models set their own and
            some refuse any other.
        top_p: nucleus sampling's probability mass (above 0, at most 1), sent with every
            request where set; unset (or ``server-default``) sends none.
        mode: ``native`` (the model calls the tools) or ``reader-first``: a request the
            built-in reader understands whole (set, list, move, cancel a reminder, a time
            question) is carried out by clockbot, and the model only writes the words
            around it (docs/configuration.md, "Reader first"); or ``constrained``
            (OpenAI-compatible servers that take a JSON schema: llama.cpp, vLLM, Ollama):
            each model step is one JSON schema, a reply or one call to one of the tools
            (docs/configuration.md, "Constrained").
    """

    provider: Literal["openai", "anthropic", "none"] = "none"
    base_url: HttpUrl | None = None
    model: str | None = None
    api_key: SecretStr | None = None
    timeout_seconds: Annotated[float, Field(gt=0, allow_inf_nan=False)] = 60.0
    context_tokens: Annotated[int, Field(ge=1024, le=10_000_000)] | None = None
    tools: bool = True
    text_calls: bool | None = None
    temperature: SamplingField | None = None
    top_p: TopPField | None = None
    mode: Literal["native", "reader-first", "constrained"] = "native"

    @property
    def sampling(self) -> Sampling:
        """What each request sends: `temperature` and `top_p`, or their defaults."""
        temperature = self.temperature
        if temperature is None:
            temperature = DEFAULT_TEMPERATURE if self.base_url is not None else SERVER_DEFAULT
        return Sampling(_sent(temperature), _sent(self.top_p))

    @field_validator("provider", mode="before")
    @classmethod
    def _local_server_named(cls, value: object) -> object:
        """A local server named as the provider gets its recipe, not a bare refusal."""
        name = str(value).strip().lower().replace(".", "").replace("-", "").replace(" ", "")
        if name in LOCAL_SERVERS:
            raise ValueError(
                f"{value} serves an OpenAI-compatible API: set provider openai and base_url "
                f"{LOCAL_SERVERS[name]} (docs/local-models.md has the recipe)"
            )
        return value

    @property
    def reads_text_calls(self) -> bool:
        """`text_calls`, or its default for the provider."""
        if self.text_calls is not None:
            return self.text_calls
        return self.provider == "openai" and self.base_url is not None

    @property
    def enabled(self) -> bool:
        """Whether an LLM is configured (the provider is not ``none``)."""
        return self.provider != "none"

    @model_validator(mode="after")
    def _complete(self) -> Self:
        if self.provider == "none":
            return self
        missing = ["model"] if self.model is None else []
        needs_key = self.provider == "anthropic" or self.base_url is None
        if needs_key and self.api_key is None:
            missing.append("api_key")
        if missing:
            where = (
                " at api.openai.com (no base_url)"
                if needs_key and self.provider == "openai"
                else ""
            )
            raise required_error(*missing, why=f"with provider {self.provider}{where}")
        if self.provider == "anthropic" and self.mode == "constrained":
            raise PydanticCustomError(
                "mode", "the constrained mode needs an OpenAI-compatible server (llm.mode)"
            )
        temperature = self.sampling.temperature
        if self.provider == "anthropic" and temperature is not None and temperature > 1:
            raise PydanticCustomError(
                "temperature", "Anthropic takes a temperature from 0 to 1 (llm.temperature)"
            )
        return self


def _sent(value: float | Literal["server-default"] | None) -> float | None:
    """A sampling setting as the request carries it: the number, or None for none."""
    return None if value is None or value == SERVER_DEFAULT else value


class WorkerSettings(Group):
    """``worker``: how this process shows it is alive, and when others take over.

    Attributes:
        heartbeat: seconds between heartbeats; the waiting list is scanned as often.
        dead_after: seconds of silence after which a worker is taken for dead and
            any other worker (or its restart) takes the turns and jobs it held.
            At least twice `heartbeat`, so one late beat is not a death.
    """

    heartbeat: Annotated[float, Field(gt=0, le=60, allow_inf_nan=False)] = 2.0
    dead_after: Annotated[float, Field(gt=0, le=3600, allow_inf_nan=False)] = 8.0

    @model_validator(mode="after")
    def _spaced(self) -> Self:
        if self.dead_after < 2 * self.heartbeat:
            raise ValueError(
                f"worker.dead_after ({self.dead_after:g} s) must be at least twice "
                f"worker.heartbeat ({self.heartbeat:g} s)"
            )
        return self


class LimitSettings(Group):
    """``limit``: how many turns (model calls) a person and a channel may cost.

    Each is a token bucket (`wrapper.turns.limits`): `burst` turns at once, refilled
    at so many per minute. 0 in either field turns that limit off. A message
    over the limit is journaled like any other and answered later, folded
    with the person's newer messages; they hear it once per `notice_every`.

    Attributes:
        turns_per_minute: a person's refill (linked identities share one).
        burst: a person's turns at once.
        channel_turns_per_minute: a channel's refill, everyone together.
        channel_burst: a channel's turns at once.
        notice_every: seconds between two notices to one person.
    """

    turns_per_minute: Annotated[float, Field(ge=0, le=6000, allow_inf_nan=False)] = 10.0
    burst: Annotated[int, Field(ge=0, le=10_000)] = 20
    channel_turns_per_minute: Annotated[float, Field(ge=0, le=600_000, allow_inf_nan=False)] = 600.0
    channel_burst: Annotated[int, Field(ge=0, le=100_000)] = 120
    notice_every: Annotated[float, Field(gt=0, le=86_400, allow_inf_nan=False)] = 600.0

    def turn_limits(self) -> TurnLimits:
        """These settings as `wrapper.turns.limits.TurnLimits`."""
        return TurnLimits(
            person=Bucket(self.turns_per_minute, self.burst),
            channel=Bucket(self.channel_turns_per_minute, self.channel_burst),
            notice_every=timedelta(seconds=self.notice_every),
        )
