"""Duckling in child processes, each read with a time limit: a slow text never holds the loop.

Duckling's native parse holds Python's GIL for as long as it runs and cannot be
stopped; some texts take it long (the adjacent time expressions it combines grow
steeply: "tomorrow at 9 " five times took 1.5 s, six times 28 s, measured with
pyduckling-native-phihos 0.3). `isolate` installs a pool of child processes
(`bot.app.duckling_child`) as clockcore's reading engine
(`clockcore.parsing.duckling_reader.use_engine`): a read is sent down a pipe and
waited for there, which lets go of the GIL, so the event loop and other threads
run meanwhile. A read past `READ_LIMIT` kills its child (a new one starts on a
thread of its own, with a back-off once restarts come often) and raises
`ReaderTimeout`; `clockcore.parsing.timeparse` then asks the person to write the time on
its own instead of guessing. No read ever runs in the serving process: with no
child free within 250 ms the read is refused the same way (three slow texts at
once once held the whole process 26 s, read here when both children were busy),
and where no child starts at all the grammar reads alone.

Each person has a budget of child time (`PERSON_BUDGET` seconds, refilled over a
minute; `reading_for` names whose reads these are): one person's slow texts use up
their own budget, not the children everybody shares (docs/SECURITY.md).

Two children (about 53 MB resident each), so that one person's slow text (whose
reads go one after another) leaves one free for everybody else. Measured here:
reading through a child costs 1.20 ms a parse against 1.11 ms in process; a
restart after a timeout about 60 ms.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import queue
import selectors
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from clockcore.parsing import duckling_reader
from clockcore.parsing.duckling_reader import ReaderTimeout

__all__ = ["CHILDREN", "PERSON_BUDGET", "READ_LIMIT", "isolate", "reading_for", "refill_budgets"]

log = logging.getLogger(__name__)

READ_LIMIT = 2.0
"""Seconds one read may take; one window's read takes milliseconds (the limit leaves room
for a loaded machine: a read cut short is a question to the person)."""
CHILDREN = 2
"""Child processes that read."""
_START_LIMIT = 60.0  # a child's start (Python, then Duckling) is not part of a read
PERSON_BUDGET = 6.0
"""Seconds of child time one person's reads may take in a minute (a read takes milliseconds;
one that runs out of time costs `READ_LIMIT`)."""
_FREE_WAIT = 0.25  # seconds a reader waits for a free child before the read is refused
_RESTART_PAUSE = 5.0  # seconds between attempts to start a child that would not start
_CALM_RESTARTS = 3  # restarts a minute that start again at once; then 2, 4, 8… s up to 60
_MOST_PAUSE = 60.0
_MIN_CHARGE = 0.01  # seconds a read costs its person at least

_person: ContextVar[str | None] = ContextVar("duckling_person", default=None)


@contextmanager
def reading_for(person: str) -> Iterator[None]:
    """The Duckling reads in this block (and the tasks and threads it starts) are `person`'s."""
    token = _person.set(person)
    try:
        yield
    finally:
        _person.reset(token)


class _Budgets:
    """Child seconds per person: a bucket of `PERSON_BUDGET`, refilled over a minute."""

    def __init__(self, capacity: float) -> None:
        self.capacity = capacity
        self._left: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def _refilled(self, person: str, now: float) -> float:
        left, at = self._left.get(person, (self.capacity, now))
        return min(self.capacity, left + (now - at) * self.capacity / 60.0)

    def allows(self, person: str) -> bool:
        """Whether `person` has any child time left now."""
        with self._lock:
            return self._refilled(person, time.monotonic()) > 0

    def charge(self, person: str, seconds: float) -> None:
        now = time.monotonic()
        with self._lock:
            left = self._refilled(person, now) - max(seconds, _MIN_CHARGE)
            self._left[person] = (left, now)
            if len(self._left) > 10_000:  # forget the full ones
                full = [p for p, (v, _) in self._left.items() if v >= self.capacity]
                for key in full:
                    del self._left[key]


