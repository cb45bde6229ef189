"""The table's QR code (speculation_nb/rendering/qr.py) against an independent encoder and a real decoder.

The reference is segno (pure Python, the ``test`` extra): for the same text, error level,
version and mask both encoders must draw the very same modules; and the version and mask our
encoder picks by itself must be the ones the standard's rules give, checked against segno's own
penalty scores. segno has one known deviation from ISO/IEC 18004, which the ``segno`` fixture
corrects before any comparison: when the data ends on a codeword boundary (always so in byte mode
when the whole 4-bit terminator fits) it adds a zero codeword before the pad codewords 0xEC 0x11
(heuer/segno#123, heuer/segno#148); decoders ignore padding, so both are readable, but only the
standard's padding is compared here.

The picture is decoded with ZBar's ``zbarimg`` (Debian's ``zbar-tools``) when it is installed,
from a PNG drawn from the SVG's own path; the test is skipped without it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from speculation_nb.rendering.qr import ECC_LEVELS, MAX_VERSION, qr_code, qr_matrix, qr_svg

SVG = "{http://www.w3.org/2000/svg}"
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # T1's alphabet

ascii_texts = st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=150)
unicode_texts = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=150)
table_links = st.builds(
    lambda address, port, code: f"http://{'.'.join(map(str, address))}:{port}/?table={code[:5]}-{code[5:]}",
    st.tuples(*[st.integers(0, 255)] * 4),
    st.integers(1, 65535),
    st.text(st.sampled_from(CODE_ALPHABET), min_size=10, max_size=10),
)
texts = st.one_of(ascii_texts, unicode_texts, table_links)
levels = st.sampled_from(ECC_LEVELS)


@pytest.fixture(scope="module")
def segno() -> Iterator[ModuleType]:
    """segno, with the standard's padding (no extra zero codeword on a codeword boundary)."""
    segno = pytest.importorskip("segno")
    from segno import encoder

    assert hasattr(encoder, "write_padding_bits"), "segno changed: check the padding fix below"

    def standard_padding(buff: bytearray, version: int, length: int) -> None:
        buff.extend([0] * (-length % 8))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(encoder, "write_padding_bits", standard_padding)
        yield segno


def segno_code(segno: ModuleType, text: str, ecc: str, version: int | None = None, mask: int | None = None) -> object:
    return segno.make(
        text.encode("utf-8"), error=ecc, version=version, mask=mask, mode="byte", boost_error=False, micro=False
    )


def modules(code: object) -> list[list[bool]]:
    """segno's matrix (no border) as rows of booleans."""
    return [[bool(module) for module in row] for row in code.matrix]  # type: ignore[attr-defined]


def format_places(version: int) -> set[tuple[int, int]]:
    """The modules written after the mask is chosen: format information (both copies), the dark
    module and, from version 7, the version information."""
    size = 17 + 4 * version
    near = [i for i in (*range(9), *range(size - 8, size)) if i != 6]  # (6, 8) and (8, 6): timing
    places = {(8, i) for i in near} | {(i, 8) for i in near}
    if version >= 7:
        block = {(row, column) for row in range(6) for column in range(size - 11, size - 8)}
        places |= block | {(column, row) for row, column in block}
    return places


def as_evaluated(matrix: list[list[bool]], version: int) -> tuple[bytearray, ...]:
    """The symbol as the mask was scored: the format and version modules still light."""
    blank = format_places(version)
    return tuple(
        bytearray(0 if (i, j) in blank else int(value) for j, value in enumerate(row)) for i, row in enumerate(matrix)
    )


def overlapping_finder_like(matrix: list[list[bool]]) -> bool:
    """True when some row or column holds two overlapping 1:1:3:1:1 patterns (``10111011101`` or
    ``1011101011101``), the one case where the penalty rule N3 is read two ways."""
    size = len(matrix)
    lines = ["".join("1" if v else "0" for v in row) for row in matrix]
    lines += ["".join("1" if matrix[i][j] else "0" for i in range(size)) for j in range(size)]
    return any("10111011101" in line or "1011101011101" in line for line in lines)


