"""Mail peers for the email channel's tests: a private Dovecot and an aiosmtpd that delivers into it.

`run_dovecot(tmp_path_factory)` writes a Dovecot configuration into a fresh directory (IMAP on
127.0.0.1 and a free port, a passwd-file with the test users, one Maildir each) and runs
``dovecot -F -c <conf>`` in the foreground; `DovecotServer.stop` / `start` take it down and up
again on the same port, for the reconnect tests. As root the mail is owned by ``nobody`` (Dovecot
refuses to run mail processes as root) and the directory lives under the system temp dir, because
pytest's own is mode 0700.

`SmtpSink` is an aiosmtpd server on a free port in the test's event loop. It accepts mail for the
Dovecot users and writes it straight into their Maildir (``new/``), which Dovecot picks up as any
MTA's delivery; that keeps working while Dovecot is stopped, as a real MTA would queue and deliver.
It records every envelope and can be told to refuse recipients or fail temporarily.

Importing this module registers its fixture names in `PEER_FIXTURES`.
"""

from __future__ import annotations

import asyncio
import contextlib
import mailbox
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from tests.support.peers import PEER_FIXTURES, require_peer

__all__ = [
    "PASSWORD",
    "DovecotServer",
    "Received",
    "SmtpSink",
    "free_port",
    "run_dovecot",
    "run_smtp",
]

PEER = "dovecot"
HOST = "127.0.0.1"
PASSWORD = "test-secret-pw"  # the test users' password; never a real one
DOVECOT_FALLBACKS = (Path("/usr/sbin/dovecot"),)

PEER_FIXTURES.update(
    {
        "dovecot": PEER,
        "dovecot_tls": PEER,
        "dovecot_without_idle": PEER,
        "mail": PEER,
    }
)

_CONFIG = """
# clockbot test Dovecot: IMAP on one loopback port, users from a passwd-file, Maildir under {base}.
base_dir = {base}/run
state_dir = {base}/state
log_path = {base}/dovecot.log
protocols = imap
listen = {host}
{ssl}
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = {internal_user}
default_internal_group = {internal_group}
default_login_user = {login_user}
first_valid_uid = 1
first_valid_gid = 1
mail_location = maildir:~/Maildir
mailbox_idle_check_interval = 1 secs
stats_writer_socket_path =
shutdown_clients = yes
{capability}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {base}/passwd
}}
userdb {{
  driver = passwd-file
  args = username_format=%u {base}/passwd
}}
service imap-login {{
  inet_listener imap {{
    address = {host}
    port = {port}
  }}
  inet_listener imaps {{
    address = {host}
    port = {tls_port}
  }}
}}
service pop3-login {{
  inet_listener pop3 {{
    port = 0
  }}
  inet_listener pop3s {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
"""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class _Accounts:
    """Who Dovecot's processes run as: mail (the users' files), internal, and login."""

    mail_uid: int
    mail_gid: int
    internal_user: str
    internal_group: str
    login_user: str


def _accounts() -> _Accounts:
    if os.geteuid() != 0:
        me = pwd.getpwuid(os.geteuid())
        group = _group_name(me.pw_gid)
        return _Accounts(me.pw_uid, me.pw_gid, me.pw_name, group, me.pw_name)
    try:
        nobody = pwd.getpwnam("nobody")
        pwd.getpwnam("dovecot")
        pwd.getpwnam("dovenull")
    except KeyError as exc:
        require_peer(
            PEER,
            f"running as root and the system user {exc.args[0]} is missing (the Debian package "
            "`dovecot-core` creates `dovecot` and `dovenull`)",
        )
    return _Accounts(nobody.pw_uid, nobody.pw_gid, "dovecot", "dovecot", "dovenull")


def _group_name(gid: int) -> str:
    import grp

    return grp.getgrgid(gid).gr_name


def _dovecot_binary() -> str:
    found = shutil.which("dovecot") or next(
        (str(p) for p in DOVECOT_FALLBACKS if os.access(p, os.X_OK)), None
    )
    if found is None:
        require_peer(
            PEER, "no `dovecot` binary (install the Debian packages dovecot-imapd dovecot-lmtpd)"
        )
    return found


