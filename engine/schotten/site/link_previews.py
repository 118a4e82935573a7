"""The picture a chat or a social network shows for a link to a page: 1200 x 630 PNG.

Each page's preview draws one of the site's own position pictures (:mod:`schotten.svg`) beside
the page's title and a caption in the page's language: the FAQ's first verified position and the
engine's verdict on it for the edge-case page, a formation checked by the engine for the rules
page (:data:`PAGE_PICTURES`). The picture is rasterised by resvg with the fonts shipped in
``fonts/`` and no system font, so that the same page gives the same bytes on any machine.

>>> from schotten.board import Variant
>>> picture = position_svg(Board.empty(Variant.BASE))
>>> png = render_png(preview_svg(Preview("Titre", (("Légende", "bold"),), "Site", picture, "")))
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", png_size(png)
(True, (1200, 630))
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import metadata, resources
from pathlib import Path
from typing import Literal
from xml.sax.saxutils import escape, quoteattr

from schotten.board import Board, Player, Variant
from schotten.casebook import CaseResult
from schotten.site import SiteCheckError, labels, tables
from schotten.site.build_cache import kept_bytes
from schotten.site.facts import KINDS, check_example
from schotten.site.pictures import picture_title
from schotten.site.words import capital, cards_text, formation_name
from schotten.svg import position_svg
from schotten.svg_shapes import INK

WIDTH, HEIGHT = 1200, 630
MAX_BYTES = 150 * 1024  # what a chat or a network accepts without a second thought
FONT_FAMILY = "DejaVu Sans"

Style = Literal["bold", "regular", "granted", "refused"]


@dataclass(frozen=True)
class Formation:
    """A formation drawn on your side of one stone (cards in the site's notation)."""

    cards: str
    kind: str


@dataclass(frozen=True)
class TableCase:
    """The first row of a published table."""

    table: str


# What each page's preview shows (by page, without its language); any other page shows the FAQ's
# first position.
PAGE_PICTURES: Mapping[str, Formation | TableCase] = {
    "index": TableCase(tables.FAQ),
    "edge-cases": TableCase(tables.FAQ),
    "rules": Formation("blue 5, blue 6, blue 7", "colour-run"),
    "odds": Formation("red 3, green 3, blue 3", "same-value"),
    "tactics": TableCase("ruses"),
    "rulings": TableCase("site-rulings"),
    "proofs": TableCase("base-game"),
}

_BACKGROUND = "#f5f0e1"
_PANEL = "#ffffff"
_ACCENT = "#6d4c41"
_COLOURS: Mapping[Style, str] = {
    "bold": INK,
    "regular": INK,
    "granted": "#1b5e20",
    "refused": "#b71c1c",
}
_MARGIN = 40
_PICTURE = (_MARGIN, _MARGIN, 540, HEIGHT - 2 * _MARGIN)  # x, y, width, height of its panel
_TEXT_X = 620
_TEXT_W = WIDTH - _TEXT_X - _MARGIN
_SITE_SIZE, _TITLE_SIZE, _CAPTION_SIZE = 26, 52, 32
_MAX_TITLE_LINES, _MAX_CAPTION_LINES = 3, 7


@dataclass(frozen=True)
class Preview:
    """What one page's preview shows: its title, a caption (lines of text, each with its style),
    the site's name, a position picture and the words that describe the picture (its alt)."""

    title: str
    caption: tuple[tuple[str, Style], ...]
    site_name: str
    picture: str  # an <svg> element from schotten.svg
    alt: str


def page_preview(
    stem: str, lang: str, title: str, site_name: str, results: Sequence[CaseResult]
) -> Preview:
    """The preview of page ``stem`` (``rules``) in ``lang``."""
    source = PAGE_PICTURES.get(stem, TableCase(tables.FAQ))
    if isinstance(source, Formation):
        return _formation_preview(source, lang, title, site_name)
    published = [r for r in results if r.case.published is not None]
    rows = [r for r in published if _table_of(r) == source.table] or published
    if not rows:
        raise SiteCheckError(f"preview of {stem}: no published case to draw")
    return _case_preview(min(rows, key=_row_of), lang, title, site_name)


def _table_of(result: CaseResult) -> str:
    assert result.case.published is not None  # only published cases are drawn
    return result.case.published.table


def _row_of(result: CaseResult) -> int:
    assert result.case.published is not None
    return result.case.published.row


def _case_preview(result: CaseResult, lang: str, title: str, site_name: str) -> Preview:
    names = labels(lang)
    case = result.case
    picture = position_svg(
        case.board, case.claim, labels=names, ident=f"preview-{lang}", hand=case.hands[Player.FIRST]
    )
    if len(result.verdicts) == 1:
        (verdict,) = result.verdicts
        verdict_text = names["faq"]["verdict_line"].format(
            stone=capital(names["words"]["stone"]),
            number=verdict.stone,
            verdict=tables.verdict_word(verdict, lang),
        )
    else:
        verdict_text = tables.verdict_summary(result, lang)
    granted = {v.granted for v in result.verdicts}
    style: Style = "bold"
    if granted == {True}:
        style = "granted"
    elif granted == {False}:
        style = "refused"
    situation = str(case.situation[lang])
    alt = f"{picture_title(case.claim, lang)}. {verdict_text}. {situation}"
    return Preview(title, ((verdict_text, style), (situation, "regular")), site_name, picture, alt)


def _formation_preview(source: Formation, lang: str, title: str, site_name: str) -> Preview:
    cards = check_example(source.cards, source.kind)
    board = Board.empty(Variant.BASE)
    for step, card in enumerate(cards):
        board = board.place(Player.FIRST, 5, card, at=step)
    names = labels(lang)
    kind = formation_name(KINDS[source.kind], lang)
    shown = cards_text(cards, lang)
    picture = position_svg(board, labels=names, ident=f"preview-{lang}")
    alt = f"{kind}{names['punctuation']['colon']}{shown}"
    return Preview(title, ((kind, "bold"), (shown, "regular")), site_name, picture, alt)


def preview_svg(preview: Preview) -> str:
    """The preview as one SVG document of 1200 x 630."""
    x, y, w, h = _PICTURE
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT_FAMILY}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{_BACKGROUND}"/>',
        f'<rect x="0" y="{HEIGHT - 12}" width="{WIDTH}" height="12" fill="{_ACCENT}"/>',
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="16" fill="{_PANEL}" '
        f'stroke="{_ACCENT}" stroke-width="3"/>',
        _placed(preview.picture, x + 16, y + 16, w - 32, h - 32),
    ]
    top = 40 + _SITE_SIZE
    parts.append(_line(preview.site_name, top, _SITE_SIZE, "regular", _ACCENT))
    top += 30
    for text in _wrap(preview.title, _TITLE_SIZE, True, _MAX_TITLE_LINES):
        top += round(_TITLE_SIZE * 1.2)
        parts.append(_line(text, top, _TITLE_SIZE, "bold"))
    top += 24
    budget = _MAX_CAPTION_LINES
    for text, style in preview.caption:
        lines = _wrap(text, _CAPTION_SIZE, style != "regular", budget)
        budget -= len(lines)
        for line in lines:
            top += round(_CAPTION_SIZE * 1.3)
            parts.append(_line(line, top, _CAPTION_SIZE, style))
        top += 12
        if budget <= 0:
            break
    parts.append("</svg>")
    return "".join(parts)


