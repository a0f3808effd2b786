"""'dashboard' in the chat: a one-time link to the person's web pages (`bot.web`).

The turn runner reads it before the agent sees the message, like the requests
of `bot.turns.my_data`, and only in a private thread: a link posted in a group could
be used by anybody there first. The link is a fresh random token; the turn's
commit stores its hash (`wrapper.web.NewSignInLink`) with the reply, so a turn
that is repeated after a crash sends a new link and no stored link was never sent.

The reply itself holds the link, and stays in the outbox like every reply until
retention removes it: a link read there still works once, and only for ten
minutes from when it was made.
"""

from __future__ import annotations

from bot.turns.my_data import as_request

__all__ = ["NOT_SET_UP_REPLY", "asks_for_dashboard", "link_reply", "signin_url"]

NOT_SET_UP_REPLY = (
    "The web page is not set up on this clockbot: its operator sets CLOCKBOT_PUBLIC_URL to "
    "turn it on."
)
_ASKS = {"dashboard", "/dashboard", "my dashboard", "web page", "my page"}


def asks_for_dashboard(text: str) -> bool:
    """Whether `text` asks for a sign-in link, read whole (`bot.turns.my_data.as_request`)."""
    return as_request(text) in _ASKS


def signin_url(public_url: str, token: str) -> str:
    """Where a link's token is opened."""
    return f"{public_url.rstrip('/')}/ui/signin/{token}"


def link_reply(public_url: str, token: str) -> str:
    """The reply that carries a link."""
    return (
        f"Here is your page: {signin_url(public_url, token)}\n"
        "The link signs you in once, within 10 minutes. Don't share it."
    )
