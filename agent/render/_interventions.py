"""Interventions said in words: one table for every human-facing format.

The tracer's keys (`tools/interventions.py` names each) stay in the JSON; a person
reads "with gradients zeroed before each backward", not `zero_grad_before_backward`.
A key this table does not know is shown as it is.
"""

from __future__ import annotations

from torch_investigate.tools.interventions import REGISTRY
from torch_investigate.tools.records import RunSummary

# key -> words (tools/interventions.py); "{value}" is replaced by the value of a
# `key=value` intervention.
INTERVENTION_WORDS: dict[str, str] = {key: i.words for key, i in REGISTRY.items()}
AS_WRITTEN = "as written"


def _value(text: str) -> str:
    try:
        return f"{float(text):g}"
    except ValueError:
        return text


def change_words(item: str) -> str:
    """One intervention, `key` or `key=value` as `RunSummary.interventions` holds it."""
    key, sep, value = item.partition("=")
    words = INTERVENTION_WORDS.get(key)
    if words is None:
        return item
    if "{value}" in words:
        return words.replace("{value}", _value(value)) if sep else key
    return words


def run_title(run: RunSummary) -> str:
    """`as written`, or `with ...` naming each change in words."""
    if not run.interventions:
        return AS_WRITTEN if run.label.startswith("baseline") else run.label
    return "with " + ", ".join(change_words(i) for i in run.interventions)