@dataclass
class DovecotServer:
    """A running private Dovecot; users share `PASSWORD`."""

    binary: str
    config: Path
    base: Path
    port: int
    users: tuple[str, ...]
    accounts: _Accounts
    tls_port: int = 0
    """Implicit-TLS IMAP (``imaps``); 0 unless started with ``tls=True``."""
    ca_file: Path | None = None
    """The self-signed certificate (for 127.0.0.1) the TLS listeners present."""
    process: subprocess.Popen[bytes] | None = None

    def maildir(self, user: str) -> Path:
        """The user's Maildir (INBOX)."""
        return self.base / "home" / user / "Maildir"

    def start(self) -> None:
        """Run ``dovecot -F`` and wait until IMAP answers on `port`."""
        assert self.process is None, "already running"
        log = (self.base / "stdout.log").open("ab")
        self.process = subprocess.Popen(
            [self.binary, "-F", "-c", str(self.config)],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.process = None
                raise RuntimeError(f"dovecot exited at start:\n{self.log_tail()}")
            with contextlib.suppress(OSError), socket.create_connection((HOST, self.port), 0.5):
                return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"dovecot did not listen on {self.port}:\n{self.log_tail()}")

    def stop(self) -> None:
        """Stop the whole Dovecot (master and children), waiting until the port is closed."""
        process, self.process = self.process, None
        if process is None:
            return
        # The whole process group, and SIGKILL after a moment: Dovecot's login processes can
        # sit out a SIGTERM for five seconds, taking new connections meanwhile.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        time.sleep(0.3)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=15)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection((HOST, self.port), 0.2).close()
            except OSError:
                return
            time.sleep(0.05)

    def deliver(self, user: str, raw: bytes) -> None:
        """Put one message into the user's INBOX the way an MTA's Maildir delivery does."""
        box = mailbox.Maildir(self.maildir(user), create=False)
        key = box.add(raw)
        path = self.maildir(user) / "new" / key
        if os.geteuid() == 0 and path.exists():
            os.chown(path, self.accounts.mail_uid, self.accounts.mail_gid)

    def messages(self, user: str) -> list[EmailMessage]:
        """Every message in the user's INBOX (new and cur), oldest first, parsed."""
        found: list[tuple[float, EmailMessage]] = []
        for sub in ("new", "cur"):
            for path in (self.maildir(user) / sub).iterdir():
                with contextlib.suppress(FileNotFoundError):  # moved new -> cur meanwhile
                    data = path.read_bytes()
                    message = message_from_bytes(data, policy=policy.default)
                    assert isinstance(message, EmailMessage)
                    found.append((path.stat().st_mtime, message))
        return [m for _, m in sorted(found, key=lambda pair: pair[0])]

    def log_tail(self, lines: int = 30) -> str:
        text = ""
        for name in ("dovecot.log", "stdout.log"):
            path = self.base / name
            if path.exists():
                text += "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) + "\n"
        return text


