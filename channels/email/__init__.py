"""The email channel: IMAP IDLE in, SMTP out (aioimaplib, aiosmtplib).

Thread ids are root Message-IDs, user ids lower-cased sender addresses; see
the README's "Email" section for configuration.
"""

from channels.email.adapter import EmailChannel

__all__ = ["EmailChannel"]
