"""Interventions said in words: one table for every human-facing format.

The tracer's keys (`tools/trace/config.py` `Interventions`) stay in the JSON; a person
reads "with gradients zeroed before each backward", not `zero_grad_before_backward`.
Each key also has a short name ("grads zeroed"): what a progress line and the HTML
plot's legend call a run, so a run reads the same wherever it is named and one line
holds it. A key this table does not know is shown as it is.
"""

from __future__ import annotations

from typing import NamedTuple

from torch_investigate.tools.records import RunSummary


class Naming(NamedTuple):
    short: str  # a few words: progress lines, the plot legend
    words: str  # the change in full: the runs tables, the texts


# key -> its names; "{value}" is replaced by the value of a `key=value` intervention.
INTERVENTIONS: dict[str, Naming] = {
    "zero_grad_before_backward": Naming("grads zeroed", "gradients zeroed before each backward"),
    "defer_zero_grad": Naming("zero_grad after step", "zero_grad moved after the optimizer step"),
    "force_train_mode": Naming(
        "train mode forced", "the model in train mode for every training forward"
    ),
    "force_eval_mode_in_eval": Naming(
        "eval mode in eval", "the model in eval mode for every evaluation forward"
    ),
    "strip_prob": Naming("softmax removed", "the softmax before the loss removed"),
    "add_missing_params": Naming(
        "missing params added", "the missing parameters given to the optimizer"
    ),
    "fixed_batch": Naming("fixed batch", "one fixed batch"),
    "shuffle_targets": Naming("shuffled targets", "targets shuffled against their inputs"),
    "holdout": Naming("held-out", "the loss also measured on an unseen batch"),
    "fixed_pool": Naming("pool of {value}", "the first {value} batches replayed in turn"),
    "reference_lr": Naming(
        "Adam lr {value}",
        "the update made by Adam at lr {value} instead of the program's optimizer",
    ),
    "lr_scale": Naming("lr x{value}", "learning rate x{value}"),
    "weight_decay_scale": Naming("weight decay x{value}", "weight decay x{value}"),
    "keep_graph": Naming("graph kept", "detach and .data in the forward kept in the graph"),
    "no_clip": Naming("no clipping", "gradient clipping off"),
    "standardize_inputs": Naming("inputs standardized", "inputs standardized per feature"),
    "swap_loss_args": Naming("loss args swapped", "the loss arguments swapped back"),
    "fix_broadcast": Naming("loss input reshaped", "the loss input reshaped to the target's shape"),
    "step_after_backward": Naming("step after backward", "an optimizer step after each backward"),
    "shuffle_loader": Naming("data shuffled", "the training data shuffled"),
    "reinit_params": Naming(
        "params re-initialized", "parameters re-initialized with PyTorch's defaults"
    ),
    "rejoin_cuts": Naming(
        "cuts rejoined", "numbers cut from the graph and used again given their tensors back"
    ),
    "reshape_as_permute": Naming(
        "reshape as permute", "the reshape to a reordered shape done as a permute"
    ),
}
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
