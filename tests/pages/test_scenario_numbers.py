"""An uploaded TCO scenario with an absurd horizon is refused on the page by field name
before any pricing (the probe's `[20000]` took 283 s and slowed every other session)."""

from pathlib import Path

import pytest

from tests.pages.app import open_app_page

UPLOAD_CHOICE = "Upload a scenario (YAML)…"


@pytest.mark.parametrize("horizons", ["[20000]", "[1e9]", "[.nan]"])
def test_an_uploaded_absurd_horizon_is_refused_by_field(db: Path, horizons: str) -> None:
    text = f"name: far\nhorizons_years: {horizons}\nself_hosted: [{{gpu: H100, servers: 1}}]\n"
    at = open_app_page("pages/compare.py", 60)
    at.selectbox(key="compare_scenario").set_value(UPLOAD_CHOICE).run()

    upload = at.file_uploader(key="compare_upload")
    at = upload.set_value(("far.yaml", text.encode(), "text/yaml")).run()

    assert not at.exception
    assert "horizons_years.0" in at.error[0].value
    assert not at.metric
