"""The wrapper benchmark on two versions in one run: messages/s, and their ratio.

Checks BASE (and NEW, when given) out into temporary git worktrees and runs
`bench/wrapper_bench.py --quick` alternately on each, ROUNDS times (default 9), with the
same interpreter and packages, so the machine's noise falls on both. Prints, per backend,
the median `on_user_message` messages/s (known user and thread; first message) of each and
NEW's ratio to BASE. A ratio within 0.90-1.10 is "no change beyond noise". One quick run
swings by a third on this 2-core machine (bench/README.md): to tell 5% apart, give
`--rounds 15` or more on a quiet machine (about 90 s a round).

Run: `.venv/bin/python bench/wrapper_compare.py [BASE] [NEW] [--rounds N]`. BASE defaults
to HEAD~1, NEW to this working tree. The worktrees are removed at the end.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GIT = shutil.which("git") or "/usr/bin/git"
FIGURES = {
    "known user and thread": re.compile(
        r"on_user_message, known user and thread\s+([\d,]+) msgs/s"
    ),
    "first message": re.compile(r"on_user_message, first message \(new user\)\s+([\d,]+) msgs/s"),
}
BACKEND = re.compile(r"^(SQLite|PostgreSQL)\b(?!:)")


def run_bench(tree: Path) -> dict[tuple[str, str], float]:
    """One quick wrapper bench on `tree`'s packages: {(backend, figure): msgs/s}."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(  # noqa: S603 -- our own argv
        [sys.executable, str(tree / "bench" / "wrapper_bench.py"), "--quick"],
        cwd=tree, env=env, capture_output=True, text=True, check=True, timeout=900,
    ).stdout  # fmt: skip
    found: dict[tuple[str, str], float] = {}
    backend = None
    for line in out.splitlines():
        if match := BACKEND.match(line):
            backend = match[1]
            continue
        for name, pattern in FIGURES.items():
            if backend and (figure := pattern.search(line)):
                found[(backend, name)] = float(figure[1].replace(",", ""))
    return found


def _short(ref: str) -> str:
    return subprocess.run(  # noqa: S603 -- git, from PATH, with a ref the user gave
        [GIT, "rev-parse", "--short", ref], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()


def _worktree(path: Path, commit: str) -> Path:
    subprocess.run(  # noqa: S603
        [GIT, "worktree", "add", "--detach", "-q", str(path), commit], cwd=ROOT, check=True
    )
    return path


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("ref", nargs="?", default="HEAD~1", help="the commit to compare against")
    parser.add_argument("new", nargs="?", help="the commit to measure (default: this tree)")
    parser.add_argument("--rounds", type=int, default=9, help="runs of each tree, alternated")
    args = parser.parse_args()
    commit = _short(args.ref)
    label = _short(args.new) if args.new else "this tree"
    with tempfile.TemporaryDirectory(prefix="clockbot-compare-") as scratch:
        trees = {"base": _worktree(Path(scratch) / "base", commit)}
        trees["this"] = _worktree(Path(scratch) / "new", label) if args.new else ROOT
        try:
            runs: dict[str, list[dict[tuple[str, str], float]]] = {"base": [], "this": []}
            for n in range(args.rounds):
                for name, tree in trees.items():
                    print(f"round {n + 1}/{args.rounds}: {name}", file=sys.stderr, flush=True)
                    runs[name].append(run_bench(tree))
        finally:
            for tree in trees.values():
                if tree != ROOT:
                    subprocess.run([GIT, "worktree", "remove", "--force", str(tree)], cwd=ROOT)  # noqa: S603
    keys = sorted({key for run in runs["base"] for key in run} & set(runs["this"][0]))
    print(f"on_user_message, medians of {args.rounds} alternated --quick runs")
    print(f"{'':38} {commit:>10} {label:>10} {'ratio':>7}")
    for backend, figure in keys:
        before = statistics.median(run[(backend, figure)] for run in runs["base"])
        after = statistics.median(run[(backend, figure)] for run in runs["this"])
        ratio = after / before
        verdict = "within noise" if 0.9 <= ratio <= 1.1 else "faster" if ratio > 1 else "SLOWER"
        row = f"{backend}, {figure}"
        print(f"{row:38} {before:>10,.0f} {after:>10,.0f} {ratio:>6.2f}x  {verdict}")


if __name__ == "__main__":
    main()