def render_png(svg: str) -> bytes:
    """The SVG as a PNG of its own size, drawn with the shipped fonts only."""
    import resvg_py

    regular, bold = _font_files()
    png = resvg_py.svg_to_bytes(
        svg_string=svg,
        skip_system_fonts=True,
        font_files=[regular, bold],
        font_family=FONT_FAMILY,
        sans_serif_family=FONT_FAMILY,
        serif_family=FONT_FAMILY,
        monospace_family=FONT_FAMILY,
    )
    return bytes(png)


def preview_png(preview: Preview, cache: Path | None = None) -> bytes:
    """The preview as a PNG; :class:`SiteCheckError` when it is not 1200 x 630 or too heavy.
    With ``cache``, a picture a build drew before is taken from there (named by the hash of the
    SVG, the fonts and resvg's release: the same inputs draw the same bytes)."""
    svg = preview_svg(preview)
    png = kept_bytes(_cache_entry(svg, cache) if cache else None, lambda: render_png(svg))
    if png_size(png) != (WIDTH, HEIGHT):
        raise SiteCheckError(f"preview {preview.title!r}: {png_size(png)}, not {WIDTH}x{HEIGHT}")
    if len(png) > MAX_BYTES:
        raise SiteCheckError(f"preview {preview.title!r}: {len(png)} bytes (at most {MAX_BYTES})")
    return png


def file_name(stem: str, lang: str, png: bytes) -> str:
    """``rules.fr.1a2b3c4d.png``: a new picture gets a new address, which chats fetch again."""
    digest = hashlib.sha256(png).hexdigest()[:10]
    return f"{stem.replace('/', '-')}.{lang}.{digest}.png"


def png_size(png: bytes) -> tuple[int, int]:
    """The width and height a PNG declares (its IHDR chunk)."""
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


def _placed(svg: str, x: int, y: int, w: int, h: int) -> str:
    """A position picture fitted into a box (its viewBox kept: it scales, centred)."""
    match = re.match(r"<svg\b[^>]*>", svg)
    if match is None:
        raise SiteCheckError("preview: the position picture is not an <svg> element")
    head = match[0]
    for name in ("width", "height", "style", "x", "y"):
        head = re.sub(rf'\s{name}="[^"]*"', "", head)
    head = head[:-1] + f' x="{x}" y="{y}" width="{w}" height="{h}">'
    return head + svg[match.end() :]


def _line(text: str, baseline: int, size: int, style: Style, fill: str | None = None) -> str:
    weight = "normal" if style == "regular" else "bold"
    colour = fill or _COLOURS[style]
    return (
        f'<text x="{_TEXT_X}" y="{baseline}" font-size="{size}" font-weight="{weight}" '
        f"fill={quoteattr(colour)}>{escape(text)}</text>"
    )


