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
- ``timed`` tests kill a worker and time its takeover in seconds (leaders,
  HAProxy, a real browser): two of them side by side starve each other, so they
  follow the long tests in the same lane, one at a time. Beside the niced pool they
  get the CPU as the long tests' restarts do (they ran alone after the whole suite
  until session 23: 2:45 of CI's 20 minutes).

With ``--image`` (CI: ``make test IMAGE=1``), the ``image`` test (podman builds the
container and runs it, minutes of downloads and unpacking) ends the lane: the
deadlines of the tests before it are over by then.

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


PHASE_MARKERS = ("long", "timed")
"""The markers whose tests run in a phase of their own, from the files `phase_files` finds."""


def phase_files() -> dict[str, list[str]]:
    """For each of `PHASE_MARKERS`, the test files that mark a test with it, by their text
    (`pytest.mark.<marker>`), every file read once.

    The lane runs only these: collecting all ~5,500 tests to select eight
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
PARALLEL = ["nice", "-n", "10", *PYTEST, "-n", "auto", "-m", "not long and not timed and not image"]
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


def lane_commands(files: dict[str, list[str]], image: bool) -> list[tuple[str, list[str]]]:
    """What runs beside the parallel phase, in order, each with its name: the long tests, the
    timed ones, and with `image` the image test."""
    commands = [
        ("long", [*PYTEST, "-p", "no:cacheprovider", "-m", "long and not image", *files["long"]]),
        ("timed", [*PYTEST, "-p", "no:cacheprovider", "-m", "timed and not image", *files["timed"]]),
    ]  # fmt: skip
    if image:
        commands.append(("image", [*PYTEST, "-p", "no:cacheprovider", "-m", "image", IMAGE_TESTS]))
    return commands


def main(argv: list[str]) -> int:
    started = time.monotonic()
    named = lane_commands(phase_files(), image="--image" in argv)
    with tempfile.TemporaryFile(mode="w+", prefix="clockbot-lane-") as log:
        print(
            "make test: the long and timed tests run beside the parallel phase; their output follows it"
        )
        lane = Lane([command for _, command in named], log)
        lane.start()
        try:
            parallel = subprocess.call(PARALLEL)
            parallel_done = time.monotonic()
            lane.join()
        finally:
            lane.stop()
            lane.join()
        finished = time.monotonic()
        log.seek(0)
        sys.stdout.write(log.read())
    beside = ", ".join(
        f"{name} {_minutes(done - started)}"
        for (name, _), done in zip(named, lane.done, strict=False)
    )
    print(
        f"make test: parallel {_minutes(parallel_done - started)}, beside it {beside}; "
        f"total {_minutes(finished - started)}"
    )
    ran_all = len(lane.statuses) == len(named)
    for status in (parallel, *lane.statuses, 0 if ran_all else 1):
        if status != 0:
            return status
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
