"""Interventions said in words: one table for every human-facing format.

The tracer's keys (`tools/interventions.py` names each) stay in the JSON; a person
reads "with gradients zeroed before each backward", not `zero_grad_before_backward`.
Each key also has a short name ("grads zeroed"): what a progress line and the HTML
plot's legend call a run, so a run reads the same wherever it is named and one line
holds it. A key this table does not know is shown as it is.
"""

from __future__ import annotations

from torch_investigate.tools.interventions import REGISTRY
from torch_investigate.tools.records import RunSummary

# key -> its names (tools/interventions.py: `short` for progress lines and the plot legend,
# `words` for the runs tables and texts); "{value}" is replaced by the value of a
# `key=value` intervention.
INTERVENTIONS = REGISTRY
INTERVENTION_WORDS: dict[str, str] = {key: i.words for key, i in REGISTRY.items()}

AS_WRITTEN = "as written"


def _value(text: str) -> str:
    try:
        return f"{float(text):g}"
    except ValueError:
        return text


def _say(item: str, short: bool) -> str:
    key, sep, value = item.partition("=")
    naming = INTERVENTIONS.get(key)
    if naming is None:
        return item
    text = naming.short if short else naming.words
    if "{value}" in text:
        return text.replace("{value}", _value(value)) if sep else key
    return text


def change_words(item: str) -> str:
    """One intervention, `key` or `key=value` as `RunSummary.interventions` holds it."""
    return _say(item, short=False)


def change_name(item: str) -> str:
    """The intervention's short name ("lr x10")."""
    return _say(item, short=True)


def run_title(run: RunSummary) -> str:
    """`as written`, or `with ...` naming each change in words."""
    if not run.interventions:
        return AS_WRITTEN if run.label.startswith("baseline") else run.label
    return "with " + ", ".join(change_words(i) for i in run.interventions)


def short_name(interventions: list[str], label: str = "") -> str:
    """A run's short name: `as written`, or its changes' short names ("fixed batch,
    lr x10"); a run without interventions that is not the baseline keeps its label."""
    if not interventions:
        return AS_WRITTEN if not label or label.startswith("baseline") else label
    return ", ".join(change_name(i) for i in interventions)


def run_name(run: RunSummary) -> str:
    return short_name(run.interventions, run.label)
