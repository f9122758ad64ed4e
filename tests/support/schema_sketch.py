"""The smallest JSON document a JSON Schema's structure suggests: its constants, defaults
or first examples and enum values where it gives them, else the required keys of each
object, the fewest items of each list, the least number in each range.

It is where the fuzzer starts for a game that deals no position and has no example: a
sketch need not be a position (a card pattern it cannot meet, a rule of the game), but
mutated it reaches the game's reader and, now and then, its questions.
"""

from __future__ import annotations

import copy
from typing import Any

_DEPTH = 32  # a schema that refers to itself ends as null there


def sketch(schema: dict[str, Any]) -> Any:
    """The document for `schema`, a whole schema (its "$defs" resolve its "$ref"s)."""
    return _sketch(schema, schema, 0)


def examples(schema: dict[str, Any]) -> list[Any]:
    """The examples the schema gives of a whole document (its top-level "examples")."""
    found = schema.get("examples", [])
    return [copy.deepcopy(example) for example in found] if isinstance(found, list) else []


def _sketch(node: Any, root: dict[str, Any], depth: int) -> Any:
    if not isinstance(node, dict) or depth > _DEPTH:
        return None
    if "$ref" in node:
        return _sketch(_resolve(node["$ref"], root), root, depth + 1)
    if "const" in node:
        return copy.deepcopy(node["const"])
    if "default" in node:
        return copy.deepcopy(node["default"])
    if isinstance(node.get("examples"), list) and node["examples"]:
        return copy.deepcopy(node["examples"][0])
    if isinstance(node.get("enum"), list) and node["enum"]:
        return copy.deepcopy(node["enum"][0])
    for key in ("anyOf", "oneOf", "allOf"):
        branches = node.get(key)
        if isinstance(branches, list) and branches:
            chosen = next((b for b in branches if not (isinstance(b, dict)
                                                       and b.get("type") == "null")),
                          branches[0])
            return _sketch(chosen, root, depth + 1)
    kind = node.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or (kind is None and "properties" in node):
        properties = node.get("properties", {})
        required = set(node.get("required", []))
        return {name: _sketch(inner, root, depth + 1) for name, inner in properties.items()
                if name in required or name == "game"  # a position names its game
                or (isinstance(inner, dict) and "const" in inner)}
    if kind == "array":
        items = [_sketch(inner, root, depth + 1) for inner in node.get("prefixItems", [])]
        for _ in range(max(0, node.get("minItems", 0) - len(items))):
            items.append(_sketch(node.get("items", {}), root, depth + 1))
        return items
    if kind == "string":
        return "x" * node.get("minLength", 0)
    if kind in ("integer", "number"):
        return _least(node, kind)
    if kind == "boolean":
        return False
    return None


def _least(node: dict[str, Any], kind: str) -> int | float:
    """The number nearest 0 in the node's range."""
    step = 1 if kind == "integer" else 1e-9
    low = node.get("minimum", node.get("exclusiveMinimum", None))
    if "exclusiveMinimum" in node and "minimum" not in node:
        low = node["exclusiveMinimum"] + step
    high = node.get("maximum")
    if "exclusiveMaximum" in node and high is None:
        high = node["exclusiveMaximum"] - step
    value = 0 if low is None or low <= 0 else low
    if high is not None and value > high:
        value = high
    return value


def _resolve(reference: str, root: dict[str, Any]) -> Any:
    """A "#/$defs/Name"-style reference within the document; anything else as null."""
    if not reference.startswith("#/"):
        return None
    node: Any = root
    for part in reference[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node
