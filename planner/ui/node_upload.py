"""The Cluster & policy page's node list upload: `kubectl get nodes -o json` is read as it
is; a table (CSV, TSV, XLSX) first shows the column-mapping table Job history shows, and is
read with the user's mapping, which belongs to that upload alone.
"""

from pathlib import Path

import streamlit as st
from streamlit.runtime.uploaded_file_manager import UploadedFile

from planner.core.errors import PlannerError
from planner.ingest.kubectl import looks_like_kubectl
from planner.ui import cluster_import, column_mapping, uploads
from planner.ui import history_view as view
from planner.ui.error_text import error_text
from planner.ui.safe import md


def read(upload: UploadedFile, editor_key: str) -> cluster_import.NodeImport | None:
    """The upload's nodes; None while a required field has no column (the table says
    which) or when the file cannot be read (the error is shown). The mapping table's key is
    `editor_key` and a digest of the upload."""
    try:
        path = cluster_import.stage(upload.getvalue(), upload.name)
    except PlannerError as err:
        st.error(md(error_text(err)), icon=":material/error:")
        return None
    try:
        return _read_staged(path, upload, editor_key)
    except PlannerError as err:
        st.error(md(error_text(err)), icon=":material/error:")
        return None
    finally:
        uploads.discard(path)  # read (or refused): the copy is not kept


def _read_staged(
    path: Path, upload: UploadedFile, editor_key: str
) -> cluster_import.NodeImport | None:
    if looks_like_kubectl(path):  # its fields are Kubernetes', nothing to map
        return cluster_import.node_import(path, upload.name)
    detected = view.detect(path)
    if not detected.is_nodes:  # a job history: the reader says so
        return cluster_import.node_import(path, upload.name)
    mapping = column_mapping.edited_mapping(
        detected, column_mapping.editor_key(editor_key, upload.file_id)
    )
    if column_mapping.warn_missing(detected, mapping):
        return None
    return cluster_import.node_import(path, upload.name, mapping)
