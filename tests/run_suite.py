"""`make test`: the whole suite in the least wall time two cores allow, and how long it took.

Three kinds of test share the machine differently:

- most are CPU-bound and independent: they run spread over the cores
  (pytest-xdist, each process with its own PostgreSQL and Dovecot);
- ``long`` tests (kill -9 at random moments, for minutes) mostly wait on
  real time: a model that thinks 1-3 s, restarts, quiet periods. They run in
  a second pytest *beside* the parallel phase, costing it little CPU. The
  parallel phase runs niced, so when a long test restarts a killed worker the
  restart gets the CPU at once: its deadlines (an answer within 15 s of a
  restart) were set on an idle machine;
- ``alone`` tests kill a worker and time its takeover in seconds (leaders,
  restarts, HAProxy, a real browser): two of them side by side, or one beside
  a busy pool, starve each other, so they run one at a time, last.

With ``--image`` (CI: ``make test IMAGE=1``), the ``image`` test (podman builds the
container and runs it, minutes of downloads and unpacking) follows the long tests
in their lane, beside the parallel phase, instead of after the whole suite: the
long tests' deadlines are over by then, and the alone phase still runs alone.

The exit status is the first failing phase's; each phase's time and the total
are printed at the end. `make test-fast` is the parallel phase without the
slow tests.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO

TESTS = Path(__file__).resolve().parent


PHASE_MARKERS = ("long", "alone")
"""The markers whose tests run in a phase of their own, from the files `phase_files` finds."""


def phase_files() -> dict[str, list[str]]:
    """For each of `PHASE_MARKERS`, the test files that mark a test with it, by their text
    (`pytest.mark.<marker>`), every file read once.

    The long and alone phases run only these: collecting all ~5,500 tests to select eight
    took 12-27 s of the run. tests/conftest.py fails a run where a test carries the marker
    in a file this does not find, so no test is left out of `make test` unseen.
    """
    found: dict[str, list[str]] = {marker: [] for marker in PHASE_MARKERS}
    for path in sorted(TESTS.rglob("test_*.py")):
        text = path.read_text()
        for marker, files in found.items():
            if f"pytest.mark.{marker}" in text:
                files.append(str(path))
    return found


PYTEST = [sys.executable, "-m", "pytest"]
IMAGE_TESTS = str(TESTS / "test_image.py")
PARALLEL = ["nice", "-n", "10", *PYTEST, "-n", "auto", "-m", "not long and not alone and not image"]
"""Niced: the pool takes what CPU the long tests leave, so a killed worker's restart beside it
is as quick as on an idle machine (the long tests' deadlines are seconds)."""


def _minutes(seconds: float) -> str:
    return f"{int(seconds // 60)}:{int(seconds % 60):02d}"


class Lane(threading.Thread):
    """Commands run one after another beside the parallel phase, their output kept in `log`."""

    def __init__(self, commands: list[list[str]], log: IO[str]) -> None:
        super().__init__()
        self.commands, self.log = commands, log
        self.statuses: list[int] = []
        self.done: list[float] = []  # when each command ended, from `time.monotonic`
        self.running: subprocess.Popen[bytes] | None = None
        self.stopped = False

    def run(self) -> None:
        for command in self.commands:
            if self.stopped:
                break
            self.running = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)
            if self.stopped:  # stopped while it started
                self.running.kill()
            self.statuses.append(self.running.wait())
            self.done.append(time.monotonic())

    def stop(self) -> None:
        self.stopped = True
        if self.running is not None and self.running.poll() is None:
            self.running.kill()


def main(argv: list[str]) -> int:
    started = time.monotonic()
    files = phase_files()
    beside_commands = [
        [*PYTEST, "-p", "no:cacheprovider", "-m", "long and not image", *files["long"]]
    ]
    if "--image" in argv:
        beside_commands.append([*PYTEST, "-p", "no:cacheprovider", "-m", "image", IMAGE_TESTS])
    alone_command = [*PYTEST, "-m", "alone and not image", *files["alone"]]
    with tempfile.TemporaryFile(mode="w+", prefix="clockbot-long-") as log:
        print("make test: the long tests run beside the parallel phase; their output follows it")
        lane = Lane(beside_commands, log)
        lane.start()
        try:
            parallel = subprocess.call(PARALLEL)
            parallel_done = time.monotonic()
            lane.join()
        finally:
            lane.stop()
            lane.join()
        both_done = time.monotonic()
        log.seek(0)
        sys.stdout.write(log.read())
    sys.stdout.flush()
    alone = subprocess.call(alone_command)
    finished = time.monotonic()
    beside = ", ".join(
        f"{name} {_minutes(done - started)}"
        for name, done in zip(("long", "image"), lane.done, strict=False)
    )
    print(
        f"make test: parallel {_minutes(parallel_done - started)}, beside it {beside}, "
        f"alone {_minutes(finished - both_done)}; total {_minutes(finished - started)}"
    )
    ran_all = len(lane.statuses) == len(beside_commands)
    for status in (parallel, *lane.statuses, 0 if ran_all else 1, alone):
        if status != 0:
            return status
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
