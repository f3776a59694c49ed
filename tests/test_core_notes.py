"""Coded notes: the CLI and reports print the English text; the app words the code."""

import json
import pickle

from planner.core.notes import ENGLISH, Note, note
from planner.ui.i18n import note_text
from planner.ui.text import CATALOGS


def test_a_note_is_its_english_text_and_keeps_its_code() -> None:
    said = note("bridge_cloud", months=4, option="AWS H100")
    assert said == (
        "servers are paid at order and cost to run and depreciate from delivery, 4 months "
        "later; meanwhile the demand runs on AWS H100 (the bridge category, left out of the "
        "cost per installed GPU-hour)"
    )
    assert json.dumps([said]) == json.dumps([str(said)])  # saved results read the same
    again = pickle.loads(pickle.dumps(said))  # st.cache_data pickles reports
    assert (again, again.code, again.values) == (said, "bridge_cloud", said.values)


def test_the_page_words_every_code_in_chinese() -> None:
    assert set(ENGLISH) == {
        key.removeprefix("notes.") for key in CATALOGS["zh"] if key.startswith("notes.")
    }
    said = note("placeholder_fx", price=note("server", name="A100"), base="EUR", quote="USD")
    assert note_text(said, "en") == str(said)
    assert note_text(said, "zh").startswith("服务器 A100：按占位汇率把 EUR 换算为 USD")
    assert note_text("a note saved as text", "zh") == "a note saved as text"
    assert note_text(Note("no such code", "nope"), "zh") == "no such code"
