"""Slack: DMs and channel mentions through slack-bolt, in Socket Mode or over HTTP events.

`SlackChannel` is the adapter; `render` turns the agent's Markdown into
Slack's mrkdwn parts, `events` decides which events are a person's message
and names their threads.
"""

from channels.slack.adapter import EVENTS_PATH, REFUSED_DM, SlackChannel

__all__ = ["EVENTS_PATH", "REFUSED_DM", "SlackChannel"]
