"""A QR code encoder in pure Python: the table's link as a picture a phone's camera reads.

The teacher projects the shared table's link (``http://<address>:<port>/?table=ABCDE-FGHJK``)
as a QR code; a student points a phone at the screen and the page opens. This module makes that
picture with the standard library only, following ISO/IEC 18004 (QR Code, model 2), in the
order the standard builds a symbol:

1. **Data encoding** (:func:`_data_codewords`): the text as UTF-8 bytes in *byte mode*: a
   4-bit mode indicator ``0100``, the byte count (8 bits up to version 9, 16 bits from 10),
   the bytes, a terminator of up to four 0 bits, 0 bits up to a whole byte, then the pad bytes
   ``0xEC 0x11`` alternately until the version's data capacity is full.
2. **Error correction** (:func:`_final_codewords`): the data codewords are cut into blocks and
   each block gets Reed-Solomon check codewords (:func:`_rs_remainder`, arithmetic in the
   field GF(256)), so that a reader can repair smudged or hidden modules: about 7 % (level L),
   15 % (M), 25 % (Q) or 30 % (H) of the codewords. The blocks are then *interleaved*
   (first codeword of every block, second of every block, ...) so that one damaged patch of
   the picture spreads over many blocks instead of ruining one.
3. **Function patterns** (:func:`_function_patterns`): what a reader finds before any data:
   the three finder squares in the corners, the timing lines between them, the small
   alignment squares (from version 2) and the reserved places of the format and version
   information.
4. **Codeword placement** (:func:`_place`): the bits go into the free modules in two-module
   wide columns, zig-zagging up and down from the bottom-right corner.
5. **Masking** (:func:`_mask_bit`, :func:`penalty`): one of eight fixed patterns is XORed onto
   the data modules so that the picture has no large blank areas or finder-like shapes that
   confuse a reader; every mask is tried and the one with the lowest penalty (the standard's
   four rules N1-N4) is kept, the first of equals.
6. **Format and version information** (:func:`_format_bits`, :func:`_version_bits`): the error
   level and the mask (and, from version 7, the version) written twice, with their own BCH
   error correction, so a reader learns how to read the rest; and the one module above the
   bottom-left finder that is always dark.

:func:`qr_matrix` gives the modules (True = dark) and :func:`qr_svg` an SVG picture of them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

__all__ = ["ECC_LEVELS", "MAX_VERSION", "QRCode", "penalty", "qr_code", "qr_matrix", "qr_svg"]

#: The error correction levels, weakest first.
ECC_LEVELS = ("L", "M", "Q", "H")
MAX_VERSION = 40
#: The two bits each level writes into the format information (ISO/IEC 18004, table 12).
_FORMAT_ECC = {"L": 0b01, "M": 0b00, "Q": 0b11, "H": 0b10}

# Per level and version 1-40 (ISO/IEC 18004, table 9): the check codewords of each block, and the
# number of blocks. Index 0 is unused.


def _by_version(numbers: str) -> tuple[int, ...]:
    return (0, *map(int, numbers.split()))


_ECC_PER_BLOCK = {
    "L": _by_version(
        "7 10 15 20 26 18 20 24 30 18 20 24 26 30 22 24 28 30 28 28"
        " 28 28 30 30 26 28 30 30 30 30 30 30 30 30 30 30 30 30 30 30"
    ),
    "M": _by_version(
        "10 16 26 18 24 16 18 22 22 26 30 22 22 24 24 28 28 26 26 26"
        " 26 28 28 28 28 28 28 28 28 28 28 28 28 28 28 28 28 28 28 28"
    ),
    "Q": _by_version(
        "13 22 18 26 18 24 18 22 20 24 28 26 24 20 30 24 28 28 26 30"
        " 28 30 30 30 30 28 30 30 30 30 30 30 30 30 30 30 30 30 30 30"
    ),
    "H": _by_version(
        "17 28 22 16 22 28 26 26 24 28 24 28 22 24 24 30 28 28 26 28"
        " 30 24 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30"
    ),
}
_BLOCKS = {
    "L": _by_version(
        "1 1 1 1 1 2 2 2 2 4 4 4 4 4 6 6 6 6 7 8 8 9 9 10 12 12 12 13 14 15 16 17 18 19 19 20 21 22 24 25"
    ),
    "M": _by_version(
        "1 1 1 2 2 4 4 4 5 5 5 8 9 9 10 10 11 13 14 16 17 17 18 20 21 23 25 26 28 29 31 33 35 37 38 40 43 45 47 49"
    ),
    "Q": _by_version(
        "1 1 2 2 4 4 6 6 8 8 8 10 12 16 12 17 16 18 21 20 23 23 25 27 29 34 34 35 38 40 43 45 48 51 53 56 59 62 65 68"
    ),
    "H": _by_version(
        "1 1 2 4 4 4 5 6 8 8 11 11 16 16 18 16 19 21 25 25 25 34 30 32 35 37 40 42 45 48 51 54 57 60 63 66 70 74 77 81"
    ),
}

Grid = list[list[bool]]


@dataclass(frozen=True)
class QRCode:
    """One encoded symbol: its version (1-40: the size is ``17 + 4 * version`` modules), error
    level, mask (0-7), the modules (``matrix[row][column]``, True = dark, no quiet zone) and each
    mask's penalty (N1, N2, N3, N4) as evaluated to choose it: before the format and version
    information are written, so those modules count as light (empty when the mask was forced)."""

    version: int
    ecc: str
    mask: int
    matrix: Grid
    penalties: tuple[tuple[int, int, int, int], ...]


# ----------------------------------------------------------------------------------------------
# Step 1: data encoding


def _size(version: int) -> int:
    return 17 + 4 * version


def _raw_modules(version: int) -> int:
    """Modules left for data and check codewords once the function patterns are drawn (the
    symbol's area minus finders with separators, timing, alignment, format and version areas)."""
    result = (16 * version + 128) * version + 64
    if version >= 2:
        count = version // 7 + 2
        result -= (25 * count - 10) * count - 55
        if version >= 7:
            result -= 36
    return result


def _data_capacity(version: int, ecc: str) -> int:
    """Data codewords of a symbol: all its codewords minus the check codewords of its blocks."""
    return _raw_modules(version) // 8 - _ECC_PER_BLOCK[ecc][version] * _BLOCKS[ecc][version]


def _count_bits(version: int) -> int:
    return 8 if version <= 9 else 16


def _fits(length: int, version: int, ecc: str) -> bool:
    return 4 + _count_bits(version) + 8 * length <= 8 * _data_capacity(version, ecc)


def _data_codewords(data: bytes, version: int, ecc: str) -> list[int]:
    """The byte-mode bit stream of ``data``, terminated and padded to the version's capacity."""
    capacity = _data_capacity(version, ecc)
    bits = [0, 1, 0, 0]
    bits += [(len(data) >> i) & 1 for i in reversed(range(_count_bits(version)))]
    for byte in data:
        bits += [(byte >> i) & 1 for i in reversed(range(8))]
    bits += [0] * min(4, 8 * capacity - len(bits))
    bits += [0] * (-len(bits) % 8)
    words = [int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits), 8)]
    words += [(0xEC, 0x11)[i % 2] for i in range(capacity - len(words))]
    return words


