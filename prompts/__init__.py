"""The LLM's prompts: plain markdown files in this folder, rendered with strict templates.

Placeholders are `string.Template` names (`$name` or `${name}`; `$$` is a literal `$`).
Every prompt declares the placeholders its code fills (`VARIABLES`). `load` checks that
a file uses exactly the declared names, and `Prompt.render` refuses a missing or an
unknown value, so a typo in a prompt fails when the prompts are loaded (when a policy
or a chat is built), never halfway through an investigation.

    prompts = load_all()                      # raises PromptError on any mismatch
    prompts["system"].render(tools=..., ...)  # raises PromptError on a missing value
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from string import Template

from torch_investigate.tools.records import Stage


class PromptError(Exception):
    """A prompt file and the code that fills it disagree."""


_STAGE = frozenset({"stage", "title", "checklist", "categories"})

STAGE_FILES: dict[Stage, str] = {
    Stage.SYMPTOM: "stage_1_symptom",
    Stage.DATA: "stage_2_data",
    Stage.FORWARD: "stage_3_forward",
    Stage.LOSS: "stage_4_loss",
    Stage.AUTOGRAD: "stage_5_autograd",
    Stage.OPTIMIZER: "stage_6_optimizer",
    Stage.MODES: "stage_7_modes",
    Stage.OPTIMIZATION: "stage_8_optimization",
}

# name (the file without `.md`) -> the placeholders its code fills
VARIABLES: dict[str, frozenset[str]] = {
    "system": frozenset({"tools", "max_failures", "data_open", "data_close", "keep"}),
    "chat": frozenset(),
    "briefing": frozenset({"repo", "command", "files"}),
    "chat_turn": frozenset({"state", "question"}),
    "nudge": frozenset({"state"}),
    "review": frozenset({"repo", "command", "summary", "weak_points", "budget"}),
    "review_nudge": frozenset({"state"}),
    "fix": frozenset({"data_open", "data_close"}),
    "fix_finding": frozenset(
        {"finding", "category", "stage", "where", "title", "why", "evidence", "code", "tried"}
    ),
    **{name: _STAGE for name in STAGE_FILES.values()},
}


@dataclass(frozen=True)
class Prompt:
    name: str
    template: Template
    variables: frozenset[str]

    def render(self, **values: object) -> str:
        given = set(values)
        missing = sorted(self.variables - given)
        unknown = sorted(given - self.variables)
        if missing or unknown:
            raise PromptError(
                f"prompt {self.name!r}: "
                + "; ".join(
                    part
                    for part in (
                        f"missing values for {', '.join(missing)}" if missing else "",
                        f"no placeholder for {', '.join(unknown)}" if unknown else "",
                    )
                    if part
                )
            )
        return self.template.substitute({k: str(v) for k, v in values.items()}).strip() + "\n"


def _read(name: str, root: Path | None) -> str:
    if root is not None:
        path = root / f"{name}.md"
        if not path.is_file():
            raise PromptError(f"prompt {name!r}: no file {path}")
        return path.read_text(encoding="utf-8")
    res = resources.files(__name__).joinpath(f"{name}.md")
    if not res.is_file():
        raise PromptError(f"prompt {name!r}: no file {name}.md in the prompts package")
    return res.read_text(encoding="utf-8")


def _placeholders(template: Template) -> set[str] | None:
    """The names a template fills, or None when a `$` is not a placeholder: what
    Template.get_identifiers and is_valid say from Python 3.11, which 3.10 lacks."""
    names: set[str] = set()
    for match in template.pattern.finditer(template.template):
        if match.group("invalid") is not None:
            return None
        named = match.group("named") or match.group("braced")
        if named is not None:
            names.add(named)
    return names


def load(name: str, root: Path | None = None, variables: frozenset[str] | None = None) -> Prompt:
    """Load one prompt and check its placeholders against the declaration."""
    declared = VARIABLES.get(name) if variables is None else variables
    if declared is None:
        raise PromptError(f"prompt {name!r} is not declared in prompts.VARIABLES")
    template = Template(_read(name, root))
    used = _placeholders(template)
    if used is None:
        raise PromptError(f"prompt {name!r}: a `$` that is not a placeholder (write `$$`)")
    undeclared = sorted(used - declared)
    unused = sorted(declared - used)
    if undeclared:
        raise PromptError(
            f"prompt {name!r} uses placeholders the code does not fill: {', '.join(undeclared)}"
        )
    if unused:
        raise PromptError(f"prompt {name!r} lacks declared placeholders: {', '.join(unused)}")
    return Prompt(name, template, declared)


def load_all(root: Path | None = None) -> dict[str, Prompt]:
    return {name: load(name, root) for name in VARIABLES}


__all__ = ["STAGE_FILES", "VARIABLES", "Prompt", "PromptError", "load", "load_all"]
