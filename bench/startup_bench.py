"""How fast the CLI starts: the median wall time of each command over fresh interpreters.

Prints, per command, the median, fastest and slowest of `--runs` runs (default 10) and
the target of issue 17 beside it:
- ``clockbot --help`` ≤ 300 ms;
- ``clockbot time now`` and ``clockbot time parse "tomorrow at 9"`` ≤ 400 ms;
- ``clockbot run`` on the console with empty input ≤ 1,500 ms. That run starts the
  store (SQLite, migrated by one warm-up run first), the dispatcher and the console,
  reads the end of its input and stops: an upper bound on reaching "polling".
The same interpreter's bare start (``python -c pass``) is printed as the floor.

Run: `.venv/bin/python bench/startup_bench.py [--runs N]`. It asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CLOCKBOT = str(Path(sys.executable).with_name("clockbot"))


def _time(command: list[str], env: dict[str, str], runs: int) -> list[float]:
    taken = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(  # noqa: S603 (our own commands)
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, env=env, check=False, timeout=60,
        )  # fmt: skip
        taken.append((time.perf_counter() - start) * 1000)
    return taken


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="clockbot-startup-"))
    env = {**os.environ, "CLOCKBOT_HOME": str(home), "CLOCKBOT_LLM_PROVIDER": "none"}
    for name in list(env):
        if name.startswith(("CLOCKBOT_TELEGRAM", "CLOCKBOT_SLACK", "CLOCKBOT_EMAIL")):
            del env[name]
    cases = [
        ("python -c pass (the floor)", [sys.executable, "-c", "pass"], None),
        ("clockbot --help", [CLOCKBOT, "--help"], 300),
        ("clockbot time now", [CLOCKBOT, "time", "now"], 400),
        ("clockbot time parse 'tomorrow at 9'", [CLOCKBOT, "time", "parse", "tomorrow at 9"], 400),
        ("clockbot run (console, empty input)", [CLOCKBOT, "run"], 1500),
    ]
    try:
        _time([CLOCKBOT, "run"], env, 1)  # the first run creates and migrates the store
        print(f"{'command':<40} {'median':>8} {'min':>8} {'max':>8}  target")
        for label, command, target in cases:
            taken = _time(command, env, args.runs)
            median = statistics.median(taken)
            verdict = (
                ""
                if target is None
                else f"≤ {target} ms: {'met' if median <= target else 'MISSED'}"
            )
            print(
                f"{label:<40} {median:>6.0f}ms {min(taken):>6.0f}ms {max(taken):>6.0f}ms  {verdict}"
            )
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
