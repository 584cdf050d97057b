"""Enough of a Makefile to run a target's Python the way `make` would: simple variables
(`NAME ?= value`, `=`, `:=`, `::=`, with `$(NAME)` and `${NAME}` expanded), rules with
several targets, and the recipes of a target's prerequisites (`train: data` runs what
makes `data` first). No functions, no pattern rules, no conditionals: a recipe that
still holds a `$` after expansion is left alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*(\?=|:=|::=|=)\s*(.*)$")
_RULE = re.compile(r"^([^:=#\t][^:=#]*?)\s*:(?![=:])\s*([^;#]*)")
_REF = re.compile(r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]")
MAX_DEPTH = 8


@dataclass
class Rule:
    prerequisites: list[str] = field(default_factory=list)
    recipe: list[str] = field(default_factory=list)


@dataclass
class Makefile:
    variables: dict[str, str] = field(default_factory=dict)
    rules: dict[str, Rule] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)  # targets as written

    def expand(self, text: str, depth: int = 0) -> str:
        if depth > MAX_DEPTH:
            return text
        expanded = _REF.sub(lambda m: self.variables.get(m.group(1), m.group(0)), text)
        return expanded if expanded == text else self.expand(expanded, depth + 1)

    def before(self, target: str) -> list[str]:
        """Recipe lines of the target's prerequisites, in the order make runs them
        (depth first, each once)."""
        out: list[str] = []
        seen: set[str] = set()

        def visit(name: str, depth: int) -> None:
            rule = self.rules.get(name)
            if rule is None or name in seen or depth > MAX_DEPTH:
                return
            seen.add(name)
            for pre in rule.prerequisites:
                visit(pre, depth + 1)
                pre_rule = self.rules.get(pre)
                if pre_rule is not None:
                    out.extend(line for line in pre_rule.recipe if line not in out)

        visit(target, 0)
        return out


def parse(text: str) -> Makefile:
    mk = Makefile()
    current: list[str] = []
    lines = text.replace("\\\n", " ").splitlines()
    for line in lines:
        if line.startswith("\t"):
            for target in current:
                mk.rules[target].recipe.append(line.strip())
            continue
        stripped = line.split("#", 1)[0].rstrip()
        if not stripped.strip():
            continue
        assign = _ASSIGN.match(stripped.strip())
        if assign:
            name, op, value = assign.groups()
            if op != "?=" or name not in mk.variables:
                mk.variables[name] = value.strip()
            current = []
            continue
        rule = _RULE.match(stripped)
        if rule and not stripped.startswith("."):
            targets = mk.expand(rule.group(1)).split()
            prerequisites = mk.expand(rule.group(2)).split()
            current = targets
            for target in targets:
                mk.rules.setdefault(target, Rule())
                mk.rules[target].prerequisites = prerequisites
                if target not in mk.order:
                    mk.order.append(target)
            continue
        current = []
    for rule in mk.rules.values():
        rule.recipe = [mk.expand(line) for line in rule.recipe]
    return mk
