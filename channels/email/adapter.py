"""`EmailChannel`: one mailbox, read over IMAP (`imap.py`) and answered over SMTP (aiosmtplib).

The adapter only translates: mail → `Inbound` (`reading.py`), `Outgoing` →
mail (`writing.py`). SMTP failures become `ChannelError`: a 5xx refusal is
``permanent`` (sending the same mail again cannot help), everything else
(4xx, a refused login, a dropped connection, a timeout) is retried by the
dispatcher.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Literal, get_args

import aiosmtplib

from channels.base import Channel, ChannelError, Outgoing, Sink, StateStore
from channels.email.imap import ImapConfig, ImapError, ImapReader
from channels.email.reading import Screening
from channels.email.writing import InvalidRecipientError, compose
from clockcore import Clock, SystemClock

__all__ = ["EmailChannel", "Security"]

log = logging.getLogger(__name__)

Security = Literal["tls", "starttls", "none"]

SMTP_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0


class EmailChannel(Channel):
    """The email channel: thread ids are root Message-IDs, user ids lower-cased addresses."""

    name = "email"

    def __init__(
        self,
        address: str,
        *,
        imap_host: str,
        imap_port: int,
        imap_user: str | None,
        imap_password: str | None,
        imap_security: Security,
        smtp_host: str,
        smtp_port: int,
        smtp_user: str | None,
        smtp_password: str | None,
        smtp_security: Security,
        allowed_senders: Sequence[str] = (),
        require_auth_results: bool = False,
        authserv_ids: Sequence[str] = (),
        max_bytes: int = 1_000_000,
        clock: Clock | None = None,
        idle_timeout: float = 300.0,
        poll_interval: float = 30.0,
    ) -> None:
        local, at, domain = address.strip().rpartition("@")
        if not (local and at and "." in domain) or any(c.isspace() for c in address.strip()):
            raise ValueError("email address: must be name@domain")
        for field_name, value in (
            ("imap_security", imap_security),
            ("smtp_security", smtp_security),
        ):
            if value not in get_args(Security):
                raise ValueError(f"email {field_name}: must be one of tls, starttls, none")
        for field_name, number in (("imap_port", imap_port), ("smtp_port", smtp_port)):
            if not 0 < number < 65536:
                raise ValueError(f"email {field_name}: must be a port number")
        if require_auth_results and not any(i.strip() for i in authserv_ids):
            raise ValueError(
                "email require_auth_results: needs authserv_ids, the mail servers whose "
                "Authentication-Results are trusted"
            )
        if max_bytes <= 0 or idle_timeout <= 0 or poll_interval <= 0:
            raise ValueError("email max_bytes, idle_timeout and poll_interval must be positive")
        self.address = address.strip()
        self._clock: Clock = clock or SystemClock()
        self._smtp = (smtp_host, smtp_port, smtp_user, smtp_password, smtp_security)
        self._reader = ImapReader(
            ImapConfig(
                host=imap_host,
                port=imap_port,
                user=imap_user or self.address,
                password=imap_password,
                security=imap_security,
                max_bytes=max_bytes,
                idle_timeout=idle_timeout,
                poll_interval=poll_interval,
            ),
            Screening(
                own_address=self.address.lower(),
                allowed_senders=tuple(s.strip().lower() for s in allowed_senders if s.strip()),
                require_auth_results=require_auth_results,
                authserv_ids=tuple(i.strip().lower() for i in authserv_ids if i.strip()),
            ),
            state_key=f"email:{self.address.lower()}:imap",
            now=self._clock.now,
        )
        self._task: asyncio.Task[None] | None = None
        self._sink: Sink | None = None
        self._state: StateStore | None = None

    async def start(self, sink: Sink, state: StateStore, *, intake: bool = True) -> None:
        """Check that the mailbox opens, then (with `intake`) read it in a background task.

        Raises:
            ChannelError: the IMAP server is unreachable or refuses the login.
        """
        try:
            await self._reader.check()
        except (ImapError, OSError, TimeoutError) as exc:
            raise ChannelError(f"email: cannot open the mailbox: {exc}") from exc
        self._sink, self._state = sink, state
        if intake:
            await self.start_intake()

    async def probe(self) -> str:
        """An IMAP login and SELECT, and an SMTP EHLO (and login, when a password is set)."""
        try:
            await self._reader.check()
        except (ImapError, OSError, TimeoutError) as exc:
            raise ChannelError(f"email: cannot open the mailbox: {exc}") from exc
        host, port, user, password, security = self._smtp
        smtp = aiosmtplib.SMTP(
            hostname=host,
            port=port,
            use_tls=security == "tls",
            start_tls=security == "starttls",
            timeout=SMTP_TIMEOUT,
        )
        try:
            await smtp.connect()
            await smtp.ehlo()
            if password is not None:
                await smtp.login(user or self.address, password)
            await smtp.quit()
        except aiosmtplib.SMTPAuthenticationError as exc:
            raise ChannelError(f"email: SMTP login refused by {host} ({exc.code})") from exc
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            raise ChannelError(f"email: SMTP {host}:{port} failed ({type(exc).__name__})") from exc
        finally:
            smtp.close()
        logged_in = " and login" if password is not None else ""
        return f"IMAP login to the mailbox, SMTP EHLO{logged_in} at {host}:{port}"

    @property
    def intake(self) -> str:
        """``email:<address>``: one worker reads the mailbox (and sets ``\\Seen``)."""
        return f"email:{self.address.lower()}"

    async def start_intake(self) -> None:
        """Read the mailbox in a background task, from the UID the store keeps."""
        if self._task is not None:
            return
        assert self._sink is not None, "start() comes first"
        assert self._state is not None
        self._reader.resume()
        self._task = asyncio.create_task(
            self._reader.run(self._sink, self._state), name="email-imap"
        )

    async def stop(self) -> None:
        """Finish the message in hand, log out, and stop reading."""
        await self.stop_intake()

    async def stop_intake(self) -> None:
        """Finish the message in hand, log out, and stop reading; sending goes on."""
        self._reader.stop()
        task, self._task = self._task, None
        if task is None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(task), STOP_TIMEOUT)
        except TimeoutError:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def health(self) -> str | None:
        """None while the IMAP connection is up, else what went wrong last."""
        if self._task is None or self._reader.connected:
            return None
        if self._task.done():
            return "email: the IMAP reader has stopped"
        return f"email: IMAP not connected ({self._reader.last_error or 'connecting'})"

    async def send(self, message: Outgoing) -> list[str]:
        """Send one mail; its Message-ID.

        Raises:
            ChannelError: ``permanent`` on a 5xx or a bad recipient.
        """
        try:
            mail = compose(message, address=self.address, now=self._clock.now())
        except InvalidRecipientError as exc:
            raise ChannelError(
                "email: the thread has no valid address to reply to", permanent=True
            ) from exc
        host, port, user, password, security = self._smtp
        to = str(mail["To"])
        cc = [a.strip() for a in str(mail["Cc"] or "").split(",") if a.strip()]
        try:
            await aiosmtplib.send(
                mail,
                sender=self.address,
                recipients=[to, *cc],
                hostname=host,
                port=port,
                username=(user or self.address) if password is not None else None,
                password=password,
                use_tls=security == "tls",
                start_tls=security == "starttls",
                timeout=SMTP_TIMEOUT,
            )
        except aiosmtplib.SMTPRecipientsRefused as exc:
            codes = [refused.code for refused in exc.recipients]
            permanent = any(code >= 500 for code in codes)
            raise ChannelError(
                f"email: recipient refused ({codes[0] if codes else '?'})", permanent=permanent
            ) from exc
        except aiosmtplib.SMTPAuthenticationError as exc:
            raise ChannelError(f"email: SMTP login refused by {host} ({exc.code})") from exc
        except aiosmtplib.SMTPResponseException as exc:
            raise ChannelError(
                f"email: SMTP server answered {exc.code}", permanent=exc.code >= 500
            ) from exc
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            raise ChannelError(
                f"email: cannot reach SMTP {host}:{port} ({type(exc).__name__})"
            ) from exc
        log.info("email: sent %s to %s", message.kind, to)
        return [str(mail["Message-ID"])]
