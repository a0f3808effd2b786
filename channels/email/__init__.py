"""The email channel: IMAP IDLE in, SMTP out (aioimaplib, aiosmtplib).

Thread ids are root Message-IDs, user ids lower-cased sender addresses; see
docs/channels/email.md for configuration.
"""

from channels.email.adapter import EmailChannel

__all__ = ["EmailChannel"]
