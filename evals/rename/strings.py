"""What a string literal in the code is for, as far as names go: a key into a dict or a
config, an attribute named by string (`getattr(m, "fc")`), a comparison operand, an
argparse option, a module path, an annotation, prose for a person, or just a value.

A string that spells a repo name in a place where Python would look the name up
(`getattr`, `**kwargs`, `named_parameters()` compared against "backbone.") ties the
name to its spelling; the renamer then keeps that name, or renames string and name
together (config keys, `__all__`).
"""

from __future__ import annotations

import re
from typing import Literal

from tree_sitter import Node

from torch_investigate.tools.code.syntax import text

StringRole = Literal[
    "key",  # cfg["lr"], cfg.get("lr"), section.getint("lr")
    "dictkey",  # {"lr": ...}
    "attrname",  # getattr(x, "lr"), register_buffer("lr", ...)
    "compare",  # == "lr", in ("a", "b"), .startswith("enc.")
    "fields",  # namedtuple("Batch", "x y")
    "argparse",  # add_argument("--lr", dest="lr")
    "module",  # importlib.import_module("pkg.mod")
    "all",  # __all__ = ["Trainer"]
    "annotation",  # x: "Config"
    "prose",  # print("..."), log.info("...")
    "docstring",
    "value",  # anything else
]

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\.?\Z")
KEY_METHODS = frozenset({"get", "pop", "setdefault", "getint", "getfloat", "getboolean",
                         "has_option", "has_section", "remove_option"})  # fmt: skip
ATTR_FUNCTIONS = frozenset({"getattr", "setattr", "hasattr", "delattr"})
ATTR_METHODS = frozenset({"register_buffer", "register_parameter", "add_module",
                          "register_module", "get_submodule", "get_parameter", "get_buffer"})  # fmt: skip
COMPARE_METHODS = frozenset({"startswith", "endswith", "removeprefix", "removesuffix"})
PROSE_CALLS = frozenset({"print", "info", "debug", "warning", "warn", "error", "exception",
                         "critical", "write", "set_description", "set_postfix_str", "format",
                         "ValueError", "TypeError", "RuntimeError", "KeyError",
                         "AssertionError", "Exception", "NotImplementedError"})  # fmt: skip
MODULE_CALLS = frozenset({"import_module", "__import__", "run_module", "find_spec"})


def names_in(content: str) -> list[str]:
    """The identifiers a string spells as a name: itself, or the parts of a dotted path
    (`"backbone.0.weight"` -> backbone, weight)."""
    if IDENTIFIER.match(content):
        return [content]
    if "." in content and DOTTED.match(content):
        return [p for p in content.split(".") if p and IDENTIFIER.match(p)]
    return []


def role_of(node: Node) -> tuple[StringRole, int]:
    """The string's role and, for call arguments, its position (else -1)."""
    if _in_annotation(node):
        return "annotation", -1
    parent = node.parent
    if parent is None:
        return "value", -1
    t = parent.type
    if t == "expression_statement":
        return "docstring", -1
    if t == "concatenated_string":
        return role_of(parent)
    if t == "subscript" and parent.child_by_field_name("value") is not node:
        return "key", -1
    if t == "pair" and parent.child_by_field_name("key") is node:
        return "dictkey", -1
    if t == "comparison_operator":
        return "compare", -1
    if t in ("list", "tuple", "set"):
        holder = parent.parent
        if holder is not None and holder.type == "assignment":
            left = holder.child_by_field_name("left")
            if left is not None and text(left) == "__all__":
                return "all", -1
        return "compare", -1
    if t == "keyword_argument":
        call = parent.parent.parent if parent.parent is not None else None
        name = parent.child_by_field_name("name")
        if call is not None and call.type == "call" and _callee_name(call) == "add_argument":
            return ("argparse" if name is not None and text(name) == "dest" else "value"), -1
        return "value", -1
    if t == "argument_list" and parent.parent is not None and parent.parent.type == "call":
        call = parent.parent
        position = [c for c in parent.named_children].index(node)
        callee = _callee_name(call)
        if callee in KEY_METHODS:
            return "key", position
        if callee in ATTR_FUNCTIONS:
            return ("attrname" if position == 1 else "value"), position
        if callee in ATTR_METHODS:
            return ("attrname" if position == 0 else "value"), position
        if callee in COMPARE_METHODS:
            return "compare", position
        if callee == "namedtuple":
            return ("fields" if position == 1 else "value"), position
        if callee == "add_argument":
            return "argparse", position
        if callee in MODULE_CALLS:
            return "module", position
        if callee in PROSE_CALLS:
            return "prose", position
        return "value", position
    return "value", -1


def _callee_name(call: Node) -> str:
    func = call.child_by_field_name("function")
    if func is None:
        return ""
    if func.type == "attribute":
        attr = func.child_by_field_name("attribute")
        return text(attr) if attr is not None else ""
    return text(func) if func.type == "identifier" else ""


def _in_annotation(node: Node) -> bool:
    n = node.parent
    while n is not None and n.type not in ("function_definition", "module", "block"):
        if n.type == "type":
            return True
        n = n.parent
    return False


def is_docstring(node: Node) -> bool:
    """The first statement of a module, class or function body, when a string."""
    stmt = node.parent
    if stmt is None or stmt.type != "expression_statement" or stmt.named_child_count != 1:
        return False
    body = stmt.parent
    if body is None:
        return False
    first = next((c for c in body.named_children if c.type != "comment"), None)
    if first is None or first.id != stmt.id:
        return False
    return body.type == "module" or (
        body.type == "block" and body.parent is not None
        and body.parent.type in ("function_definition", "class_definition")
    )  # fmt: skip