# ----------------------------------------------------------------------------------------------
# The same modules as segno


@settings(max_examples=150)
@given(text=texts, ecc=levels, mask=st.integers(0, 7))
def test_forced_mask_same_modules_as_segno(segno: ModuleType, text: str, ecc: str, mask: int) -> None:
    ours = qr_code(text, ecc, mask=mask)
    theirs = segno_code(segno, text, ecc, version=ours.version, mask=mask)
    assert ours.matrix == modules(theirs)


@settings(max_examples=150)
@given(text=texts, ecc=levels)
def test_chosen_version_and_mask_as_the_standard_rules(segno: ModuleType, text: str, ecc: str) -> None:
    ours = qr_code(text, ecc)
    best = segno_code(segno, text, ecc)
    assert ours.version == best.version  # type: ignore[attr-defined]
    assert ours.matrix == modules(segno_code(segno, text, ecc, version=ours.version, mask=ours.mask))
    assert qr_matrix(text, ecc) == ours.matrix
    from segno import encoder

    theirs = []
    for mask in range(8):
        candidate = qr_code(text, ecc, version=ours.version, mask=mask).matrix
        scores = tuple(encoder.mask_scores(as_evaluated(candidate, ours.version), len(candidate), len(candidate)))
        mine = ours.penalties[mask]
        # N1 (runs), N2 (blocks) and N4 (balance) are scored alike; N3 alike unless two
        # finder-like patterns overlap: we count both, segno only the first.
        assert mine[:2] == scores[:2] and mine[3] == scores[3], (mask, mine, scores)
        assert mine[2] == scores[2] or (mine[2] > scores[2] and overlapping_finder_like(candidate)), (
            mask,
            mine,
            scores,
        )
        theirs.append(sum(scores))
    assert ours.mask == min(range(8), key=lambda m: (sum(ours.penalties[m]), m))
    if theirs == [sum(p) for p in ours.penalties]:
        assert ours.mask == best.mask  # type: ignore[attr-defined]


@pytest.mark.parametrize("ecc", ECC_LEVELS)
def test_every_version_full_to_capacity_as_segno(segno: ModuleType, ecc: str) -> None:
    """Every version 1-40 with the longest text it holds: the same modules (the block tables, the
    alignment positions and the version information of every version), and one byte more takes
    the next version (segno refuses it at this one)."""
    link = "http://192.168.1.20:8866/?table=ABCDE-FGHJK&é€"
    for version in range(1, MAX_VERSION + 1):
        capacity = segno.consts.SYMBOL_CAPACITY[version][segno.consts.ERROR_MAPPING[ecc]] // 8 - (
            2 if version <= 9 else 3
        )
        text = (link * 80).encode("utf-8")[:capacity].decode("utf-8", "ignore")
        text += "x" * (capacity - len(text.encode("utf-8")))
        assert len(text.encode("utf-8")) == capacity
        ours = qr_code(text, ecc, mask=version % 8)
        assert ours.version == version
        assert ours.matrix == modules(segno_code(segno, text, ecc, version=version, mask=version % 8))
        if version < MAX_VERSION:
            assert qr_code(text + "x", ecc, mask=0).version == version + 1
            with pytest.raises(segno.DataOverflowError):
                segno_code(segno, text + "x", ecc, version=version, mask=0)


# ----------------------------------------------------------------------------------------------
# Refusals in words


#: Bytes a version 40 symbol holds in byte mode (ISO/IEC 18004, table 7).
LONGEST = {"L": 2953, "M": 2331, "Q": 1663, "H": 1273}


