"""The table's link as a picture a phone's camera reads: a QR code drawn as SVG.

The teacher projects the shared table's link (``http://<address>:<port>/?table=ABCDE-FGHJK``)
as a QR code; a student points a phone at the screen and the page opens. The symbol itself
(ISO/IEC 18004, QR Code model 2: the text's bytes, Reed-Solomon error correction, the finder
and timing patterns, the mask of lowest penalty) comes from `segno <https://segno.readthedocs.io>`_,
a pure-Python encoder that also runs under Pyodide (the ``app`` extra installs it). This module
only asks it for a symbol and draws the modules:

* :func:`qr_matrix`: the modules, ``matrix[row][column]``, True = dark, without the quiet zone;
  the text is always UTF-8 in byte mode, at the smallest version that holds it;
* :func:`qr_svg`: one compact SVG string, black on white whatever the page's colours, with the
  picture's accessible name.

A text too long for any QR code (more than 2,331 bytes of UTF-8 at the default level M) is
refused with a ValueError that says the limit; a table's link is far shorter (about 60 bytes,
a few hundred behind a long JupyterHub address).
"""

from __future__ import annotations

import html
import re
from itertools import groupby

import segno

__all__ = ["ECC_LEVELS", "LONGEST", "QUIET_ZONE", "qr_matrix", "qr_svg"]

#: The error correction levels, weakest first: a reader repairs about 7 % (L), 15 % (M),
#: 25 % (Q) or 30 % (H) of the codewords.
ECC_LEVELS = ("L", "M", "Q", "H")
#: The most bytes a QR code (version 40) holds in byte mode, per level (ISO/IEC 18004, table 7).
LONGEST = {"L": 2953, "M": 2331, "Q": 1663, "H": 1273}
#: The light margin, in modules, a reader needs around the symbol.
QUIET_ZONE = 4

Grid = list[list[bool]]

# XML 1.0 allows no control character but tab, newline and carriage return, even escaped.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def qr_matrix(text: str, ecc: str = "M") -> Grid:
    """The modules of ``text``'s QR code, ``matrix[row][column]``, True = dark, without the
    quiet zone: ``text`` as UTF-8 in byte mode, error level ``ecc``, the smallest version that
    holds it and the mask of lowest penalty (segno chooses both as the standard says).

    ValueError, with the reason, for an unknown level or a text longer than :data:`LONGEST`;
    TypeError for anything but a ``str``.
    """
    if ecc not in ECC_LEVELS:
        raise ValueError(f"the error correction level is one of L, M, Q, H, not {ecc!r}")
    if not isinstance(text, str):
        raise TypeError(f"a QR code encodes text (str), not {type(text).__name__}")
    data = text.encode("utf-8")
    if len(data) > LONGEST[ecc]:
        raise ValueError(
            f"the text is too long for a QR code at level {ecc}: {len(data)} bytes of UTF-8, at most {LONGEST[ecc]}"
        )
    code = segno.make(data, error=ecc, mode="byte", micro=False, boost_error=False)
    return [[bool(module) for module in row] for row in code.matrix]


def qr_svg(text: str, *, ecc: str = "M", scale: int | None = None, title: str = "") -> str:
    """``text``'s QR code as one compact SVG string.

    One ``<path>`` draws the dark modules (one rectangle per run of dark modules in a row) on a
    white square with the 4-module quiet zone a reader needs around the symbol; the colours are
    fixed (black on white, inline styles that a page's stylesheet does not override, and
    ``forced-color-adjust: none``) since a reader needs dark on light whatever the page's
    colours. The ``viewBox`` is in modules, so the picture scales to its box; ``scale`` (pixels
    per module) sets ``width`` and ``height`` too. ``shape-rendering: crispEdges`` keeps the
    modules' edges sharp. ``title`` is the picture's accessible name,
    escaped (``<title>`` and ``aria-label``, ``role="img"``); without one, ``text`` itself is
    (its control characters, which XML cannot carry, shown as U+FFFD); a title holding one is
    refused (ValueError).
    """
    if scale is not None and (isinstance(scale, bool) or not isinstance(scale, int) or scale < 1):
        raise ValueError(f"the scale is a whole number of pixels per module, at least 1, not {scale!r}")
    if _NOT_XML.search(title):
        raise ValueError("the title holds a control character, which SVG (XML) cannot carry")
    label = title or _NOT_XML.sub("\ufffd", text)
    matrix = qr_matrix(text, ecc)
    side = len(matrix) + 2 * QUIET_ZONE
    runs = []
    for row, line in enumerate(matrix):
        column = 0
        for value, run in groupby(line):
            length = len(list(run))
            if value:
                runs.append(f"M{column + QUIET_ZONE} {row + QUIET_ZONE}h{length}v1h-{length}z")
            column += length
    size = f' width="{side * scale}" height="{side * scale}"' if scale else ""
    # Character references keep tabs and line breaks as they are: XML would read them as spaces.
    escaped = html.escape(label, quote=True).replace("\t", "&#9;").replace("\n", "&#10;").replace("\r", "&#13;")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}"{size} role="img" '
        f'aria-label="{escaped}" shape-rendering="crispEdges" style="forced-color-adjust:none">'
        f"<title>{escaped}</title>"
        f'<rect width="{side}" height="{side}" style="fill:#fff"/>'
        f'<path style="fill:#000" d="{"".join(runs)}"/></svg>'
    )
