"""`clockbot run` as a child process that a test can kill -9 and start again.

The child runs this checkout's code (``python -m bot.cli.main`` with the repository first on
``PYTHONPATH``), with only the ``CLOCKBOT_*`` variables the test gives it, and writes its log to
one file across restarts::

    bot = BotProcess(env={"CLOCKBOT_HOME": ...}, log=tmp_path / "clockbot.log")
    await bot.start()
    await bot.kill()        # SIGKILL: no handler, no clean-up, like a power cut
    await bot.start()       # the same store, a new process
    await bot.stop()        # SIGTERM, then SIGKILL if it does not leave in time

Times (`starts`, and what `start`/`kill` return) are the running loop's clock, the one the
fake peers stamp their records with.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from tests.support.leaks import watch_process_log

__all__ = ["REPO_ROOT", "BotProcess", "free_port", "workers"]

REPO_ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    """One `clockbot run` at a time over the same settings."""

    def __init__(self, *, env: Mapping[str, str], log: Path, args: tuple[str, ...] = ()) -> None:
        inherited = {k: v for k, v in os.environ.items() if not k.startswith("CLOCKBOT_")}
        path = os.pathsep.join(p for p in (str(REPO_ROOT), inherited.get("PYTHONPATH")) if p)
        self._env = {**inherited, "PYTHONPATH": path, "PYTHONUNBUFFERED": "1", **env}
        self._args = args
        self.log = log
        watch_process_log(log, env)  # read for secrets after the test (tests/support/leaks.py)
        self.starts: list[float] = []
        self.kills: list[float] = []
        self._process: asyncio.subprocess.Process | None = None

    @property
    def running(self) -> bool:
        """A child was started and has not been seen to exit."""
        return self._process is not None and self._process.returncode is None

    async def start(self, *, env: Mapping[str, str] | None = None) -> float:
        """Start a new child, with `env`'s settings over the shared ones; the loop time it was
        started at."""
        assert not self.running, "the previous clockbot is still running"
        with self.log.open("ab") as log:
            log.write(f"\n===== start {len(self.starts)} =====\n".encode())
            log.flush()
            self._process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot.cli.main", "run", *self._args,
                cwd=REPO_ROOT, env={**self._env, **(env or {})}, stdin=asyncio.subprocess.DEVNULL,
                stdout=log, stderr=log,
            )  # fmt: skip
        at = asyncio.get_running_loop().time()
        self.starts.append(at)
        return at

    async def kill(self) -> float:
        """SIGKILL the child and reap it; the loop time the signal was sent."""
        process = self._process
        assert process is not None
        at = asyncio.get_running_loop().time()
        if process.returncode is None:
            process.send_signal(signal.SIGKILL)
        await process.wait()
        self.kills.append(at)
        return at

    async def stop(self, *, grace: float = 10.0) -> int | None:
        """SIGTERM the child, SIGKILL it after `grace` seconds; its exit code (None: none ran)."""
        process = self._process
        if process is None:
            return None
        if process.returncode is None:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), grace)
            except TimeoutError:
                process.kill()
                await process.wait()
        return process.returncode

    @property
    def returncode(self) -> int | None:
        """The exit code of the latest child once it has exited, else None."""
        return None if self._process is None else self._process.returncode

    def log_tail(self, lines: int = 40) -> str:
        """The end of the log, for a failure message."""
        if not self.log.exists():
            return "(no log)"
        text = self.log.read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def workers(
    base: Path,
    ports: list[int],
    env: Mapping[str, str],
    each: Callable[[str], Mapping[str, str]] = lambda name: {},
) -> list[BotProcess]:
    """One `BotProcess` per port, sharing `env`: each with a home of its own under `base`,
    serving HTTP on its port and logging to ``<base>/w<N>.log``; `each(name)` adds settings
    of its own (``name`` is ``w<N>``)."""
    found = []
    for n, port in enumerate(ports):
        home = base / f"w{n}"
        home.mkdir()
        own = {
            **env,
            **each(home.name),
            "CLOCKBOT_HOME": str(home),
            "CLOCKBOT_HTTP_PORT": str(port),
        }
        found.append(BotProcess(env=own, log=base / f"w{n}.log"))
    return found
