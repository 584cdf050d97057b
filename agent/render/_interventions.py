"""Interventions said in words: one table for every human-facing format.

The tracer's keys (`tools/trace/config.py` `Interventions`) stay in the JSON; a person
reads "with gradients zeroed before each backward", not `zero_grad_before_backward`.
A key this table does not know is shown as it is.
"""

from __future__ import annotations

from torch_investigate.tools.records import RunSummary

# key -> words; "{value}" is replaced by the value of a `key=value` intervention.
INTERVENTION_WORDS: dict[str, str] = {
    "zero_grad_before_backward": "gradients zeroed before each backward",
    "defer_zero_grad": "zero_grad moved after the optimizer step",
    "force_train_mode": "the model in train mode for every training forward",
    "force_eval_mode_in_eval": "the model in eval mode for every evaluation forward",
    "strip_prob": "the softmax before the loss removed",
    "add_missing_params": "the missing parameters given to the optimizer",
    "fixed_batch": "one fixed batch",
    "shuffle_targets": "targets shuffled against their inputs",
    "holdout": "the loss also measured on an unseen batch",
    "fixed_pool": "the first {value} batches replayed in turn",
    "reference_lr": "the update made by Adam at lr {value} instead of the program's optimizer",
    "lr_scale": "learning rate x{value}",
    "weight_decay_scale": "weight decay x{value}",
    "keep_graph": "detach and .data in the forward kept in the graph",
    "no_clip": "gradient clipping off",
    "standardize_inputs": "inputs standardized per feature",
    "swap_loss_args": "the loss arguments swapped back",
    "fix_broadcast": "the loss input reshaped to the target's shape",
    "step_after_backward": "an optimizer step after each backward",
    "shuffle_loader": "the training data shuffled",
    "reinit_params": "parameters re-initialized with PyTorch's defaults",
    "rejoin_cuts": "numbers cut from the graph and used again given their tensors back",
    "reshape_as_permute": "the reshape to a reordered shape done as a permute",
}
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
