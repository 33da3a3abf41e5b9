"""The picture a chat shows for a link to a day's board (its Open Graph image): the deal's number
and date, how many played and won, the best time. A PNG of 1200×630 (what Open Graph asks for;
chat apps take PNG or JPEG, not SVG), drawn with Pillow in the typeface it ships (Aileron, a
scalable sans-serif: ``ImageFont.load_default(size)``), so it needs no font of the machine's. It
shows what the board shows to anyone, never a card.

>>> png = board_image(title="Yukon #12", date="11.12.26", figures=[("15", "PLAYERS"), ("12", "WON")])
>>> png[:8] == PNG_SIGNATURE, image_size(png)
(True, (1200, 630))
"""

from __future__ import annotations

import functools
import io
import struct
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1200, 630
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MARGIN = 70

Color = tuple[int, int, int]
FELT_TOP: Color = (0x2F, 0x8A, 0x55)
FELT_BOTTOM: Color = (0x13, 0x4A, 0x2C)
WHITE: Color = (0xFF, 0xFF, 0xFF)
ACCENT: Color = (0xF5, 0xC4, 0x51)
INK: Color = (0x1A, 0x1D, 0x22)
RED: Color = (0xC7, 0x28, 0x2B)
SOFT: Color = (0xD7, 0xDE, 0xE6)


@functools.lru_cache(maxsize=16)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def text_width(text: str, size: int, *, bold: bool = False) -> int:
    """How wide ``text`` is drawn at ``size`` pixels (bold: with its one-pixel stroke)."""
    left, _, right, _ = _font(size).getbbox(text, stroke_width=2 if bold else 0)
    return int(right - left)


@functools.cache
def _felt() -> Image.Image:
    """The table's felt: a vertical gradient, drawn once."""
    strip = Image.new("RGB", (1, HEIGHT))
    for y in range(HEIGHT):
        f = y / (HEIGHT - 1)
        strip.putpixel((0, y), tuple(round(a + (b - a) * f) for a, b in zip(FELT_TOP, FELT_BOTTOM, strict=True)))
    return strip.resize((WIDTH, HEIGHT))


def _mark(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """The site's mark, as in the header: a white card with a spade and a red shadow."""
    draw.rounded_rectangle((x + 10, y + 10, x + 110, y + 140), radius=12, fill=RED)
    draw.rounded_rectangle((x, y, x + 100, y + 130), radius=12, fill=WHITE)
    # The spade (the typeface has no suit signs): two lobes, a point above them and a stem.
    cx, cy = x + 50, y + 62
    draw.ellipse((cx - 30, cy - 4, cx + 2, cy + 28), fill=INK)
    draw.ellipse((cx - 2, cy - 4, cx + 30, cy + 28), fill=INK)
    draw.polygon([(cx, cy - 40), (cx - 30, cy + 12), (cx + 30, cy + 12)], fill=INK)
    draw.polygon([(cx, cy + 8), (cx - 14, cy + 44), (cx + 14, cy + 44)], fill=INK)


def board_image(*, title: str, date: str, figures: Sequence[tuple[str, str]], subtitle: str = "") -> bytes:
    """The picture of a day's board: the site's mark and ``title`` ("Yukon #12"), ``subtitle`` and
    ``date`` under it, then up to three ``figures`` (value, label) side by side."""
    image = _felt().copy()
    draw = ImageDraw.Draw(image)
    _mark(draw, MARGIN, 60)
    left = MARGIN + 150
    title_size = next((s for s in (96, 80, 64, 48) if text_width(title, s, bold=True) <= WIDTH - left - MARGIN), 40)
    draw.text((left, 58), title, font=_font(title_size), fill=WHITE, stroke_width=2, stroke_fill=WHITE)
    draw.text((left, 58 + title_size + 22), f"{subtitle}   {date}".strip(), font=_font(40), fill=ACCENT)
    draw.rectangle((MARGIN, 268, WIDTH - MARGIN, 271), fill=SOFT)
    figures = figures[:3]
    column = (WIDTH - 2 * MARGIN) // max(1, len(figures))
    # One size for every figure: the largest at which each fits its column.
    size = next(
        (s for s in (150, 120, 96, 72) if all(text_width(v, s, bold=True) <= column - 30 for v, _ in figures)), 56
    )
    for index, (value, label) in enumerate(figures):
        x = MARGIN + index * column
        draw.text((x, 470), value, font=_font(size), fill=WHITE, anchor="ls", stroke_width=2, stroke_fill=WHITE)
        draw.text((x, 540), label, font=_font(36), fill=SOFT, anchor="ls")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def image_size(png: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    width, height = struct.unpack(">II", png[16:24])
    return width, height