@pytest.mark.parametrize("ecc", ECC_LEVELS)
def test_too_long_refused_with_the_limit(ecc: str) -> None:
    longest = LONGEST[ecc]
    code = qr_code("é" * (longest // 2) + "x" * (longest % 2), ecc, mask=0)
    assert code.version == MAX_VERSION and len(code.matrix) == 177
    with pytest.raises(
        ValueError, match=rf"too long for a QR code at level {ecc}: {longest + 1} bytes .* at most {longest}"
    ):
        qr_matrix("x" * (longest + 1), ecc)
    with pytest.raises(ValueError, match="does not fit version 1"):
        qr_code("x" * 100, ecc, version=1)


def test_bad_arguments_refused_in_words() -> None:
    with pytest.raises(ValueError, match="one of L, M, Q, H"):
        qr_matrix("a", "X")
    for version in (0, 41, True, 2.0):
        with pytest.raises(ValueError, match="version is a whole number from 1 to 40"):
            qr_code("a", version=version)  # type: ignore[arg-type]
    for mask in (-1, 8, True):
        with pytest.raises(ValueError, match="mask is a whole number from 0 to 7"):
            qr_code("a", mask=mask)
    with pytest.raises(TypeError, match="encodes text"):
        qr_matrix(b"a")  # type: ignore[arg-type]
    for scale in (0, -2, 1.5, True):
        with pytest.raises(ValueError, match="scale is a whole number"):
            qr_svg("a", scale=scale)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="control character"):
        qr_svg("a", title="bad\x00title")


def test_a_table_link_fits_version_10_at_every_level() -> None:
    link = "http://192.168.100.200:65535/?table=ABCDE-FGHJK"
    for ecc in ECC_LEVELS:
        assert qr_code(link, ecc).version <= 10
    assert qr_code("é" * 75).version <= 10  # 150 bytes of UTF-8 at level M


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
    assert root.get("viewBox") == f"0 0 {size + 8} {size + 8}"
    assert root.get("width") is None and root.get("height") is None
    assert grid == (
        [[False] * (size + 8)] * 4 + [[False] * 4 + row + [False] * 4 for row in matrix] + [[False] * (size + 8)] * 4
    )
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
    assert "currentColor" not in svg


# ----------------------------------------------------------------------------------------------
# A real decoder reads it


ZBARIMG = shutil.which("zbarimg")


def decode(svg: str, tmp_path: Path, name: str) -> bytes:
    """Draw the SVG's path into a PNG (6 pixels a module) and read it with zbarimg."""
    from PIL import Image

    _, grid = drawn(svg)
    scale = 6
    image = Image.new("L", (len(grid) * scale,) * 2, 255)
    for row, line in enumerate(grid):
        for column, dark in enumerate(line):
            if dark:
                image.paste(0, (column * scale, row * scale, (column + 1) * scale, (row + 1) * scale))
    png = tmp_path / f"{name}.png"
    image.save(png)
    done = subprocess.run(
        [ZBARIMG or "zbarimg", "--raw", "-q", "-Sbinary", str(png)], capture_output=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout


@pytest.mark.skipif(ZBARIMG is None, reason="zbarimg (Debian's zbar-tools) is not installed")
@pytest.mark.parametrize("ecc", ECC_LEVELS)
def test_zbar_reads_the_svg(tmp_path: Path, ecc: str) -> None:
    samples = [
        "http://192.168.1.20:8866/?table=ABCDE-FGHJK",
        "https://example.org/voila/render/app.ipynb?table=23456-789AB",
        "Speculation — Mansfield Park, ch. 25: «Mrs. Grant» ♥♦♠♣ 😀",
        "x" * 150,
    ]
    for index, text in enumerate(samples):
        assert decode(qr_svg(text, ecc=ecc), tmp_path, f"{ecc}{index}") == text.encode("utf-8")


@pytest.mark.skipif(ZBARIMG is None, reason="zbarimg (Debian's zbar-tools) is not installed")
@settings(max_examples=25)
@given(text=texts, ecc=levels)
def test_zbar_reads_any_text(tmp_path_factory: pytest.TempPathFactory, text: str, ecc: str) -> None:
    assert decode(qr_svg(text, ecc=ecc), tmp_path_factory.mktemp("qr"), "code") == text.encode("utf-8")


@pytest.mark.browser
@pytest.mark.skipif(ZBARIMG is None, reason="zbarimg (Debian's zbar-tools) is not installed")
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
    done = subprocess.run(
        [ZBARIMG or "zbarimg", "--raw", "-q", "-Sbinary", str(png)], capture_output=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert done.stdout == link.encode()
    watch.assert_clean()