@contextlib.contextmanager
def run_dovecot(
    users: tuple[str, ...] = ("bot@example.test", "alice@example.test"),
    *,
    idle: bool = True,
    tls: bool = False,
) -> Iterator[DovecotServer]:
    """Start a private Dovecot with `users`, yield it, stop it and remove its files on exit.

    `idle=False` leaves IDLE out of the advertised capabilities (for the polling fallback).
    `tls=True` adds STARTTLS on the IMAP port and an ``imaps`` port, with a self-signed
    certificate for 127.0.0.1 made by the ``openssl`` command (`DovecotServer.ca_file`).
    """
    binary = _dovecot_binary()
    accounts = _accounts()
    base = Path(tempfile.mkdtemp(prefix="cbmail-", dir="/tmp"))
    try:
        base.chmod(0o755)
        for sub in ("run", "state", "home"):
            (base / sub).mkdir()
        lines = []
        for user in users:
            home = base / "home" / user
            home.mkdir()
            mailbox.Maildir(home / "Maildir", create=True)
            lines.append(
                f"{user}:{{PLAIN}}{PASSWORD}:{accounts.mail_uid}:{accounts.mail_gid}::{home}"
            )
            if os.geteuid() == 0:
                for path in [home, *home.rglob("*")]:
                    os.chown(path, accounts.mail_uid, accounts.mail_gid)
        (base / "passwd").write_text("\n".join(lines) + "\n")
        (base / "home").chmod(0o755)
        capability = (
            ""
            if idle
            else "imap_capability = IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE LITERAL+ UIDPLUS"
        )
        ssl_lines = "ssl = no"
        ca_file: Path | None = None
        if tls:
            ca_file = _self_signed(base)
            ssl_lines = (
                f"ssl = yes\nssl_cert = <{ca_file}\nssl_key = <{base / 'key.pem'}\n"
                "ssl_min_protocol = TLSv1.2"
            )
        server: DovecotServer | None = None
        for attempt in (1, 2):
            port = free_port()
            tls_port = free_port() if tls else 0
            config = base / "dovecot.conf"
            config.write_text(
                _CONFIG.format(
                    base=base,
                    host=HOST,
                    port=port,
                    internal_user=accounts.internal_user,
                    internal_group=accounts.internal_group,
                    login_user=accounts.login_user,
                    capability=capability,
                    ssl=ssl_lines,
                    tls_port=tls_port,
                )
            )
            server = DovecotServer(binary, config, base, port, users, accounts, tls_port, ca_file)
            try:
                server.start()
                break
            except RuntimeError:
                if attempt == 2:
                    raise
        assert server is not None
        try:
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _self_signed(base: Path) -> Path:
    """A throwaway key and certificate for 127.0.0.1 / localhost; the certificate's path."""
    openssl = shutil.which("openssl")
    if openssl is None:
        require_peer(PEER, "no `openssl` command to make a test certificate (Debian: openssl)")
    cert, key = base / "cert.pem", base / "key.pem"
    subprocess.run(
        [
            openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost",
            "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    key.chmod(0o644)  # Dovecot reads it as root, but keep it readable for the non-root case
    return cert


# --- SMTP: aiosmtpd delivering into the Maildirs --------------------------------------------------


@dataclass
class Received:
    """One envelope the SMTP sink accepted."""

    mail_from: str
    rcpt_tos: list[str]
    data: bytes
    at: float = 0.0
    """The running loop's time when it was accepted."""

    @property
    def message(self) -> EmailMessage:
        parsed = message_from_bytes(self.data, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        return parsed


@dataclass
class SmtpSink:
    """aiosmtpd handler: local users' mail goes into Dovecot's Maildirs; everything is recorded.

    `refuse` holds addresses answered ``550`` at RCPT; `fail_next` answers the next DATA with
    that reply (e.g. ``"451 4.3.0 try later"``) once.
    """

    dovecot: DovecotServer
    received: list[Received] = field(default_factory=list)
    refuse: set[str] = field(default_factory=set)
    fail_next: str | None = None
    port: int = 0
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]
    ) -> str:
        if address.lower() in self.refuse or address.lower() not in self.dovecot.users:
            return "550 5.1.1 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.fail_next is not None:
            reply, self.fail_next = self.fail_next, None
            return reply
        data = bytes(envelope.original_content or envelope.content)
        at = asyncio.get_running_loop().time()
        self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos), data, at))
        for rcpt in envelope.rcpt_tos:
            self.dovecot.deliver(rcpt.lower(), data)
        self.arrived.set()
        return "250 Message accepted"

    def to(self, address: str) -> list[EmailMessage]:
        """The messages accepted for `address`, in order."""
        return [r.message for r in self.received if address in r.rcpt_tos]

    async def wait_for(self, address: str, count: int, within: float = 20.0) -> list[EmailMessage]:
        """Wait until `count` messages for `address` were accepted; return them."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while len(self.to(address)) < count:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(
                    f"{len(self.to(address))} of {count} mails for {address} arrived"
                )
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), remaining)
        return self.to(address)


@contextlib.asynccontextmanager
async def run_smtp(dovecot: DovecotServer) -> Any:
    """Serve an `SmtpSink` on 127.0.0.1 and a free port in the running loop; close it on exit."""
    from aiosmtpd.smtp import SMTP

    sink = SmtpSink(dovecot)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: SMTP(sink, hostname="smtp.test", data_size_limit=64 * 1024 * 1024),
        HOST,
        0,
    )
    sink.port = int(server.sockets[0].getsockname()[1])
    try:
        yield sink
    finally:
        server.close()
        await server.wait_closed()
