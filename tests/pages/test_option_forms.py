"""Options built with forms on the Compare page (own servers, a reserved cloud option, a
hybrid), saved and compared without writing YAML; the exported YAML runs on `planner tco
--scenario` to the totals the page shows.

One app session builds all three (module-scoped: the sample trace is priced once per
scenario); the tests read what it left.
"""

import json
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from planner.cli import main
from planner.ui.text import CATALOGS
from tests.pages.app import open_app_page

OWN, RESERVED, HYBRID = "own 32 A100", "AWS H100 reserved 3y", "hybrid 8 of 32 A100"
# The seed price book: AWS p5.4xlarge (1 x H100) at $6.88 an hour on demand; 3-year
# commitments at the rule of thumb discount.commit.36m = 0.55 off; 730 hours a month.
RESERVED_PER_GPU_HOUR = 6.88 * (1 - 0.55)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with pytest.MonkeyPatch.context() as patch:
        path = tmp_path_factory.mktemp("forms") / "planner.duckdb"
        patch.setenv("PLANNER_DB", str(path))
        yield path


def _own_part(at: AppTest, servers: int) -> None:
    at.number_input(key="opt_pool_0_servers").set_value(servers)  # A100 (8 GPUs each)
    at.number_input(key="opt_pool_1_servers").set_value(0).run()  # H800: left out


def _save(at: AppTest, name: str) -> str:
    """Name the option, look at its YAML, save it; the YAML the form showed."""
    at.text_input(key="opt_name").set_value(name).run()
    at.toggle(key="opt_show_yaml").set_value(True).run()
    text = str(at.code[0].value)
    at.button(key="opt_save").click().run()
    assert not at.exception
    assert not at.error, [e.value for e in at.error]
    return text


@pytest.fixture(scope="module")
def session(db: Path) -> tuple[AppTest, dict[str, str], list[str]]:
    """The Compare page after building and saving the three options with forms: the app,
    each option's YAML as the form showed it, and the reserved option's captions."""
    at = open_app_page("pages/compare.py", 300)
    shown = {}
    at.radio(key="opt_kind").set_value("own").run()
    _own_part(at, 32)
    shown[OWN] = _save(at, OWN)

    at.radio(key="opt_kind").set_value("cloud").run()
    at.selectbox(key="opt_provider").set_value("AWS")
    at.selectbox(key="opt_gpu_AWS").set_value("H100")
    at.selectbox(key="opt_payment").set_value("reserved").run()
    at.number_input(key="opt_term").set_value(36)
    at.number_input(key="opt_commit").set_value(8.0).run()
    captions = [str(c.value) for c in at.caption]
    shown[RESERVED] = _save(at, RESERVED)

    at.radio(key="opt_kind").set_value("hybrid").run()
    _own_part(at, 32)
    at.selectbox(key="opt_payment").set_value("on_demand").run()
    at.number_input(key="opt_keep_A100_32").set_value(8)
    at.number_input(key="opt_burst_h").set_value(1.0).run()
    shown[HYBRID] = _save(at, HYBRID)

    at.multiselect(key="compare_saved").set_value([OWN, RESERVED, HYBRID]).run()
    assert not at.exception
    return at, shown, captions


def _table(at: AppTest) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if "Total (USD)" in d.value.columns)


