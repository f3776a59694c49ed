"""Rejected rows of one chunk: a reason code, the column and the value that caused it."""

import json

import pandas as pd

from planner.ingest.limits import SHOWN_CHARS, shorten
from planner.ingest.source import ROW


class Rejections:
    """First reason per row wins; later checks only see rows still alive."""

    def __init__(self, frame: pd.DataFrame) -> None:
        self.frame = frame
        self.alive = pd.Series(True, index=frame.index)
        self.parts: list[pd.DataFrame] = []

    def add(self, mask: pd.Series, reason: str, column: str, message: str) -> None:
        hit = mask.fillna(False).astype(bool) & self.alive
        if not hit.any():
            return
        values = self.frame[column] if column in self.frame else pd.Series("", index=hit.index)
        shown = values[hit].astype(str)
        long = shown.str.len() > SHOWN_CHARS
        if long.any():  # the whole cell stays in raw_json; the value column is for reading
            shown = shown.where(~long, shown[long].map(shorten))
        self.parts.append(
            pd.DataFrame(
                {
                    "row": self.frame.loc[hit, ROW].astype("int64"),
                    "reason": reason,
                    "column_name": column,
                    "value": shown,
                    "message": message,
                }
            )
        )
        self.alive &= ~hit

    def result(self) -> pd.DataFrame:
        if not self.parts:
            return empty_rejected()
        rejected = pd.concat(self.parts, ignore_index=False)
        originals = self.frame.loc[rejected.index].drop(columns=[ROW])
        raw = [json.dumps(rec, ensure_ascii=False) for rec in originals.to_dict(orient="records")]
        return rejected.assign(raw_json=raw).reset_index(drop=True)


def empty_rejected() -> pd.DataFrame:
    return pd.DataFrame(
        {
            name: pd.Series(dtype=dtype)
            for name, dtype in (
                ("row", "int64"),
                ("reason", str),
                ("column_name", str),
                ("value", str),
                ("message", str),
                ("raw_json", str),
            )
        }
    )
