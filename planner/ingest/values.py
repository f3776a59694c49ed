"""Vectorised parsers for the values found in job-history exports.

Each parser takes a column of raw strings and returns floats with NaN where the cell was
empty, plus a mask of cells that were present but could not be read. Callers turn the mask
into rejected rows; nothing here decides what is required.
"""

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

# Cells that mean "no value" in the exports we have seen (Slurm writes Unknown and None).
NULL_TOKENS = frozenset(
    {"", "na", "n/a", "nan", "nat", "null", "none", "unknown", "-", "--", "无", "空"}
)

# Numbers at or above these are absolute times (epoch); below, seconds from trace start.
EPOCH_S_MIN = 1e9  # 2001-09-09: no relative trace spans 31 years
EPOCH_MS_MIN = 1e12
EPOCH_S_MAX = 4_102_444_800.0  # 2100-01-01: later "dates" are unit or export mistakes

_TEXT = pd.StringDtype("pyarrow")
# Patterns for Arrow's vectorised regex: \d, \s and (?i) make pandas fall back to per-cell
# Python, which was most of the ingest time, so the classes are spelled out.
_TZ_SUFFIX = r"(?:[Zz]|[+-][0-9][0-9]:?[0-9][0-9]|[ ]?(?:UTC|utc|GMT|gmt))$"
_NUMBER_LIKE = r"^[+-]?(?:[0-9]+[.]?[0-9]*|[.][0-9]+)(?:[eE][+-]?[0-9]+)?$"
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")  # 1,024 -> 1024
_CLOCK = re.compile(r"^(?:(\d+)-)?(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)$")
_MEMORY = re.compile(r"^([0-9]*\.?[0-9]+)\s*([KMGTP]?)(I?B?)$", re.IGNORECASE)
_CN_DATE = str.maketrans({"年": "-", "月": "-", "日": " ", "时": ":", "分": ":", "秒": ""})


@dataclass(frozen=True, slots=True)
class Parsed:
    """Parsed values (NaN where missing or bad) and the mask of unreadable cells."""

    values: pd.Series
    bad: pd.Series


def cleaned(raw: pd.Series) -> pd.Series:
    """Strip cells and turn null tokens into NA, keeping everything else as text."""
    # Arrow-backed strings: strip, lower, contains and replace run vectorised, not per cell.
    text = raw.astype(_TEXT).str.strip()
    return text.mask(text.str.lower().isin(NULL_TOKENS))


def parse_numbers(raw: pd.Series, *, decimal_comma: bool = False) -> Parsed:
    """Plain numbers; `1,5` is 1.5 when the file uses `;` as delimiter (decimal comma)."""
    text = cleaned(raw)
    values = pd.Series(np.nan, index=text.index, dtype="float64")
    number_like = text.str.contains(_NUMBER_LIKE, regex=True).fillna(False).astype(bool)
    values[number_like] = pd.to_numeric(text[number_like], errors="coerce").astype("float64")
    retry = text.notna() & values.isna() & text.str.contains(",", regex=False)
    if retry.any():  # only the few cells with a comma pay for the slower rewrite
        if decimal_comma:
            fixed = text[retry].str.replace(",", ".", regex=False)
        else:
            fixed = text[retry].astype(object).str.replace(_THOUSANDS, "", regex=True)
        values[retry] = pd.to_numeric(fixed, errors="coerce").astype("float64")
    bad = text.notna() & (values.isna() | ~np.isfinite(values.fillna(0.0)))
    return Parsed(values.where(~bad), bad.fillna(False).astype(bool))


def parse_cpu(raw: pd.Series, *, decimal_comma: bool = False) -> Parsed:
    """CPU cores; Kubernetes milli-cores such as `500m` are accepted."""
    text = cleaned(raw)
    milli = text.str.fullmatch(r"\d+(\.\d+)?m", case=False).fillna(False).astype(bool)
    parsed = parse_numbers(text.str.rstrip("mM").where(milli, text), decimal_comma=decimal_comma)
    values = parsed.values.where(~milli, parsed.values / 1000.0)
    return Parsed(values, parsed.bad)


def parse_memory_gib(raw: pd.Series, *, unit_gib: float, decimal_comma: bool = False) -> Parsed:
    """Memory in GiB; bare numbers are in the column's unit (`unit_gib` GiB each).

    Suffixes K, M, G, T (with or without i/B, as Kubernetes and Slurm write them) override
    the column's unit.
    """
    text = cleaned(raw)
    plain = parse_numbers(text, decimal_comma=decimal_comma)
    values = plain.values * unit_gib
    suffixed = text.where(plain.bad).str.extract(_MEMORY)
    scale = {"": 1 / 2**30, "K": 1 / 2**20, "M": 1 / 2**10, "G": 1.0, "T": 2**10, "P": 2**20}
    factor = suffixed[1].str.upper().map(scale)
    number = pd.to_numeric(suffixed[0], errors="coerce").astype("float64")
    from_suffix = number * factor.astype("float64")
    values = values.fillna(from_suffix)
    bad = (plain.bad & from_suffix.isna()).fillna(False).astype(bool)
    return Parsed(values.where(~bad).astype("float64"), bad)