def _cli_totals(capsys: pytest.CaptureFixture[str], db: Path, path: Path) -> dict[str, float]:
    code = main(["tco", "--scenario", str(path), "--db", str(db), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    first = json.loads(out)["horizons"][0]
    assert first["years"] == 3  # the page compares over 3 years by default
    return {o["name"]: o["total"] for o in first["options"]}


def test_the_three_options_are_saved_and_compared(
    session: tuple[AppTest, dict[str, str], list[str]],
) -> None:
    at, _, _ = session
    table = _table(at)
    assert at.radio(key="compare_mode").value == "saved"
    assert set(table["Scenario"]) == {OWN, RESERVED, HYBRID}
    options = {s: list(g["Option"]) for s, g in table.groupby("Scenario")}
    assert options[OWN] == ["self-hosted"]
    assert options[RESERVED] == ["AWS H100 reserved 36m"]
    # a hybrid scenario prices its owned servers alone, the cloud alone and the two together
    assert options[HYBRID] == ["self-hosted", "hybrid", "AWS H100 on_demand"]


def test_the_forms_write_the_scenario_a_user_would(
    session: tuple[AppTest, dict[str, str], list[str]],
) -> None:
    _, shown, captions = session
    assert "self_hosted:\n- {gpu: A100, servers: 32}" in shown[OWN]
    assert "pricing_model: reserved, term_months: 36, committed_gpus: 8.0" in shown[RESERVED]
    assert "burst_after_s: 3600.0\n  servers: {A100: 8}" in shown[HYBRID]
    assert "H800" not in shown[HYBRID]  # 0 servers: the type is left out
    assert "Priced at $3.10 per GPU-hour (AWS p5.4xlarge)." in captions
    assert any("discount.commit.36m = 0.55 off" in c for c in captions)


def test_exported_yaml_runs_on_the_cli_to_the_page_s_totals(
    session: tuple[AppTest, dict[str, str], list[str]],
    db: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    at, shown, _ = session
    table = _table(at)
    for name in (OWN, RESERVED, HYBRID):
        exported = tmp_path / "exported.yaml"
        export = ["scenarios", "export", name, "-o", str(exported), "--db", str(db)]
        assert main(export) == 0
        capsys.readouterr()
        assert exported.read_text(encoding="utf-8").strip() == shown[name].strip()
        cli = _cli_totals(capsys, db, exported)
        page = table[table["Scenario"] == name].set_index("Option")["Total (USD)"].to_dict()
        assert page == pytest.approx(cli, rel=1e-9), name


def test_the_reserved_commitment_by_hand(
    session: tuple[AppTest, dict[str, str], list[str]],
    db: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """8 committed GPUs x 730 h x 36 months at the derived 3-year price, paid whether used
    or not; the rest of the demand overflows to on-demand."""
    exported = tmp_path / "reserved.yaml"
    main(["scenarios", "export", RESERVED, "-o", str(exported), "--db", str(db)])
    capsys.readouterr()
    main(["tco", "--scenario", str(exported), "--db", str(db), "--json"])
    option = json.loads(capsys.readouterr().out)["horizons"][0]["options"][0]
    assert option["totals"]["commitment"] == pytest.approx(8 * 730 * 36 * RESERVED_PER_GPU_HOUR)
    assert option["total"] == pytest.approx(sum(option["totals"].values()))


def test_a_term_the_price_book_cannot_price_is_explained_and_blocks_saving(
    session: tuple[AppTest, dict[str, str], list[str]],
) -> None:
    at, _, _ = session
    at.radio(key="opt_kind").set_value("cloud").run()
    at.selectbox(key="opt_payment").set_value("reserved").run()
    at.number_input(key="opt_term").set_value(24).run()
    assert [e.value for e in at.error] == [
        "AWS H100: no reserved price for a 24-month term in the price book, stored or "
        "derived. Terms it can price: 12, 36 months."
    ]
    assert at.button(key="opt_save").disabled
    at.number_input(key="opt_term").set_value(12).run()
    assert not at.error
    assert not at.button(key="opt_save").disabled


def test_a_server_the_price_book_lacks_is_explained(
    session: tuple[AppTest, dict[str, str], list[str]],
) -> None:
    at, _, _ = session
    at.radio(key="opt_kind").set_value("own").run()
    at.number_input(key="opt_pool_1_servers").set_value(4).run()  # H800: no server in the book
    missing = "H800: the price book has no 8-GPU server"
    assert any(missing in w.value for w in at.warning)
    assert at.button(key="opt_save").disabled
    like = at.selectbox(key="opt_pool_1_like")
    at = like.set_value("8xh100").run()
    assert not any(missing in w.value for w in at.warning)
    at.toggle(key="opt_show_yaml").set_value(True).run()
    assert "{gpu: H800, servers: 4, price: 300000.0, currency: USD, idle_kw: 2.5" in str(
        at.code[0].value
    )


def test_the_owned_inputs_survive_switching_the_kind(
    session: tuple[AppTest, dict[str, str], list[str]],
) -> None:
    at, _, _ = session
    at.radio(key="opt_kind").set_value("own").run()
    at.number_input(key="opt_pool_1_servers").set_value(4).run()
    at = at.selectbox(key="opt_pool_1_like").set_value("8xh100").run()

    at = at.radio(key="opt_kind").set_value("cloud").run()
    at = at.radio(key="opt_kind").set_value("hybrid").run()

    assert at.number_input(key="opt_pool_1_servers").value == 4
    assert at.selectbox(key="opt_pool_1_like").value == "8xh100"
    assert not any("H800: the price book has no 8-GPU server" in w.value for w in at.warning)


def test_every_form_text_is_in_english_and_chinese() -> None:
    ours = {k for k in CATALOGS["en"] if k.startswith("options.")}
    assert ours == {k for k in CATALOGS["zh"] if k.startswith("options.")}
    assert all(CATALOGS["zh"][k] != CATALOGS["en"][k] for k in ours - {"options.gpu"})


def test_a_cloud_options_default_name_says_its_payment_in_words_in_chinese(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLANNER_DB", str(tmp_path / "planner.duckdb"))  # nothing saved yet
    at = open_app_page("pages/compare.py", 300)
    at.radio(key="opt_kind").set_value("cloud").run()
    at.selectbox(key="opt_provider").set_value("AWS")
    at.selectbox(key="opt_gpu_AWS").set_value("H100")
    at.selectbox(key="opt_payment").set_value("reserved").run()
    at.number_input(key="opt_term").set_value(36)
    at.number_input(key="opt_commit").set_value(8.0).run()
    assert at.text_input(key="opt_name").placeholder == "AWS H100 reserved 36m"

    at.session_state["lang_choice"] = "zh"  # the sidebar's switch, after the choices
    at = at.run()

    assert not at.exception
    assert at.text_input(key="opt_name").placeholder == "云方案 AWS H100 预留 36 个月"