def _wrap(text: str, size: int, bold: bool, max_lines: int) -> list[str]:
    """``text`` in lines no wider than the text column (measured with the shipped font), the
    last one shortened with an ellipsis when it needs more than ``max_lines``."""
    lines: list[str] = []
    for whole in text.split(" "):
        for word in _pieces(whole, size, bold):
            candidate = f"{lines[-1]} {word}" if lines else word
            if lines and _width(candidate, size, bold) <= _TEXT_W:
                lines[-1] = candidate
            else:
                lines.append(word)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        last = lines[-1]
        while last and _width(last + "…", size, bold) > _TEXT_W:
            last = last[:-1].rstrip()
        lines[-1] = last.rstrip(" ,;:") + "…"
    return lines


def _pieces(word: str, size: int, bold: bool) -> list[str]:
    """``word`` alone when it fits the text column; else cut into pieces that each fit, all but
    the last ending with a hyphen (a name or an address longer than the column would otherwise
    run past the picture's edge)."""
    pieces: list[str] = []
    while _width(word, size, bold) > _TEXT_W:
        cut = len(word) - 1
        while cut > 1 and _width(word[:cut] + "-", size, bold) > _TEXT_W:
            cut -= 1
        pieces.append(word[:cut] + "-")
        word = word[cut:]
    return [*pieces, word]


def _width(text: str, size: int, bold: bool) -> float:
    advances, units, fallback = _metrics(1 if bold else 0)
    return sum(advances.get(ord(ch), fallback) for ch in text) * size / units


def _cache_entry(svg: str, cache: Path) -> Path:
    digest = hashlib.sha256(svg.encode())
    digest.update(_renderer_digest())
    return cache / f"preview-{digest.hexdigest()[:24]}.png"


@cache
def _renderer_digest() -> bytes:
    """What else a picture depends on: the shipped fonts and resvg's release."""
    digest = hashlib.sha256(metadata.version("resvg_py").encode())
    for font in _font_files():
        digest.update(Path(font).read_bytes())
    return digest.digest()


def _font_files() -> tuple[str, str]:
    folder = Path(str(resources.files(__package__).joinpath("fonts")))
    return str(folder / "DejaVuSans.ttf"), str(folder / "DejaVuSans-Bold.ttf")


@cache
def _metrics(which: int) -> tuple[dict[int, int], int, int]:
    """The advance width of each character of a shipped font, its units per em, and the widest
    advance (for a character it lacks)."""
    data = Path(_font_files()[which]).read_bytes()
    tables = _tables(data)
    (units,) = struct.unpack_from(">H", data, tables[b"head"] + 18)
    (metrics_count,) = struct.unpack_from(">H", data, tables[b"hhea"] + 34)
    hmtx = tables[b"hmtx"]
    widths = [struct.unpack_from(">H", data, hmtx + 4 * i)[0] for i in range(metrics_count)]
    advances = {
        code: widths[min(glyph, metrics_count - 1)]
        for code, glyph in _cmap(data, tables[b"cmap"]).items()
    }
    return advances, int(units), max(widths)


def _tables(data: bytes) -> dict[bytes, int]:
    (count,) = struct.unpack_from(">H", data, 4)
    records = (struct.unpack_from(">4sIII", data, 12 + 16 * i) for i in range(count))
    return {tag: offset for tag, _checksum, offset, _length in records}


def _cmap(data: bytes, start: int) -> dict[int, int]:
    """The characters of a font's Unicode BMP character map (format 4) and their glyphs."""
    (count,) = struct.unpack_from(">H", data, start + 2)
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, start + 4 + 8 * i)
        table = start + offset
        (table_format,) = struct.unpack_from(">H", data, table)
        if (platform, encoding) in ((3, 1), (0, 3)) and table_format == 4:
            return _format4(data, table)
    raise SiteCheckError("preview font: no Unicode character map")


def _format4(data: bytes, table: int) -> dict[int, int]:
    (seg_x2,) = struct.unpack_from(">H", data, table + 6)
    segments = seg_x2 // 2
    ends = table + 14
    starts = ends + seg_x2 + 2
    deltas = starts + seg_x2
    ranges = deltas + seg_x2
    glyphs: dict[int, int] = {}
    for s in range(segments):
        (end,) = struct.unpack_from(">H", data, ends + 2 * s)
        (first,) = struct.unpack_from(">H", data, starts + 2 * s)
        (delta,) = struct.unpack_from(">h", data, deltas + 2 * s)
        (range_offset,) = struct.unpack_from(">H", data, ranges + 2 * s)
        for code in range(first, end + 1):
            if code == 0xFFFF:
                continue
            if range_offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                where = ranges + 2 * s + range_offset + 2 * (code - first)
                (glyph,) = struct.unpack_from(">H", data, where)
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                glyphs[code] = glyph
    return glyphs
