"""The chart of when a person writes, by local hour: an inline SVG made here, no JS library.

Twenty-four bars, one per local hour, with the contact window shaded behind
them. The SVG carries its own title and description for screen readers, and the
page puts the same counts in a table beside it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, time
from gettext import NullTranslations
from html import escape

from clockcore import ContactWindow, get_zone

__all__ = ["by_local_hour", "hours_svg"]

_W, _H = 720, 240
_LEFT, _RIGHT, _TOP, _BOTTOM = 36, 8, 12, 28


def by_local_hour(instants: Iterable[datetime], zone: str) -> list[int]:
    """How many of `instants` fall in each local hour 0–23 in `zone`."""
    tz = get_zone(zone)
    counts = [0] * 24
    for at in instants:
        counts[at.astimezone(tz).hour] += 1
    return counts


def hours_svg(
    counts: Sequence[int],
    window: ContactWindow,
    *,
    zone: str,
    said: NullTranslations | None = None,
) -> str:
    """The SVG markup (safe to embed as is) for 24 hourly `counts`, `window` shaded.

    `said` words its title and description (the pages' catalog, `bot.web.words`); None: English.
    """
    said = said or NullTranslations()
    if len(counts) != 24:
        raise ValueError("one count per hour: 24")
    top = max(max(counts), 1)
    plot_w, plot_h = _W - _LEFT - _RIGHT, _H - _TOP - _BOTTOM
    slot = plot_w / 24
    title = said.gettext("Messages by local hour (%(zone)s)") % {"zone": zone}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_W} {_H}" role="img" '
        f'aria-labelledby="chart-title chart-desc" class="chart">',
        f'<title id="chart-title">{escape(title)}</title>',
        f'<desc id="chart-desc">{escape(_describe(counts, window, said))}</desc>',
    ]
    for hour in range(24):
        if window.contains(time(hour, 30)):
            x = _LEFT + hour * slot
            parts.append(
                f'<rect class="window" x="{x:.1f}" y="{_TOP}" width="{slot:.1f}" '
                f'height="{plot_h}"/>'
            )
    for hour, count in enumerate(counts):
        height = plot_h * count / top
        x = _LEFT + hour * slot + slot * 0.15
        y = _TOP + plot_h - height
        parts.append(
            f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{slot * 0.7:.1f}" '
            f'height="{height:.1f}"><title>{hour:02d}:00 — {count}</title></rect>'
        )
    base = _TOP + plot_h
    parts.append(f'<line class="axis" x1="{_LEFT}" y1="{base}" x2="{_W - _RIGHT}" y2="{base}"/>')
    for hour in range(0, 24, 3):
        x = _LEFT + hour * slot + slot / 2
        parts.append(f'<text class="tick" x="{x:.1f}" y="{_H - 8}">{hour:02d}</text>')
    for y, label in ((_TOP + 10, top), (base, 0)):
        parts.append(f'<text class="tick" x="{_LEFT - 6}" y="{y}" text-anchor="end">{label}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _describe(counts: Sequence[int], window: ContactWindow, said: NullTranslations) -> str:
    total = sum(counts)
    inside = sum(c for h, c in enumerate(counts) if window.contains(time(h, 30)))
    if not total:
        return said.gettext("No messages yet. Contact window %(window)s.") % {"window": window}
    busiest = max(range(24), key=lambda h: counts[h])
    return said.ngettext(
        "%(total)d message; %(inside)d inside the contact window %(window)s; "
        "the busiest hour is %(hour)s with %(most)d.",
        "%(total)d messages; %(inside)d inside the contact window %(window)s; "
        "the busiest hour is %(hour)s with %(most)d.",
        total,
    ) % {
        "total": total,
        "inside": inside,
        "window": window,
        "hour": f"{busiest:02d}:00",
        "most": counts[busiest],
    }
