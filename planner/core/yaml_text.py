"""Read YAML a user wrote or uploaded (scenarios, Kueue and Volcano queues), bounded.

`yaml.safe_load` builds only plain values, yet three things cost a user nothing to write and
the reader a lot: a huge file (PyYAML holds every node), anchors reused inside anchors (nine
levels of `&a [*b, *b, ...]` are 9^9 values to whatever walks the result: the "billion
laughs") and an anchor inside itself (a structure with no end). They are refused here, with
the file, the line and the limit, before anything walks the data; so are tags beyond plain
YAML's (`!!python/object`, `!!binary`, a custom `!tag`), by line, instead of PyYAML's long
constructor message. The node tree is kept so a validation problem can name its key's line.
Each error carries a code ("yaml_tag", ...) and its values, for the app's other languages.
"""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from planner.core.errors import ScenarioError

MAX_YAML_BYTES = 4 << 20
"""A scenario with 10,000 explicit nodes is under 1 MiB; a Kueue set-up a few KiB."""
MAX_YAML_VALUES = 1_000_000
"""Values a document may hold once its aliases are expanded (each node of a list of 10,000
explicit nodes counts about ten)."""
_PLAIN = "tag:yaml.org,2002:"
_PLAIN_TAGS = frozenset(
    _PLAIN + name
    for name in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp", "merge")
)
_Loader: type[Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when installed


@dataclass(frozen=True, slots=True)
class YamlDocument:
    """A document's values and the nodes they came from (for line numbers)."""

    data: Any
    node: Node | None
    source: str

    def line_of(self, loc: Sequence[str | int]) -> int | None:
        """The line of the deepest key or item of `loc` found in the file (1-based)."""
        node, line = self.node, None
        for key in loc:
            if isinstance(node, MappingNode):
                found = next(
                    ((k, v) for k, v in node.value if isinstance(k, ScalarNode) and k.value == key),
                    None,
                )
                if found is None:
                    return line
                line, node = found[0].start_mark.line + 1, found[1]
            elif isinstance(node, SequenceNode) and isinstance(key, int) and key < len(node.value):
                node = node.value[key]
                line = node.start_mark.line + 1
            else:
                return line
        return line


def read_yaml_text(path: Path, what: str = "scenario") -> str:
    """A YAML file's text, its size checked before it is read.

    Raises:
        ScenarioError: it cannot be read, is larger than MAX_YAML_BYTES or is not UTF-8.
    """
    try:
        size = path.stat().st_size
        if size > MAX_YAML_BYTES:
            raise _too_large(str(path), what, size)
        return path.read_bytes().decode("utf-8")
    except OSError as err:
        reason = err.strerror or str(err)
        raise ScenarioError(f"{path}: cannot read the {what}: {reason}").coded(
            "yaml_unreadable", source=str(path), what=what, reason=reason
        ) from err
    except UnicodeDecodeError as err:
        raise ScenarioError(
            f"{path}: the {what} is not UTF-8 text (byte {err.start + 1:,} is not); is this "
            "the right file? Save it as UTF-8 YAML"
        ).coded("yaml_not_utf8", source=str(path), what=what, byte=err.start + 1) from err


def load_yaml(text: str, source: str, what: str = "scenario") -> YamlDocument:
    """The one document of `text`; `source` and `what` ("scenario", "Kueue YAML") name it in
    messages.

    Raises:
        ScenarioError: too large, not YAML, a tag that is not plain YAML, or anchors that
            expand beyond MAX_YAML_VALUES or into themselves.
    """
    documents = _documents(text, source, what, single=True)
    return documents[0] if documents else YamlDocument(None, None, source)


def load_yaml_all(text: str, source: str, what: str) -> list[YamlDocument]:
    """Every document of a `---`-separated file (Kubernetes manifests), as `load_yaml`."""
    return _documents(text, source, what, single=False)


def _documents(text: str, source: str, what: str, *, single: bool) -> list[YamlDocument]:
    size = len(text.encode("utf-8", errors="replace"))
    if size > MAX_YAML_BYTES:
        raise _too_large(source, what, size)
    loader = _Loader(text)
    try:
        nodes = [loader.get_single_node()] if single else list(_nodes(loader))
        for node in nodes:
            if node is not None:
                _check(node, source, what)
        return [
            YamlDocument(loader.construct_document(node), node, source)
            for node in nodes
            if node is not None
        ]
    except yaml.YAMLError as err:
        raise ScenarioError(f"{source}: cannot read the {what}: {err}").coded(
            "yaml_syntax", source=source, what=what, **_where(err, text)
        ) from err
    finally:
        loader.dispose()


def _where(err: yaml.YAMLError, text: str) -> dict[str, int]:
    """The line and column (1-based) PyYAML found the problem at; none when it names none."""
    mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
    if mark is not None:
        return {"line": mark.line + 1, "column": mark.column + 1}
    position = getattr(err, "position", None)  # a ReaderError: a character YAML forbids
    if isinstance(position, int):
        before = text[:position]
        return {"line": before.count("\n") + 1, "column": position - before.rfind("\n")}
    return {}


def _too_large(source: str, what: str, size: int) -> ScenarioError:
    mib, limit = f"{size / (1 << 20):.1f}", MAX_YAML_BYTES >> 20
    return ScenarioError(
        f"{source}: the {what} is {mib} MiB, more than the {limit} MiB a {what} file may "
        "hold; is this the right file? Many nodes are written as pools (count: N) or as a "
        "node list file (cluster.node_list)"
    ).coded("yaml_too_large", source=source, what=what, mib=mib, limit=limit)


def _nodes(loader: Any) -> Iterator[Node]:
    while loader.check_node():
        yield loader.get_node()


def _check(root: Node, source: str, what: str) -> None:
    """Refuse tags beyond plain YAML and anchors that expand too far or into themselves.

    Sizes are counted once per distinct node (an alias is the same node object), children
    before parents, so the cost is the file's size whatever the aliases multiply.
    """
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if children_done:
            open_nodes.discard(key)
            sizes[key] = 1 + sum(sizes[id(child)] for child in _children(node))
            if sizes[key] > MAX_YAML_VALUES:
                raise _too_many(node, source, what)
        elif key not in sizes:
            if key in open_nodes:
                raise ScenarioError(
                    f"{source}: {_at(node)}: an anchor (&name) is used inside itself, so this "
                    f"value never ends; write the {what} without that alias (*name)"
                ).coded("yaml_self_alias", source=source, what=what, **_mark(node))
            if node.tag not in _PLAIN_TAGS:
                raise _bad_tag(node, source, what)
            open_nodes.add(key)
            stack.append((node, True))
            stack.extend((child, False) for child in _children(node))


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _mark(node: Node) -> dict[str, int]:
    """Where `node` starts: line and column, 1-based."""
    return {"line": node.start_mark.line + 1, "column": node.start_mark.column + 1}


def _at(node: Node) -> str:
    return "line {line}, column {column}".format(**_mark(node))


def _too_many(node: Node, source: str, what: str) -> ScenarioError:
    return ScenarioError(
        f"{source}: {_at(node)}: this value expands to more than {MAX_YAML_VALUES:,} values "
        "through anchors and aliases (&name, *name) reused inside each other (a 'billion "
        f"laughs' file); no {what} needs that many: write the values out instead"
    ).coded("yaml_too_many", source=source, what=what, limit=MAX_YAML_VALUES, **_mark(node))


def _bad_tag(node: Node, source: str, what: str) -> ScenarioError:
    tag = node.tag.replace(_PLAIN, "!!")
    shown = tag if len(tag) <= 60 else f"{tag[:60]}…"
    return ScenarioError(
        f"{source}: {_at(node)}: the tag {shown} is not allowed; a {what} holds only plain "
        "values (text, numbers, true/false, dates, lists and mappings): remove the tag"
    ).coded("yaml_tag", source=source, what=what, tag=shown, **_mark(node))
