"""An error as the page shows it, in the session's language.

English is the error's own text, exactly what the CLI prints. In 简体中文 an error that
carries a code (`PlannerError.coded`) is worded from `planner/ui/text/errors.py` with its
values, and a file pydantic refused problem by problem; an error without a code, or a
problem of a kind with no Chinese wording yet, keeps its English rather than show nothing.
The result is plain text: pages escape it (`planner.ui.safe.md`) like any message.

The readers' notes and row messages (planner/ingest/notes.py) are worded the same way, from
`planner/ui/text/ingest_notes.py`: `note_md` for a caption or warning (values escaped one by
one, so the Chinese around them stays plain), `note_words` for a table cell.
"""

import re
from collections.abc import Callable, Mapping

from pydantic import ValidationError

from planner.core.validation import Problem, problems, shown_keys
from planner.ingest.notes import recognised
from planner.ingest.reasons import REJECTION_REASONS
from planner.ui.i18n import Language, language
from planner.ui.safe import code as inline_code
from planner.ui.safe import md
from planner.ui.text.errors import ZH
from planner.ui.text.ingest_notes import MODES
from planner.ui.text.ingest_notes import NOTES as ZH_NOTES
from planner.ui.text.ingest_notes import REASONS as ZH_REASONS
from planner.ui.text.ingest_notes import REPLAY as ZH_REPLAY
from planner.ui.text.ingest_notes import ROWS as ZH_ROWS
from planner.ui.text.price_rows import EXPECTED as ZH_EXPECTED
from planner.ui.text.price_rows import MESSAGES as PRICE_MESSAGES
from pricing.problems import EXPECTED

_LIST = "、"
_PROBLEMS = "；"
_QUOTED = re.compile(r"'(.*?)'(?:, |$)")
_NO_SPACE = re.compile(r" +(?=[：；，。）])|(?<=[：；，。（]) +")


def error_text(err: BaseException, lang: Language | None = None) -> str:
    """`err` worded in `lang` (default: the session's); a pydantic error problem by problem
    (`key.path: message; ...`)."""
    if isinstance(err, ValidationError):
        found = problems(err)
        if (lang or language()) != "zh":
            return "; ".join(map(str, found))
        return _PROBLEMS.join(map(problem_text, found))
    code = str(getattr(err, "code", ""))
    values: Mapping[str, object] = getattr(err, "values", {})
    if (lang or language()) != "zh" or code not in ZH:
        return str(err)
    if code == "price_row_invalid":
        return _price_row_invalid(values, str(err))
    filled = _listed(values)
    if "what" in filled:
        filled["what"] = _spaced(ZH.get(f"what.{filled['what']}", str(filled["what"])))
    if "field" in filled:  # a field's meaning in words ("GPUs per node")
        filled["field_words"] = ZH.get(f"field.{filled['field']}", str(filled["field"]))
    if code == "validation":
        listed = values.get("problems")
        found = listed if isinstance(listed, tuple) else ()
        filled["problems"] = _PROBLEMS.join(
            problem_text(p) for p in found if isinstance(p, Problem)
        )
    return _filled(ZH[code], filled, str(err))


def _price_row_invalid(values: Mapping[str, object], english: str) -> str:
    """A price, server, FX rate or assumption the price book refused, problem by problem."""
    pairs = values.get("problems")
    found = [p for p in pairs if isinstance(p, tuple)] if isinstance(pairs, tuple) else []
    problems_zh = _PROBLEMS.join(
        f"{field}：{price_row_words(str(field), str(message), 'zh')}" for field, message in found
    )
    name = str(values.get("name", ""))
    filled = {
        "kind": ZH.get(f"price_kind.{values.get('kind')}", str(values.get("kind"))),
        "name": f" {name} " if name else "",
        "problems": problems_zh,
    }
    return _filled(ZH["price_row_invalid"], filled, english)


def _listed(values: Mapping[str, object]) -> dict[str, object]:
    """`values` with each tuple of names (columns, fields, formats) as inline code joined
    by "、": names from a user's file, shown as they are and never as an English list."""
    return {
        key: _LIST.join(inline_code(v) for v in value) if isinstance(value, tuple) else value
        for key, value in values.items()
    }


def problem_text(problem: Problem) -> str:
    """One problem in Chinese: its key path, what was expected, its line."""
    message = _problem_message(problem)
    if not problem.where:
        return ZH["problem.whole"].format(message=message)
    key = "problem.where_line" if problem.line else "problem.where"
    return ZH[key].format(where=problem.where, message=message, line=problem.line)


