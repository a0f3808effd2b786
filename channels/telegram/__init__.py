"""The Telegram channel: private chats, groups and forum topics through one bot.

Importing this package imports python-telegram-bot; the gateway does so only
when ``CLOCKBOT_TELEGRAM_TOKEN`` is set.
"""

from channels.telegram.adapter import TelegramChannel

__all__ = ["TelegramChannel"]
