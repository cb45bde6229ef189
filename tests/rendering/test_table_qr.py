"""The table's QR code (speculation_nb/rendering/qr.py, drawn from segno's symbol) read by a real decoder.

The symbol is segno's (the ``app`` extra); what this module owns is the drawing and the words:
the SVG paints exactly the modules with a 4-module quiet zone, black on white whatever the page,
with the picture's accessible name escaped; a text no QR code holds is refused with the limit.
The proof that a phone reads it is ZBar's ``zbarimg`` (Debian's ``zbar-tools``) decoding a PNG
drawn from the SVG's own path (and, in the browser test, Chromium's own rendering of it), for
table links from the shortest to the longest a table can produce; skipped without zbarimg.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from speculation_nb.classroom.codes import ALPHABET, CODE_LENGTH, show_code
from speculation_nb.rendering.qr import ECC_LEVELS, LONGEST, QUIET_ZONE, qr_matrix, qr_svg

SVG = "{http://www.w3.org/2000/svg}"

ascii_texts = st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=150)
unicode_texts = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=150)
table_links = st.builds(
    lambda address, port, code: f"http://{'.'.join(map(str, address))}:{port}/?table={show_code(code)}",
    st.tuples(*[st.integers(0, 255)] * 4),
    st.integers(1, 65535),
    st.text(st.sampled_from(ALPHABET), min_size=CODE_LENGTH, max_size=CODE_LENGTH),
)
texts = st.one_of(ascii_texts, unicode_texts, table_links)
levels = st.sampled_from(ECC_LEVELS)

CODE = show_code("Z" * CODE_LENGTH)
#: Table links (``Referee.link``: the page's address and ``?table=<code>``), shortest to longest:
#: the README's classroom; the longest IPv4 and IPv6 addresses with the longest port; behind a
#: school's JupyterHub (``link_base``: ``/hub/user-redirect/``), with a host name of the longest
#: DNS allows (253 characters) and a long user name; and an address set by hand
#: (``SPECULATION_TABLE_ADDRESS``) as long as a QR code at level M holds.
TABLE_LINKS = [
    f"http://192.168.1.20:8866/?table={CODE}",
    f"http://255.255.255.255:65535/?table={CODE}",
    f"http://[ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255]:65535/?table={CODE}",
    f"https://{'.'.join(['a' * 63] * 3 + ['b' * 61])}:65535/hub/user-redirect/user/{'fanny-price-' * 8}mansfield"
    f"/voila/render/notebooks/app.ipynb?table={CODE}",
]
_hand = "https://school.example/" + "path/" * 600
TABLE_LINKS.append(_hand[: LONGEST["M"] - len(f"?table={CODE}")] + f"?table={CODE}")


# ----------------------------------------------------------------------------------------------
# The SVG


PATH_STEP = re.compile(r"M(\d+) (\d+)h(\d+)v1h-(\d+)z")


def drawn(svg: str) -> tuple[ET.Element, list[list[bool]]]:
    """The SVG's root and the modules its one path paints, quiet zone included."""
    root = ET.fromstring(svg)
    side = int(root.get("viewBox", "").split()[2])
    paths = root.findall(f"{SVG}path")
    assert len(paths) == 1
    d = paths[0].get("d", "")
    grid = [[False] * side for _ in range(side)]
    steps = PATH_STEP.findall(d)
    assert "".join(f"M{x} {y}h{w}v1h-{w2}z" for x, y, w, w2 in steps) == d
    for x, y, width, back in steps:
        assert width == back
        for column in range(int(x), int(x) + int(width)):
            assert not grid[int(y)][column]
            grid[int(y)][column] = True
    return root, grid


@given(text=texts, title=st.text(st.characters(exclude_categories=("Cs", "Cc")), max_size=40))
@settings(max_examples=60)
def test_svg_draws_the_modules_with_a_quiet_zone(text: str, title: str) -> None:
    svg = qr_svg(text, title=title)
    root, grid = drawn(svg)
    matrix = qr_matrix(text)
    size = len(matrix)
    assert size in range(21, 178, 4)  # versions 1-40: 17 + 4 * version modules a side
    assert root.get("viewBox") == f"0 0 {size + 2 * QUIET_ZONE} {size + 2 * QUIET_ZONE}"
    assert root.get("width") is None and root.get("height") is None
    blank = [[False] * (size + 8)] * 4
    assert grid == blank + [[False] * 4 + row + [False] * 4 for row in matrix] + blank
    label = title or re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]", "\ufffd", text)
    assert root.get("role") == "img"
    assert root.get("aria-label") == label
    assert root.findtext(f"{SVG}title") == label
    assert root.get("shape-rendering") == "crispEdges"
    assert "\n" not in svg


def test_svg_escapes_the_title_and_fixes_its_colours() -> None:
    title = "<script>alert(\"x\")</script> & 'quotes'"
    svg = qr_svg("http://192.168.1.20:8866/?table=ABCDE-FGHJK", title=title, scale=3)
    assert "<script>" not in svg
    root, _ = drawn(svg)
    assert root.findtext(f"{SVG}title") == title
    assert root.get("aria-label") == title
    side = int(root.get("viewBox", "").split()[2])
    assert root.get("width") == root.get("height") == str(3 * side)
    rect = root.find(f"{SVG}rect")
    assert rect is not None and rect.get("style") == "fill:#fff" and rect.get("width") == str(side)
    assert root.find(f"{SVG}path").get("style") == "fill:#000"  # type: ignore[union-attr]
    assert root.get("style") == "forced-color-adjust:none"
    assert "currentColor" not in svg


