"""Hand-checked cases for the cell parsers."""

import math

import pandas as pd
import pytest

from planner.ingest.values import (
    parse_cpu,
    parse_durations,
    parse_memory_gib,
    parse_numbers,
    parse_times,
)


def values(parsed: object) -> list[float | None]:
    series = parsed.values  # type: ignore[attr-defined]
    return [None if pd.isna(v) else float(v) for v in series]


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("3600", 3600.0),
        ("01:00:00", 3600.0),
        ("1-02:03:04", 93784.0),
        ("05:30", 330.0),
        ("1 days 02:00:00", 93600.0),
        ("0.5", 0.5),
        ("2-00:00:00", 172800.0),
    ],
)
def test_durations_in_every_supported_form(text: str, seconds: float) -> None:
    assert values(parse_durations(pd.Series([text]))) == [seconds]


def test_unreadable_duration_is_bad_and_empty_is_missing() -> None:
    parsed = parse_durations(pd.Series(["soon", "", "Unknown"]))

    assert parsed.bad.tolist() == [True, False, False]
    assert values(parsed) == [None, None, None]


def test_times_with_offsets_are_exact_and_naive_times_use_the_zone() -> None:
    parsed = parse_times(
        pd.Series(["2024-01-05T10:00:00+08:00", "2024-01-05 10:00:00", "2024-01-05T02:00:00Z"]),
        tz="Asia/Shanghai",
    )

    assert values(parsed) == [1704420000.0, 1704420000.0, 1704420000.0]
    assert parsed.absolute.tolist() == [True, True, True]


def test_epoch_seconds_milliseconds_and_relative_seconds() -> None:
    parsed = parse_times(pd.Series(["1704420000", "1704420000000", "3600"]), tz="UTC")

    assert values(parsed) == [1704420000.0, 1704420000.0, 3600.0]
    assert parsed.absolute.tolist() == [True, True, False]


def test_chinese_and_slash_dates() -> None:
    parsed = parse_times(pd.Series(["2024年1月5日 10:00", "2024/1/5 10:00"]), tz="UTC")

    assert values(parsed) == [1704448800.0, 1704448800.0]


def test_local_time_skipped_by_daylight_saving_is_bad_not_guessed() -> None:
    parsed = parse_times(pd.Series(["2024-03-10 02:30:00"]), tz="America/New_York")

    assert parsed.bad.tolist() == [True]


def test_memory_units_and_kubernetes_cpu() -> None:
    mem = parse_memory_gib(pd.Series(["32", "64Gi", "512Mi", "1T", "4096M", "lots"]), unit_gib=1.0)
    cpu = parse_cpu(pd.Series(["4", "500m", "x"]))

    assert values(mem) == [32.0, 64.0, 0.5, 1024.0, 4.0, None]
    assert mem.bad.tolist() == [False] * 5 + [True]
    assert values(cpu) == [4.0, 0.5, None]
    assert cpu.bad.tolist() == [False, False, True]


def test_numbers_thousands_separator_and_decimal_comma() -> None:
    assert values(parse_numbers(pd.Series(["1,024", "8"]))) == [1024.0, 8.0]
    assert values(parse_numbers(pd.Series(["0,5"]), decimal_comma=True)) == [0.5]
    assert parse_numbers(pd.Series(["inf", "eight"])).bad.tolist() == [True, True]
    assert math.isnan(parse_numbers(pd.Series([""])).values[0])