def parse_durations(raw: pd.Series) -> Parsed:
    """Seconds from `3600`, `HH:MM:SS`, `MM:SS`, `D-HH:MM:SS` or `1 days 02:00:00`."""
    text = cleaned(raw)
    plain = parse_numbers(text)
    values = plain.values.copy()
    clock = text.where(plain.bad).str.extract(_CLOCK)
    parts = clock.apply(pd.to_numeric, errors="coerce").astype("float64").fillna(0.0)
    from_clock = parts[0] * 86400 + parts[1] * 3600 + parts[2] * 60 + parts[3]
    values = values.fillna(from_clock.where(clock[3].notna()))
    rest = text.where(plain.bad & values.isna())
    if rest.notna().any():
        delta = pd.to_timedelta(rest, errors="coerce")
        values = values.fillna(delta.dt.total_seconds().astype("float64"))
    values = values.astype("float64")
    bad = text.notna() & values.isna()
    return Parsed(values, bad.fillna(False).astype(bool))


@dataclass(frozen=True, slots=True)
class ParsedTimes:
    """Times as float seconds: epoch seconds where `absolute`, else seconds from start.

    `nonexistent` and `ambiguous` mark local times (no offset) that a daylight-saving change
    in the time zone skips or repeats; they are also `bad`.
    """

    values: pd.Series
    bad: pd.Series
    absolute: pd.Series
    nonexistent: pd.Series
    ambiguous: pd.Series


def parse_times(raw: pd.Series, *, tz: str) -> ParsedTimes:
    """Epoch seconds or milliseconds, relative seconds, or date strings.

    Strings without an offset are wall-clock times in `tz`; strings with one (`Z`,
    `+08:00`, `UTC`) are exact. Local times skipped or repeated by a DST change are bad:
    which instant was meant cannot be known.
    """
    text = cleaned(raw)
    plain = parse_numbers(text)
    numbers = plain.values
    values = numbers.where(numbers < EPOCH_MS_MIN, numbers / 1000.0)
    values = values.mask(values > EPOCH_S_MAX)
    absolute = (numbers >= EPOCH_S_MIN).fillna(False).astype(bool)
    dated = _DateStrings.parse(text.where(plain.bad), tz)
    values = values.fillna(dated.seconds)
    absolute |= dated.seconds.notna()
    values = values.astype("float64")
    bad = text.notna() & values.isna()
    return ParsedTimes(
        values,
        bad.fillna(False).astype(bool),
        absolute.astype(bool),
        dated.nonexistent,
        dated.ambiguous,
    )


@dataclass(frozen=True, slots=True)
class _DateStrings:
    seconds: pd.Series  # epoch seconds, NaN where absent or unreadable
    nonexistent: pd.Series
    ambiguous: pd.Series

    @classmethod
    def parse(cls, text: pd.Series, tz: str) -> "_DateStrings":
        out = pd.Series(np.nan, index=text.index, dtype="float64")
        nonexistent = pd.Series(False, index=text.index)
        ambiguous = pd.Series(False, index=text.index)
        present = text.dropna()
        if present.empty:
            return cls(out, nonexistent, ambiguous)
        chinese = present.str.contains("[年月日时分秒]", regex=True)
        if chinese.any():
            translated = present[chinese].astype(object).str.translate(_CN_DATE)
            present = present.where(~chinese, translated).str.strip()
        aware = present.str.contains(_TZ_SUFFIX, regex=True)
        if aware.any():
            stamps = _to_datetime(present[aware], utc=True)
            out.loc[stamps.index] = _epoch_seconds(stamps)
        naive = present[~aware]
        if not naive.empty:
            stamps = _to_datetime(naive, utc=False)
            local = stamps.dt.tz_localize(tz, ambiguous="NaT", nonexistent="NaT")
            out.loc[local.index] = _epoch_seconds(local.dt.tz_convert("UTC"))
            lost = stamps.notna() & local.isna()
            if lost.any():  # a DST change: tell a skipped hour from a repeated one
                shifted = stamps[lost].dt.tz_localize(
                    tz, ambiguous="NaT", nonexistent="shift_forward"
                )
                nonexistent.loc[shifted.index] = shifted.notna()
                ambiguous.loc[shifted.index] = shifted.isna()
        return cls(out, nonexistent, ambiguous)


def _to_datetime(text: pd.Series, *, utc: bool) -> pd.Series:
    """ISO 8601 first (fast); the stragglers through pandas' per-value parser."""
    stamps = pd.to_datetime(text, format="ISO8601", errors="coerce", utc=utc)
    missing = stamps.isna()
    if missing.any():
        retry = pd.to_datetime(text[missing], format="mixed", errors="coerce", utc=utc)
        stamps = stamps.astype(retry.dtype) if stamps.isna().all() else stamps
        stamps.loc[missing] = retry
    return stamps


def _epoch_seconds(stamps: pd.Series) -> pd.Series:
    """Float epoch seconds of tz-aware timestamps, NaN for NaT."""
    utc = stamps.dt.tz_convert("UTC").dt.tz_localize(None).astype("datetime64[us]")
    seconds: pd.Series = utc.astype("int64").astype("float64") / 1e6
    return seconds.where(stamps.notna())
