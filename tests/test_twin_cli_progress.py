"""`planner twin` shows its progress on stderr while the check runs: the replays done of the
replays planned, the time so far and the time left (the Replay page's estimate), as plain
lines into a pipe or a log and as one line rewritten in place on a terminal. stdout keeps
only the report, so `--json` still parses. Real `python -m planner` processes throughout."""

import itertools
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

from planner.cli.progress import seconds_text
from planner.cli.twin import progress_text
from planner.twin.progress import TwinProgress
from tests.test_twin_cli import files  # noqa: F401 -- the history and node list, shared

ROOT = Path(__file__).resolve().parents[1]
STATUS = re.compile(r"twin: (\d+) of (\d+) replays, ([\d.,]+ (?:s|min|h|d)) so far, about ")
FIRST = "twin: replay 1 of "


def _twin(paths: tuple[Path, Path, Path, Path], db: Path) -> list[str]:
    _, history, nodes, _ = paths
    twin = ["twin", str(history), "--nodes", str(nodes), "--db", str(db), "--json"]
    return [sys.executable, "-m", "planner", *twin]


def _counts(statuses: list[str]) -> list[tuple[int, int]]:
    found = [STATUS.match(s) for s in statuses]
    assert all(found), statuses
    return [(int(m[1]), int(m[2])) for m in found if m]


def _rise_to_the_total(counts: list[tuple[int, int]]) -> None:
    dones = [done for done, _ in counts]
    totals = [total for _, total in counts]
    assert len(counts) >= 13  # FEWEST_REPLAYS: a check replays the history at least 13 times
    assert all(b - a in (0, 1) for a, b in itertools.pairwise(dones))
    assert all(b <= a for a, b in itertools.pairwise(totals))  # the plan only falls
    assert all(done <= total for done, total in counts)
    assert dones[0] == 1
    assert counts[-1][0] == counts[-1][1]


def test_twin_prints_progress_lines_to_a_pipe_and_json_to_stdout(
    files: tuple[Path, Path, Path, Path],  # noqa: F811 -- the fixture imported above
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        _twin(files, tmp_path / "p.duckdb"), cwd=ROOT, capture_output=True, text=True, check=False
    )

    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["calibration"]["effective_gpus"] > 0
    assert "\r" not in done.stderr
    statuses = [line for line in done.stderr.splitlines() if line.startswith("twin: ")]
    counted = [s for s in statuses if not s.startswith(FIRST)]
    _rise_to_the_total(_counts(counted))
    assert "twin:" not in done.stdout


def _read_all(fd: int, into: bytearray) -> None:
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the child closed the terminal
            return
        if not chunk:
            return
        into.extend(chunk)


def test_twin_rewrites_one_progress_line_on_a_terminal(
    files: tuple[Path, Path, Path, Path],  # noqa: F811
    tmp_path: Path,
) -> None:
    """stderr on a real pseudo-terminal: every status after a carriage return, the line
    ended once, when the check is over."""
    main_fd, term_fd = os.openpty()
    seen = bytearray()
    reader = threading.Thread(target=_read_all, args=(main_fd, seen))
    reader.start()
    try:
        done = subprocess.run(
            _twin(files, tmp_path / "p.duckdb"),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=term_fd,
            text=True,
            check=False,
        )
    finally:
        os.close(term_fd)
        reader.join()
        os.close(main_fd)

    shown = seen.decode()
    assert done.returncode == 0, shown
    json.loads(done.stdout)
    line, _, after = shown.partition("\n")  # the terminal writes the line's end as \r\n
    assert "twin:" not in after
    statuses = [part.rstrip() for part in line.split("\r") if part.strip()]
    assert statuses[0].startswith(FIRST) or STATUS.match(statuses[0])
    _rise_to_the_total(_counts([s for s in statuses if not s.startswith(FIRST)]))


def test_the_progress_line_reads_the_pages_estimate_by_hand() -> None:
    # 4 replays in 50 s: 12.5 s each; 16 - 4 = 12 left: 150 s = 2.5 min
    assert progress_text(TwinProgress(done=4, total=16, elapsed_s=50.0)) == (
        "twin: 4 of 16 replays, 50 s so far, about 2.5 min left"
    )
    # 3 in 7.5 s: 2.5 s each; 9 - 3 = 6 left: 15 s (whole seconds from 10 s up)
    assert progress_text(TwinProgress(done=3, total=9, elapsed_s=7.5)) == (
        "twin: 3 of 9 replays, 7.5 s so far, about 15 s left"
    )
    assert progress_text(TwinProgress(done=0, total=43, elapsed_s=1.0)) == (
        "twin: replay 1 of 43 running; the time left shows once it is done"
    )


def test_durations_read_in_the_largest_readable_unit() -> None:
    assert [seconds_text(s) for s in (0.25, 9.94, 59.0, 90.0, 7_200.0, 172_800.0)] == [
        "0.2 s",
        "9.9 s",
        "59 s",
        "1.5 min",
        "2.0 h",
        "2.0 d",
    ]
