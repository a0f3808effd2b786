"""What the wrapper tells the agent in envelope notices, in one place.

Notices are facts for the agent to relay; the agent words the reply.
"""

from __future__ import annotations

LINK_CODE_ISSUED = (
    "Link code {code} was issued for this identity, valid 10 minutes. To link, the person "
    "sends 'clock: link {code}' from their other channel; then they are asked here to confirm."
)
LINK_CODE_PRIVATE_ONLY = (
    "No link code was issued: codes are given only in a direct conversation, where nobody "
    "else can read them. The person writes 'clock: link' to the bot directly."
)
LINK_TOO_MANY_TRIES = (
    "That link code was not checked: too many tries from this identity. The person can try "
    "again in a few minutes."
)
LINK_ASKED = (
    "The code is right. The identity that issued it ({other}) was asked to confirm; the link "
    "is made when they answer yes within 10 minutes."
)
LINK_ASK_ISSUER = (
    "{other} used your link code and wants to join your clockbot identity: they would share "
    "your memory, reminders, actions and timezone. Reply 'clock: link yes' to accept or "
    "'clock: link no' to refuse (within 10 minutes). If you did not give them the code, "
    "refuse."
)
LINK_NOTHING_TO_ANSWER = "There is no link request waiting for this identity's answer."
LINK_DECLINED = "{other} refused the link: your identities stay separate."
LINK_YOU_DECLINED = "The link request of {other} was refused; nothing was linked."

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
    "This identity is unlinked: from now on it is a person of its own, with the timezone and "
    "policy it had and a separate history. Memory, actions, reminders and schedules stay with "
    "the other identities; web pages opened through this identity are signed out, and the "
    'calendar link stops working (ask for "calendar" to get a new one).'
)
NOT_LINKED = "This identity is not linked to another one."
