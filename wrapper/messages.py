"""What the wrapper tells the agent in envelope notices, in one place.

Notices are facts for the agent to relay; the agent words the reply.
"""

from __future__ import annotations

LINK_CODE_ISSUED = (
    "Link code {code} was issued for this identity, valid 10 minutes. To link, the person "
    "sends 'clock: link {code}' from their other channel."
)
LINK_CODE_UNKNOWN = (
    "That link code is unknown or expired; the person can ask for a new one with 'clock: link'."
)
LINK_CODE_SAME_IDENTITY = (
    "That link code was issued on this same channel identity; send it from the other channel."
)
ALREADY_LINKED = "These identities are already linked."
LINKED = (
    "Linked with {other}: both identities now share the cross-channel timestamp, actions, "
    "memory, default timezone and policy."
)
UNLINKED = (
    "This identity is unlinked: it keeps the timezone and policy, and starts a separate history."
)
NOT_LINKED = "This identity is not linked to another one."