# ----------------------------------------------------------------------------------------------
# Step 2: error correction in GF(256)

# GF(256) with the polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D): adding is XOR; multiplying goes
# through logarithms to the base 2 (the field's generator alpha).
_EXP = [0] * 512
_LOG = [0] * 256
_value = 1
for _power in range(255):
    _EXP[_power] = _value
    _LOG[_value] = _power
    _value <<= 1
    if _value & 0x100:
        _value ^= 0x11D
for _power in range(255, 512):
    _EXP[_power] = _EXP[_power - 255]


def _gf_mul(a: int, b: int) -> int:
    return 0 if a == 0 or b == 0 else _EXP[_LOG[a] + _LOG[b]]


def _rs_generator(degree: int) -> list[int]:
    """The generator polynomial (x - a^0)(x - a^1)...(x - a^(degree-1)), highest power first."""
    poly = [1]
    for i in range(degree):
        poly = [*poly, 0]
        for j in range(len(poly) - 1, 0, -1):
            poly[j] ^= _gf_mul(poly[j - 1], _EXP[i])
    return poly


def _rs_remainder(data: Sequence[int], degree: int) -> list[int]:
    """The check codewords: the remainder of data(x) * x^degree divided by the generator, by the
    same long division as on paper (subtracting is XOR in this field)."""
    generator = _rs_generator(degree)
    rest = [*data, *([0] * degree)]
    for i in range(len(data)):
        factor = rest[i]
        if factor:
            for j in range(1, degree + 1):
                rest[i + j] ^= _gf_mul(generator[j], factor)
    return rest[len(data) :]


