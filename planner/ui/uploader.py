"""The app's one file uploader: Streamlit's widget, its limit and file types said in the
session's language.

Streamlit writes its dropzone's instructions ("200MB per file • CSV") and its button in
English whatever the app's language. The frame's style (`dropzone_style`, drawn once per run
by `planner.ui.frame`) hides those instructions, and every uploader says them in a caption
under itself instead; the style words the button and the drop hint. The limit said is the
one that holds: the page's own limit, within the server's `server.maxUploadSize`, above
which the server refuses a file whatever the widget allows.
"""

import math
from collections.abc import Sequence

import streamlit as st
from streamlit.runtime.uploaded_file_manager import UploadedFile

from planner.ui.i18n import fmt_number, t

MIB = 1024 * 1024
"""Streamlit's "MB" (`server.maxUploadSize`, `max_upload_size`) is 1024 x 1024 bytes."""
KIB = 1024

_DROPZONE = '[data-testid="stFileUploaderDropzone"]'


def dropzone_style() -> str:
    """CSS for every dropzone: Streamlit's English instructions ("200MB per file • CSV")
    hidden (`caption` says them), its button's "Upload" and its "Drag and drop a file here"
    (shown while a file is dragged over it) said in the session's language instead."""
    button = f'{_DROPZONE} button [data-testid="stMarkdownContainer"]'
    dragged = f"{_DROPZONE} > div:not([data-testid]) > span"
    return f"""<style>
[data-testid="stFileUploaderDropzoneInstructions"] {{ display: none; }}
{button} p {{ display: none; }}
{button}::after {{ content: "{t("common.upload_button")}"; }}
{dragged} {{ visibility: hidden; font-size: 0; }}
{dragged}::after {{
  content: "{t("common.upload_drop")}"; visibility: visible; font-size: 0.875rem;
}}
</style>"""


def server_limit_bytes() -> int:
    """The server's cap on one uploaded file (`server.maxUploadSize`), in bytes."""
    return int(st.get_option("server.maxUploadSize")) * MIB


def limit_bytes(page_limit_bytes: int) -> int:
    """The largest file an uploader of a page that takes `page_limit_bytes` accepts."""
    return min(page_limit_bytes, server_limit_bytes())


def size_text(size_bytes: int) -> str:
    """A limit as the caption says it: whole MB when it is one ("200 MB"), else KiB."""
    if size_bytes % MIB == 0:
        return f"{fmt_number(size_bytes // MIB)} MB"
    return f"{fmt_number(size_bytes / KIB)} KiB"


def caption(size_bytes: int, types: Sequence[str]) -> str:
    """ "File types: CSV, GZ · up to 200 MB per file", in the session's language."""
    listed = t("common.upload_types_sep").join(kind.upper() for kind in types)
    return t("common.upload_caption", types=listed, limit=size_text(size_bytes))


def file_uploader(
    label: str,
    types: Sequence[str],
    *,
    key: str,
    max_bytes: int,
    help_text: str | None = None,
) -> UploadedFile | None:
    """`st.file_uploader` for one file of `types` up to `max_bytes` (the page's own limit,
    within the server's), with a caption under it saying both in the session's language."""
    limit = limit_bytes(max_bytes)
    upload = st.file_uploader(
        label,
        type=list(types),
        # whole MB, at least 1: a smaller page limit is checked by the page on the bytes
        max_upload_size=max(1, math.ceil(limit / MIB)),
        help=help_text,
        key=key,
    )
    st.caption(caption(limit, types))
    return upload