def test_a_title_keeps_its_line_breaks_as_character_references() -> None:
    root, _ = drawn(qr_svg("x", title="Table\tABCDE\nFGHJK\r"))
    assert root.get("aria-label") == root.findtext(f"{SVG}title") == "Table\tABCDE\nFGHJK\r"


def test_the_same_text_draws_the_same_picture() -> None:
    link = TABLE_LINKS[0]
    assert qr_svg(link, title="Table") == qr_svg(link, title="Table")


def test_a_table_link_is_a_small_symbol() -> None:
    """The projected picture stays coarse (big modules) for a classroom's link: version 3 or 4
    (29 or 33 modules a side) at level M."""
    assert len(qr_matrix(TABLE_LINKS[0])) <= 33
    assert len(qr_matrix(TABLE_LINKS[2])) <= 41


# ----------------------------------------------------------------------------------------------
# Refusals in words


@pytest.mark.parametrize("ecc", ECC_LEVELS)
def test_too_long_refused_with_the_limit(ecc: str) -> None:
    longest = LONGEST[ecc]
    assert len(qr_matrix("é" * (longest // 2) + "x" * (longest % 2), ecc)) == 177  # version 40
    with pytest.raises(
        ValueError, match=rf"too long for a QR code at level {ecc}: {longest + 1} bytes .* at most {longest}"
    ):
        qr_matrix("x" * (longest + 1), ecc)


def test_bad_arguments_refused_in_words() -> None:
    with pytest.raises(ValueError, match="one of L, M, Q, H"):
        qr_matrix("a", "X")
    with pytest.raises(TypeError, match="encodes text"):
        qr_matrix(b"a")  # type: ignore[arg-type]
    for scale in (0, -2, 1.5, True):
        with pytest.raises(ValueError, match="scale is a whole number"):
            qr_svg("a", scale=scale)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="control character"):
        qr_svg("a", title="bad\x00title")


# ----------------------------------------------------------------------------------------------
# A real decoder reads it


ZBARIMG = shutil.which("zbarimg")
needs_zbar = pytest.mark.skipif(ZBARIMG is None, reason="zbarimg (Debian's zbar-tools) is not installed")


def zbar(png: Path) -> bytes:
    """What zbarimg reads in ``png``, as bytes (it must read exactly one code)."""
    done = subprocess.run(
        [ZBARIMG or "zbarimg", "--raw", "-q", "-Sbinary", str(png)], capture_output=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout


def decode(svg: str, tmp_path: Path, name: str, scale: int = 6) -> bytes:
    """Draw the SVG's path into a PNG (``scale`` pixels a module) and read it with zbarimg."""
    from PIL import Image

    _, grid = drawn(svg)
    image = Image.new("L", (len(grid) * scale,) * 2, 255)
    for row, line in enumerate(grid):
        for column, dark in enumerate(line):
            if dark:
                image.paste(0, (column * scale, row * scale, (column + 1) * scale, (row + 1) * scale))
    png = tmp_path / f"{name}.png"
    image.save(png)
    return zbar(png)


def test_the_longest_table_link_fills_a_version_40_symbol() -> None:
    assert len(TABLE_LINKS[-1].encode()) == LONGEST["M"]
    assert len(qr_matrix(TABLE_LINKS[-1])) == 177


@needs_zbar
@pytest.mark.parametrize("index", range(len(TABLE_LINKS)))
def test_zbar_reads_every_table_link(tmp_path: Path, index: int) -> None:
    link = TABLE_LINKS[index]
    assert decode(qr_svg(link, title=f"Table {CODE}"), tmp_path, "link", scale=4 if len(link) > 1000 else 6) == (
        link.encode()
    )


@needs_zbar
@pytest.mark.parametrize("ecc", ECC_LEVELS)
def test_zbar_reads_the_svg(tmp_path: Path, ecc: str) -> None:
    samples = [
        "http://192.168.1.20:8866/?table=ABCDE-FGHJK",
        "https://example.org/voila/render/app.ipynb?table=23456-789AB",
        "Speculation — Mansfield Park, ch. 25: «Mrs. Grant» ♥♦♠♣ 😀",
        "café",  # Latin-1 would do, but the picture carries UTF-8
        "x" * 150,
    ]
    for index, text in enumerate(samples):
        assert decode(qr_svg(text, ecc=ecc), tmp_path, f"{ecc}{index}") == text.encode("utf-8")


@needs_zbar
@settings(max_examples=25, deadline=None)
@given(text=texts, ecc=levels)
def test_zbar_reads_any_text(tmp_path_factory: pytest.TempPathFactory, text: str, ecc: str) -> None:
    assert decode(qr_svg(text, ecc=ecc), tmp_path_factory.mktemp("qr"), "code") == text.encode("utf-8")


@pytest.mark.browser
@needs_zbar
def test_zbar_reads_chromiums_rendering_on_a_dark_page(open_page: Any, tmp_path: Path) -> None:
    """Chromium draws the SVG inside a page whose own colours are light on dark (and whose
    stylesheet paints SVG shapes in its text colour); a screenshot of it still reads."""
    link = "http://192.168.1.20:8866/?table=ABCDE-FGHJK"
    page, watch = open_page("about:blank", width=400, height=400)
    page.set_content(
        "<html><body style='margin:20px;background:#111;color:#eee'>"
        "<style>svg * { fill: currentColor; }</style>"
        f"<div style='width:240px'>{qr_svg(link, title='Table ABCDE-FGHJK')}</div></body></html>"
    )
    png = tmp_path / "chromium.png"
    page.locator("svg").screenshot(path=str(png))
    assert zbar(png) == link.encode()
    watch.assert_clean()