def _final_codewords(data: list[int], version: int, ecc: str) -> list[int]:
    """Data cut into blocks (the last ones one codeword longer when it does not divide evenly),
    each with its check codewords; then data interleaved, then check codewords interleaved."""
    blocks = _BLOCKS[ecc][version]
    degree = _ECC_PER_BLOCK[ecc][version]
    short = len(data) // blocks
    long_blocks = len(data) % blocks
    pieces: list[list[int]] = []
    start = 0
    for index in range(blocks):
        length = short + (index >= blocks - long_blocks)
        pieces.append(data[start : start + length])
        start += length
    checks = [_rs_remainder(piece, degree) for piece in pieces]
    result = [piece[i] for i in range(short + 1) for piece in pieces if i < len(piece)]
    result += [check[i] for i in range(degree) for check in checks]
    return result


# ----------------------------------------------------------------------------------------------
# Step 3 and 4: function patterns and codeword placement


def _alignment_positions(version: int) -> list[int]:
    """Row and column centres of the alignment patterns: from 6 to ``size - 7``, evenly spaced
    with an even step (the standard's table E.1, computed)."""
    if version == 1:
        return []
    count = version // 7 + 2
    step = (version * 8 + count * 3 + 5) // (count * 4 - 4) * 2
    last = _size(version) - 7
    return [6, *sorted(last - i * step for i in range(count - 1))]


def _function_patterns(version: int) -> tuple[Grid, Grid]:
    """The modules every symbol of this version shares, and which modules they take
    (``reserved``): the data goes only where ``reserved`` is False. The format and version
    areas and the dark module are reserved here and left light: they are written after the
    mask is chosen (step 6)."""
    size = _size(version)
    dark = [[False] * size for _ in range(size)]
    reserved = [[False] * size for _ in range(size)]

    def put(row: int, column: int, value: bool) -> None:
        dark[row][column] = value
        reserved[row][column] = True

    for i in range(size):
        put(6, i, i % 2 == 0)
        put(i, 6, i % 2 == 0)
    for centre_row, centre_column in ((3, 3), (3, size - 4), (size - 4, 3)):
        for dr in range(-4, 5):
            for dc in range(-4, 5):
                row, column = centre_row + dr, centre_column + dc
                if 0 <= row < size and 0 <= column < size:
                    put(row, column, max(abs(dr), abs(dc)) not in (2, 4))
    positions = _alignment_positions(version)
    for row in positions:
        for column in positions:
            if (row, column) in ((6, 6), (6, size - 7), (size - 7, 6)):
                continue
            for dr in range(-2, 3):
                for dc in range(-2, 3):
                    put(row + dr, column + dc, max(abs(dr), abs(dc)) != 1)
    for row, column in _format_places(size)[0] + _format_places(size)[1] + [(size - 8, 8)]:
        put(row, column, False)
    if version >= 7:
        for row, column in _version_places(size):
            put(row, column, False)
    return dark, reserved


def _place(dark: Grid, reserved: Grid, codewords: list[int]) -> None:
    """Write the codewords' bits, most significant first, into the free modules: pairs of columns
    from the right, going up, then down, and so on; the vertical timing line (column 6) is
    skipped. Modules left over (the remainder bits, 0 to 7 of them) get 0, which the mask then
    flips like any other data bit."""
    size = len(dark)
    bits = [(word >> (7 - i)) & 1 == 1 for word in codewords for i in range(8)]
    index = 0
    right = size - 1
    while right >= 1:
        if right == 6:
            right = 5
        upward = (right + 1) & 2 == 0
        for step in range(size):
            row = size - 1 - step if upward else step
            for column in (right, right - 1):
                if not reserved[row][column] and index < len(bits):
                    dark[row][column] = bits[index]
                    index += 1
        right -= 2