def _problem_message(problem: Problem) -> str:
    if problem.kind == "extra_forbidden":
        if problem.close:
            return ZH["problem.unknown_key_close"].format(close=problem.close)
        if problem.allowed:
            allowed = shown_keys([f"`{key}`" for key in problem.allowed]).replace(", ", _LIST)
            return ZH["problem.unknown_key_allowed"].format(allowed=allowed)
        return ZH["problem.unknown_key"]
    template = ZH.get(f"problem.{problem.kind}")
    if template is None:
        return problem.message
    context = _listed({k: _number(v) for k, v in problem.context.items()})
    if "what" in context:
        context["what"] = _spaced(ZH.get(f"what.{context['what']}", str(context["what"])))
    if "expected" in context:  # pydantic's "'a', 'b' or 'c'"
        context["expected"] = str(context["expected"]).replace(" or ", _LIST).replace(", ", _LIST)
    return _filled(template, context, problem.message)


def _spaced(word: str) -> str:
    """`word` for a place between Chinese characters: a space on a side that is Latin
    ("任何 Kueue YAML 都"), none next to Chinese punctuation (`_filled` drops it)."""
    return f"{' ' if word[:1].isascii() else ''}{word}{' ' if word[-1:].isascii() else ''}"


def _number(value: object) -> object:
    """A limit from pydantic's context with thousands marks (100,000), as the English has."""
    is_number = isinstance(value, int | float) and not isinstance(value, bool)
    return f"{value:,}" if is_number else value


def _filled(template: str, values: Mapping[str, object], english: str) -> str:
    """`template` filled; the English text when the values do not fit it (a code whose
    values changed): a message in the wrong language beats none."""
    try:
        return _NO_SPACE.sub("", template.format(**values))
    except (KeyError, IndexError, ValueError):
        return english


def note_md(text: str, lang: Language | None = None) -> str:
    """A reader's note (planner/ingest/notes.py) as Markdown in `lang`: in 简体中文 worded
    from its code with each value escaped; otherwise (or with no Chinese wording) the
    text as it is, escaped whole."""
    return _note(text, lang or language(), md)


def note_words(text: str, lang: Language | None = None) -> str:
    """A reader's note or row message as plain text in `lang` (a table cell's), English
    when it has no code or no Chinese wording."""
    return _note(text, lang or language(), str)


def reason_words(reason: str, lang: Language | None = None) -> str:
    """What a rejection reason code means, in `lang` (the code itself if unknown)."""
    catalog = ZH_REASONS if (lang or language()) == "zh" else REJECTION_REASONS
    return catalog.get(reason, reason)


def _note(text: str, lang: Language, escape: Callable[[str], str]) -> str:
    found = recognised(text) if lang == "zh" else None
    template = found and {**ZH_NOTES, **ZH_ROWS, **ZH_REPLAY}.get(found[0])
    if not found or not template:
        return escape(text)
    said = {key: escape(_value(key, value, lang)) for key, value in found[1].items()}
    return _filled(template, said, escape(text))


def _value(key: str, value: str, lang: Language) -> str:
    """A note's value in `lang`: a row message or rejection reason inside a note is worded
    too, a list of quoted columns is listed the Chinese way; names and numbers stay as given."""
    if key == "message":
        return _note(value, lang, str)
    if key in ("columns", "others"):  # "'a', 'b'" -> “a”、“b”
        names = _QUOTED.findall(value)
        return _LIST.join(f"“{name}”" for name in names) if names else value
    if key == "mode":
        return mode_words(value, lang)
    if key == "what":  # the engine's "GPUs", "A100 GPUs"
        return f"{value.removesuffix('GPUs')}GPU"
    return reason_words(value, lang) if key == "reason" else value


def price_row_words(field: str, message: str, lang: Language | None = None) -> str:
    """Why a price CSV's row was rejected (`field`: its column), in `lang`; the importer's
    English when a message has no Chinese shape yet."""
    if (lang or language()) != "zh":
        return message
    for shape, chinese in _PRICE_SHAPES:
        found = shape.fullmatch(message)
        if found:
            values = found.groupdict()
            if "expected" in values:
                values["expected"] = _expected(field, values["expected"])
            return _filled(chinese, values, message)
    return message


def _expected(field: str, english: str) -> str:
    """What `field` expects in Chinese, when `english` is the importer's usual wording."""
    if english in ("a value", "a valid value"):
        return "有效的值"
    return ZH_EXPECTED.get(field, english) if english == EXPECTED.get(field) else english


_PRICE_SHAPES = tuple((re.compile(shape, re.DOTALL), chinese) for shape, chinese in PRICE_MESSAGES)


def mode_words(label: str, lang: Language | None = None) -> str:
    """A GPU sharing mode's label (`planner.engine.sharing.mode_label`) in `lang`."""
    if (lang or language()) == "zh":
        for shape, chinese in _MODE_SHAPES:
            found = shape.fullmatch(label)
            if found:
                return chinese.format(**found.groupdict())
    return label


_MODE_SHAPES = tuple((re.compile(shape), chinese) for shape, chinese in MODES)