class _Child:
    """One Duckling child process and its pipes; used by one thread at a time (`_Children`)."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None

    def ask(self, text: str, stamp: int, language: str, limit: float) -> list[dict[str, Any]]:
        request = json.dumps({"text": text, "stamp": stamp, "language": language})
        process = self._started()
        assert process.stdin is not None
        try:
            process.stdin.write(request.encode() + b"\n")
            process.stdin.flush()
            line = self._answer(process, limit)
        except (OSError, ValueError):
            self.stop()
            raise
        if line is None:
            self.stop()
            raise ReaderTimeout(f"reading took over {limit:g} s")
        answer = json.loads(line)
        if isinstance(answer, dict):
            raise ValueError(f"the Duckling child failed ({answer.get('error')})")
        assert isinstance(answer, list)
        return answer

    @staticmethod
    def _answer(process: subprocess.Popen[bytes], limit: float) -> bytes | None:
        """The child's next line, or None when `limit` passes first."""
        stdout = process.stdout
        assert stdout is not None
        deadline = time.monotonic() + limit
        with selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ)
            left = limit
            while left > 0:
                if selector.select(left):  # waits without the GIL
                    line = stdout.readline()
                    if not line:
                        raise OSError("the Duckling child ended")
                    return line
                left = deadline - time.monotonic()
        return None

    def _started(self) -> subprocess.Popen[bytes]:
        """The running child; a new one started (and waited for) if there is none."""
        if self._process is not None and self._process.poll() is None:
            return self._process
        process = subprocess.Popen(
            [sys.executable, "-m", "bot.app.duckling_child"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self._process = process
        if self._answer(process, _START_LIMIT) != b"ready\n":
            self.stop()
            raise OSError("the Duckling child did not start")
        return process

    def stop(self) -> None:
        """Kill the child; the next `ask` starts another."""
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            process.kill()
            process.wait()
        for pipe in (process.stdin, process.stdout):
            if pipe is not None:
                pipe.close()


class _Children:
    """A few children, each lent to one read at a time; a reader waits for a free one.

    Two, so that one person's slow text (whose reads go one after another) leaves
    a child free for everybody else.
    """

    def __init__(self, size: int, limit: float, budget: float = PERSON_BUDGET) -> None:
        self.limit = limit
        self.budgets = _Budgets(budget)
        self._closed = threading.Event()
        self._all = [_Child() for _ in range(size)]
        self._free: queue.Queue[_Child] = queue.Queue()
        self._restarts: deque[float] = deque(maxlen=64)
        self._restarts_lock = threading.Lock()
        for child in self._all:
            self._free.put(child)

    def ask(self, text: str, stamp: int, language: str) -> list[dict[str, Any]]:
        """Read `text` in a free child; refused when none is free soon or the person's
        budget is spent.

        The reader may be the event loop's own thread (a short text, a tool's
        argument), so it never waits long: for a child (`_FREE_WAIT`), nor for a
        new one to start (a child that ran out of time is replaced on a thread of
        its own). Nothing is read in this process.

        Raises:
            ReaderTimeout: no child free in time, the person's budget spent, or the
                child did not answer within `limit`.
        """
        person = _person.get()
        if person is not None and not self.budgets.allows(person):
            raise ReaderTimeout("this person's reading budget is spent for now")
        try:
            child = self._free.get(timeout=_FREE_WAIT)  # waits without the GIL
        except queue.Empty:
            raise ReaderTimeout("no reader was free") from None
        started = time.monotonic()
        try:
            answer = child.ask(text, stamp, language, self.limit)
        except Exception:  # ReaderTimeout, a child that died: replaced off this path
            threading.Thread(target=self._restart, args=(child,), daemon=True).start()
            raise
        finally:
            if person is not None:
                self.budgets.charge(person, time.monotonic() - started)
        self._free.put(child)
        return answer

    def restart_pause(self) -> float:
        """Seconds the next restart waits: none while restarts are rare, then doubling
        (2, 4, 8… up to a minute) with each restart within the last minute, so a run of
        slow texts cannot keep the machine busy starting children."""
        now = time.monotonic()
        with self._restarts_lock:
            while self._restarts and self._restarts[0] < now - 60.0:
                self._restarts.popleft()
            self._restarts.append(now)
            recent = len(self._restarts)
        if recent <= _CALM_RESTARTS:
            return 0.0
        return float(min(2.0 ** (recent - _CALM_RESTARTS), _MOST_PAUSE))

    def _restart(self, child: _Child, *, pause: float | None = None) -> None:
        """Start `child` again, off every reader's path, and lend it out once it is up.

        Not once the pool is closed: a child started after `close` would outlive it
        (seen under load: a restart still starting when the pool closed).
        """
        child.stop()
        wait = self.restart_pause() if pause is None else pause
        if wait and self._closed.wait(wait):
            return
        if self._closed.is_set():
            return
        try:
            child.ask("at 9", 0, "en", _START_LIMIT)
        except Exception:  # no child: the others (or this process) read meanwhile
            child.stop()
            if not self._closed.wait(_RESTART_PAUSE):
                again = threading.Thread(
                    target=self._restart, args=(child,), kwargs={"pause": 0.0}, daemon=True
                )
                again.start()
            return
        if self._closed.is_set():  # closed while this child started
            child.stop()
            return
        self._free.put(child)

    def start(self) -> None:
        """Start every child now: a start forks this process, which holds every thread."""
        for child in self._all:
            child.ask("at 9", 0, "en", _START_LIMIT)

    def close(self) -> None:
        """End every child (at exit); none is started again."""
        self._closed.set()
        for child in self._all:
            child.stop()


_pool: dict[str, _Children] = {}


def refill_budgets() -> None:
    """Every person's reading budget full again (`PERSON_BUDGET`): for tests, where each test
    is a new conversation though the console's person has the same name in all of them."""
    pool = _pool.get("pool")
    if pool is not None:
        pool.budgets = _Budgets(pool.budgets.capacity)


def isolate(limit: float = READ_LIMIT) -> None:
    """Read Duckling in `CHILDREN` child processes from now on, each read limited to `limit` s.

    Idempotent. The children start here (the gateway calls this as it starts: a start
    forks this process, which holds every thread) and end with this process; one that
    a read outlasted is started again on a thread of its own. Where no child starts,
    Duckling is turned off and the grammar reads alone: Duckling never reads in the
    serving process.
    """
    current = _pool.get("pool")
    if current is not None:
        current.limit = limit
        return
    if not duckling_reader.available():
        return
    pool = _Children(CHILDREN, limit)
    try:
        pool.start()
    except (OSError, ValueError) as exc:
        pool.close()
        log.error("Duckling's reader processes did not start (%s); the grammar reads alone", exc)
        duckling_reader.set_enabled(False)
        return
    _pool["pool"] = pool
    duckling_reader.use_engine(pool.ask)
    atexit.register(pool.close)