# ----------------------------------------------------------------------------------------------
# Step 5: masking and the penalty rules


def _mask_bit(mask: int, row: int, column: int) -> bool:
    """True where mask ``mask`` (0-7, ISO/IEC 18004 table 10) flips a data module."""
    i, j = row, column
    if mask == 0:
        return (i + j) % 2 == 0
    if mask == 1:
        return i % 2 == 0
    if mask == 2:
        return j % 3 == 0
    if mask == 3:
        return (i + j) % 3 == 0
    if mask == 4:
        return (i // 2 + j // 3) % 2 == 0
    if mask == 5:
        return (i * j) % 2 + (i * j) % 3 == 0
    if mask == 6:
        return ((i * j) % 2 + (i * j) % 3) % 2 == 0
    return ((i + j) % 2 + (i * j) % 3) % 2 == 0


def _masked(dark: Grid, reserved: Grid, mask: int) -> Grid:
    return [
        [value != (not reserved[i][j] and _mask_bit(mask, i, j)) for j, value in enumerate(line)]
        for i, line in enumerate(dark)
    ]


_FINDER_LIKE = (True, False, True, True, True, False, True)


def penalty(matrix: Grid) -> tuple[int, int, int, int]:
    """The standard's four penalties of a square symbol (ISO/IEC 18004, 7.8.3), lower is better:

    * N1: each run of 5 or more modules of one colour in a row or column scores ``run - 2``;
    * N2: each 2x2 block of one colour scores 3 (blocks may overlap);
    * N3: each dark-light-dark-dark-dark-light-dark (1:1:3:1:1, like a finder) in a row or
      column with 4 light modules before or after it (outside the symbol counts as light)
      scores 40;
    * N4: 10 for each whole 5 % the share of dark modules lies away from 50 %.

    Two finder-like patterns may overlap (``10111011101``): each is counted. The standard
    evaluates the symbol after masking and before the format information is added (its steps 6
    and 7), so :func:`qr_code` scores each candidate with the format modules still light.
    """
    size = len(matrix)
    lines = [list(row) for row in matrix] + [[matrix[i][j] for i in range(size)] for j in range(size)]
    n1 = sum(n - 2 for line in lines for n in (len(list(run)) for _, run in groupby(line)) if n >= 5)
    n2 = 3 * sum(
        1
        for i in range(size - 1)
        for j in range(size - 1)
        if matrix[i][j] == matrix[i][j + 1] == matrix[i + 1][j] == matrix[i + 1][j + 1]
    )
    n3 = 0
    for line in lines:
        for start in range(size - 6):
            if tuple(line[start : start + 7]) == _FINDER_LIKE and (
                not any(line[max(start - 4, 0) : start]) or not any(line[start + 7 : start + 11])
            ):
                n3 += 40
    dark = sum(map(sum, matrix))
    n4 = 10 * (abs(20 * dark - 10 * size * size) // (size * size))
    return n1, n2, n3, n4


# ----------------------------------------------------------------------------------------------
# Step 6: format and version information


def _format_places(size: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Where the 15 format bits go, bit 0 first: around the top-left finder, and again split
    between the top-right and bottom-left finders (``(row, column)`` pairs)."""
    first = [(i, 8) for i in range(6)] + [(7, 8), (8, 8), (8, 7)] + [(8, 14 - i) for i in range(9, 15)]
    second = [(8, size - 1 - i) for i in range(8)] + [(size - 15 + i, 8) for i in range(8, 15)]
    return first, second


def _version_places(size: int) -> list[tuple[int, int]]:
    """The 18 version bits, bit 0 first, in the 6x3 block above the bottom-left finder; the
    block beside the top-right finder is its mirror image."""
    places = []
    for i in range(18):
        a, b = size - 11 + i % 3, i // 3
        places += [(a, b), (b, a)]
    return places


def _bch(value: int, width: int, generator: int) -> int:
    """``value`` followed by the remainder of value * x^width divided by ``generator`` (a BCH code)."""
    rest = value << width
    degree = generator.bit_length() - 1
    for shift in reversed(range(rest.bit_length() - degree)):
        if rest >> (shift + degree) & 1:
            rest ^= generator << shift
    return value << width | rest


def _format_bits(ecc: str, mask: int) -> int:
    """Level and mask (5 bits) with 10 BCH bits, XORed with 0x5412 so it is never all light."""
    return _bch(_FORMAT_ECC[ecc] << 3 | mask, 10, 0x537) ^ 0x5412


def _version_bits(version: int) -> int:
    """The version (6 bits) with 12 BCH bits (generator 0x1F25)."""
    return _bch(version, 12, 0x1F25)


def _finish(matrix: Grid, version: int, ecc: str, mask: int) -> Grid:
    size = len(matrix)
    result = [list(row) for row in matrix]
    bits = _format_bits(ecc, mask)
    for places in _format_places(size):
        for bit, (row, column) in enumerate(places):
            result[row][column] = bool(bits >> bit & 1)
    result[size - 8][8] = True
    if version >= 7:
        bits = _version_bits(version)
        for index, (row, column) in enumerate(_version_places(size)):
            result[row][column] = bool(bits >> (index // 2) & 1)
    return result


# ----------------------------------------------------------------------------------------------
# The API


def qr_code(text: str, ecc: str = "M", *, version: int | None = None, mask: int | None = None) -> QRCode:
    """Encode ``text`` (UTF-8, byte mode) at error level ``ecc``.

    ``version`` None takes the smallest that holds the text; ``mask`` None the mask of lowest
    penalty. ValueError, with the reason, for an unknown level, a version or mask out of range,
    or a text too long for the version (or for version 40).
    """
    if ecc not in ECC_LEVELS:
        raise ValueError(f"the error correction level is one of L, M, Q, H, not {ecc!r}")
    if not isinstance(text, str):
        raise TypeError(f"a QR code encodes text (str), not {type(text).__name__}")
    data = text.encode("utf-8")
    if version is None:
        fitting = [v for v in range(1, MAX_VERSION + 1) if _fits(len(data), v, ecc)]
        if not fitting:
            limit = _data_capacity(MAX_VERSION, ecc) - 3
            raise ValueError(
                f"the text is too long for a QR code at level {ecc}: {len(data)} bytes of UTF-8, at most {limit}"
            )
        version = fitting[0]
    elif isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= MAX_VERSION:
        raise ValueError(f"the version is a whole number from 1 to {MAX_VERSION}, not {version!r}")
    elif not _fits(len(data), version, ecc):
        raise ValueError(f"the text ({len(data)} bytes of UTF-8) does not fit version {version} at level {ecc}")
    if mask is not None and (isinstance(mask, bool) or not isinstance(mask, int) or not 0 <= mask <= 7):
        raise ValueError(f"the mask is a whole number from 0 to 7, not {mask!r}")
    dark, reserved = _function_patterns(version)
    _place(dark, reserved, _final_codewords(_data_codewords(data, version, ecc), version, ecc))
    if mask is not None:
        return QRCode(version, ecc, mask, _finish(_masked(dark, reserved, mask), version, ecc, mask), ())
    candidates = [_masked(dark, reserved, m) for m in range(8)]
    penalties = tuple(penalty(candidate) for candidate in candidates)
    totals = [sum(p) for p in penalties]
    mask = totals.index(min(totals))
    return QRCode(version, ecc, mask, _finish(candidates[mask], version, ecc, mask), penalties)


def qr_matrix(text: str, ecc: str = "M") -> Grid:
    """The modules of ``text``'s QR code, ``matrix[row][column]``, True = dark, without the
    quiet zone (the smallest version that holds it, the best mask)."""
    return qr_code(text, ecc).matrix


# XML 1.0 allows no control character but tab, newline and carriage return, even escaped.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
QUIET_ZONE = 4


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
