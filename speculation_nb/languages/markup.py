"""Text into HTML, in one place: :func:`escape` for every value put into markup, :class:`Safe`
for markup the package built itself, :func:`bidi` for a name a person typed.

Every view, chart and panel escapes through these (``app.common.parts.esc`` is :func:`escape`
under the short name the views use), so what a person types (a name, a link, a file name) can
never become markup of the page.

>>> escape('<b title="x">'), escape(Safe("<b>bold</b>"))
('&lt;b title=&quot;x&quot;&gt;', '<b>bold</b>')
>>> bidi("Fanny")
'<bdi>Fanny</bdi>'
"""

from __future__ import annotations

import html
from typing import Any

__all__ = ["Safe", "bidi", "escape"]


class Safe(str):
    """Text already safe to put into HTML (markup built by the package itself)."""

    __slots__ = ()


def escape(value: Any) -> str:
    """``value`` as text safe to put into HTML, for element text and for attribute values in
    double quotes (quotes escaped too); :class:`Safe` text as it is."""
    if isinstance(value, Safe):
        return str(value)
    return html.escape(str(value), quote=True)


def bidi(text: Any) -> Safe:
    """A name typed by a person, escaped and isolated (``<bdi>``): a name written right to
    left, or starting with a direction mark such as U+202E, cannot turn the line around it."""
    return Safe(f"<bdi>{escape(text)}</bdi>")
