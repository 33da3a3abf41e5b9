"""The picture a chat shows for a link to a day's board (its Open Graph image): the deal's number
and date, how many played and won, the best time. A PNG (chat apps take PNG or JPEG, not SVG) drawn
here with the standard library alone (``zlib``): a small canvas in a 5×7 pixel font, scaled up five
times to the 1200×630 that Open Graph asks for. It shows what the board shows to anyone, never a card.

>>> png = board_image(title="YUKON #12", date="2026-12-11", figures=[("15", "PLAYERS"), ("12", "WON")])
>>> png[:8] == PNG_SIGNATURE, image_size(png)
(True, (1200, 630))
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence

#: The drawing's size and how much it is scaled up: 240×126 × 5 = 1200×630.
WIDTH, HEIGHT, SCALE = 240, 126, 5
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

Color = tuple[int, int, int]
FELT_TOP: Color = (0x2F, 0x8A, 0x55)
FELT_BOTTOM: Color = (0x13, 0x4A, 0x2C)
WHITE: Color = (0xFF, 0xFF, 0xFF)
ACCENT: Color = (0xF5, 0xC4, 0x51)
INK: Color = (0x1A, 0x1D, 0x22)
RED: Color = (0xC7, 0x28, 0x2B)
SOFT: Color = (0xD7, 0xDE, 0xE6)

#: A 5×7 pixel font: what the picture writes (capitals, digits, a few signs). A character it lacks
#: is drawn as a space.
_GLYPHS = {
    "A": ".###.|#...#|#...#|#####|#...#|#...#|#...#",
    "B": "####.|#...#|#...#|####.|#...#|#...#|####.",
    "C": ".###.|#...#|#....|#....|#....|#...#|.###.",
    "D": "####.|#...#|#...#|#...#|#...#|#...#|####.",
    "E": "#####|#....|#....|####.|#....|#....|#####",
    "F": "#####|#....|#....|####.|#....|#....|#....",
    "G": ".###.|#...#|#....|#.###|#...#|#...#|.####",
    "H": "#...#|#...#|#...#|#####|#...#|#...#|#...#",
    "I": ".###.|..#..|..#..|..#..|..#..|..#..|.###.",
    "J": "..###|...#.|...#.|...#.|...#.|#..#.|.##..",
    "K": "#...#|#..#.|#.#..|##...|#.#..|#..#.|#...#",
    "L": "#....|#....|#....|#....|#....|#....|#####",
    "M": "#...#|##.##|#.#.#|#.#.#|#...#|#...#|#...#",
    "N": "#...#|#...#|##..#|#.#.#|#..##|#...#|#...#",
    "O": ".###.|#...#|#...#|#...#|#...#|#...#|.###.",
    "P": "####.|#...#|#...#|####.|#....|#....|#....",
    "Q": ".###.|#...#|#...#|#...#|#.#.#|#..#.|.##.#",
    "R": "####.|#...#|#...#|####.|#.#..|#..#.|#...#",
    "S": ".####|#....|#....|.###.|....#|....#|####.",
    "T": "#####|..#..|..#..|..#..|..#..|..#..|..#..",
    "U": "#...#|#...#|#...#|#...#|#...#|#...#|.###.",
    "V": "#...#|#...#|#...#|#...#|#...#|.#.#.|..#..",
    "W": "#...#|#...#|#...#|#.#.#|#.#.#|#.#.#|.#.#.",
    "X": "#...#|#...#|.#.#.|..#..|.#.#.|#...#|#...#",
    "Y": "#...#|#...#|.#.#.|..#..|..#..|..#..|..#..",
    "Z": "#####|....#|...#.|..#..|.#...|#....|#####",
    "0": ".###.|#...#|#..##|#.#.#|##..#|#...#|.###.",
    "1": "..#..|.##..|..#..|..#..|..#..|..#..|.###.",
    "2": ".###.|#...#|....#|...#.|..#..|.#...|#####",
    "3": "#####|...#.|..#..|...#.|....#|#...#|.###.",
    "4": "...#.|..##.|.#.#.|#..#.|#####|...#.|...#.",
    "5": "#####|#....|####.|....#|....#|#...#|.###.",
    "6": "..##.|.#...|#....|####.|#...#|#...#|.###.",
    "7": "#####|....#|...#.|..#..|.#...|.#...|.#...",
    "8": ".###.|#...#|#...#|.###.|#...#|#...#|.###.",
    "9": ".###.|#...#|#...#|.####|....#|...#.|.##..",
    "#": ".#.#.|.#.#.|#####|.#.#.|#####|.#.#.|.#.#.",
    ":": ".....|.##..|.##..|.....|.##..|.##..|.....",
    ".": ".....|.....|.....|.....|.....|.##..|.##..",
    "-": ".....|.....|.....|#####|.....|.....|.....",
    "/": "....#|....#|...#.|..#..|.#...|#....|#....",
    " ": ".....|.....|.....|.....|.....|.....|.....",
}
FONT = {char: [[bit == "#" for bit in row] for row in rows.split("|")] for char, rows in _GLYPHS.items()}
#: The spade on the card of the site's mark (9×9).
_SPADE = [
    "....#....",
    "...###...",
    "..#####..",
    ".#######.",
    "#########",
    "#########",
    ".##.#.##.",
    "....#....",
    "...###...",
]


def text_width(text: str, scale: int) -> int:
    """The width of ``text`` in the font at ``scale`` (each character 5 wide and 1 apart)."""
    return max(0, len(text) * 6 - 1) * scale


class Canvas:
    """Rows of RGB bytes; ``fill`` and ``text`` draw, ``png`` writes it scaled up."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.rows = [bytearray(width * 3) for _ in range(height)]

    def fill(self, x: int, y: int, w: int, h: int, color: Color) -> None:
        x0, x1 = max(0, x), min(self.width, x + w)
        if x1 <= x0:
            return
        run = bytes(color) * (x1 - x0)
        for row in self.rows[max(0, y) : max(0, min(self.height, y + h))]:
            row[x0 * 3 : x1 * 3] = run

    def gradient(self, top: Color, bottom: Color) -> None:
        for y, row in enumerate(self.rows):
            f = y / max(1, self.height - 1)
            color = bytes(round(a + (b - a) * f) for a, b in zip(top, bottom, strict=True))
            row[:] = color * self.width

    def bitmap(self, x: int, y: int, rows: Sequence[Sequence[bool]], scale: int, color: Color) -> None:
        for r, bits in enumerate(rows):
            for c, bit in enumerate(bits):
                if bit:
                    self.fill(x + c * scale, y + r * scale, scale, scale, color)

    def text(self, x: int, y: int, text: str, scale: int, color: Color) -> None:
        for char in text.upper():
            self.bitmap(x, y, FONT.get(char, FONT[" "]), scale, color)
            x += 6 * scale

    def png(self, scale: int) -> bytes:
        """The canvas as a PNG, each pixel ``scale`` × ``scale``."""
        lines = []
        step = 3 * scale
        for row in self.rows:
            wide = bytearray(len(row) * scale)
            for repeat in range(scale):  # each pixel's three bytes, ``scale`` times side by side
                for channel in range(3):
                    wide[3 * repeat + channel :: step] = row[channel::3]
            lines.append((b"\x00" + wide) * scale)  # filter type 0 (none) before each line
        header = struct.pack(">IIBBBBB", self.width * scale, self.height * scale, 8, 2, 0, 0, 0)
        data = zlib.compress(b"".join(lines), 6)
        return PNG_SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def image_size(png: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def board_image(*, title: str, date: str, figures: Sequence[tuple[str, str]], subtitle: str = "") -> bytes:
    """The picture of a day's board: the site's mark and ``title`` ("YUKON #12"), ``subtitle`` and
    ``date`` under it, then up to three ``figures`` (value, label) side by side."""
    canvas = Canvas(WIDTH, HEIGHT)
    canvas.gradient(FELT_TOP, FELT_BOTTOM)
    # The mark: a white card with a spade and a red shadow, as in the header.
    canvas.fill(16, 14, 20, 26, RED)
    canvas.fill(14, 12, 20, 26, WHITE)
    canvas.bitmap(15, 16, [[bit == "#" for bit in row] for row in _SPADE], 2, INK)
    title_scale = 3 if text_width(title, 3) <= WIDTH - 46 else 2
    canvas.text(44, 12, title, title_scale, WHITE)
    canvas.text(44, 12 + 7 * title_scale + 5, f"{subtitle}  {date}".strip(), 1, ACCENT)
    canvas.fill(14, 56, WIDTH - 28, 1, SOFT)
    figures = figures[:3]
    column = (WIDTH - 28) // max(1, len(figures))
    # One size for every figure: the largest at which each fits its column.
    scale = next((s for s in (4, 3, 2) if all(text_width(value, s) <= column - 6 for value, _ in figures)), 1)
    for index, (value, label) in enumerate(figures):
        x = 14 + index * column
        canvas.text(x, 66 + (4 - scale) * 7, value, scale, WHITE)
        canvas.text(x, 101, label, 1, SOFT)
    return canvas.png(SCALE)
