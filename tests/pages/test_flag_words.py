"""Every ingest flag has plain words on the Job history page, in English and Chinese: the page
never shows a raw key such as `status_derived`."""

from planner.ingest.reasons import FLAGS
from planner.ui.text import CATALOGS


def test_every_ingest_flag_has_words_in_both_languages():
    for flag in FLAGS:
        key = f"history.flag.{flag}"
        assert key in CATALOGS["en"], f"no English words for the flag {flag}"
        assert key in CATALOGS["zh"], f"no Chinese words for the flag {flag}"
        assert flag not in CATALOGS["en"][key]
