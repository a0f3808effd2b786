"""The web pages at ``/ui/`` (`bot.web.pages`) and their SVG chart (`bot.web.chart`).

Imported only when the gateway serves HTTP: a console-only run loads neither
aiohttp nor Jinja2. The chat side of sign-in (the "dashboard" request) is
`bot.turns.dashboard`, which needs neither.
"""
