"""Fonts for the PDF report: a Unicode TTF for text (DejaVu, Liberation, Arial, ...) and a
CJK font for Chinese, searched in a few common places and never required.

Without a Unicode font the PDF falls back to the core Helvetica font with characters
outside Latin-1 replaced; without a CJK font a Chinese report is written in English. Both
cases come back as notes, in the report's language.
"""

import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from planner.core.i18n import Language
from planner.report.text import text

UNICODE_FONTS: tuple[tuple[str, str], ...] = (
    # (regular, bold); Debian/Ubuntu, Fedora, Arch, then macOS and Windows
    (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    ),
    ("/usr/share/fonts/dejavu/DejaVuSans.ttf", "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf"),
    (
        "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans-Bold.ttf",
    ),
    ("/usr/share/fonts/TTF/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf"),
    (
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    ),
    (
        "/System/Library/Fonts/Supplemental/Arial.ttf",
        "/System/Library/Fonts/Supplemental/Arial Bold.ttf",
    ),
    ("C:/Windows/Fonts/arial.ttf", "C:/Windows/Fonts/arialbd.ttf"),
)
CJK_FONTS: tuple[str, ...] = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansSC-Regular.otf",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/wenquanyi/wqy-microhei/wqy-microhei.ttc",
    "/usr/share/fonts/adobe-source-han-sans/SourceHanSansCN-Regular.otf",
    "/System/Library/Fonts/PingFang.ttc",
    "/System/Library/Fonts/STHeiti Light.ttc",
    "C:/Windows/Fonts/msyh.ttc",
    "C:/Windows/Fonts/simhei.ttf",
)
FONT_SUFFIXES = (".ttf", ".ttc", ".otf")
FONT_MAGIC = (b"\x00\x01\x00\x00", b"true", b"OTTO", b"ttcf")
"""The first four bytes of TrueType, OpenType (CFF) and collection files."""


@dataclass(frozen=True, slots=True)
class Fonts:
    """The font files found (None: not found)."""

    regular: Path | None = None
    bold: Path | None = None
    cjk: Path | None = None

    def pdf_language(self, lang: Language) -> Language:
        """The language the PDF can be written in: Chinese needs a CJK font."""
        return "zh" if lang == "zh" and self.cjk is not None else "en"

    def notes(self, lang: Language) -> tuple[str, ...]:
        """Why the PDF differs from what was asked (in `lang`), if it does."""
        notes = []
        if lang == "zh" and self.cjk is None:
            notes.append(text("report.pdf.no_cjk", lang))
        if self.regular is None and self.pdf_language(lang) == "en":
            notes.append(text("report.pdf.font_fallback", lang))
        return tuple(notes)


def is_font(path: Path) -> bool:
    """Whether `path` starts like a font file (a cheap check before fpdf2 parses it)."""
    try:
        with path.open("rb") as file:
            return file.read(4) in FONT_MAGIC
    except OSError:
        return False


def find_fonts(
    unicode_fonts: Sequence[tuple[str, str]] = UNICODE_FONTS,
    cjk_fonts: Sequence[str] = CJK_FONTS,
    *,
    ask_fontconfig: bool = True,
) -> Fonts:
    """The first Unicode and CJK fonts that exist; fontconfig (`fc-list :lang=zh`) is asked
    for a CJK font when none of the usual paths has one."""
    regular = bold = None
    for regular_path, bold_path in unicode_fonts:
        if is_font(Path(regular_path)):
            regular = Path(regular_path)
            bold = Path(bold_path) if is_font(Path(bold_path)) else regular
            break
    cjk = next((Path(p) for p in cjk_fonts if is_font(Path(p))), None)
    if cjk is None and ask_fontconfig:
        cjk = _fontconfig_cjk()
    return Fonts(regular, bold, cjk)


def _fontconfig_cjk() -> Path | None:
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return None
    try:
        listed = subprocess.run(
            [fc_list, ":lang=zh", "file"], capture_output=True, text=True, timeout=10, check=False
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    files = sorted(line.strip().rstrip(":") for line in listed.splitlines() if line.strip())
    found = [Path(f) for f in files if f.lower().endswith(FONT_SUFFIXES) and is_font(Path(f))]
    preferred = [f for f in found if "sans" in f.name.lower() or "hei" in f.name.lower()]
    return next(iter(preferred or found), None)
