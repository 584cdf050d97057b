"""The runtime interventions by name: each change the tracer can apply (its keys are the
fields of `tools/trace/config.py` `Interventions`), what it is called in words, and whether
it changes what the loss computes. A name this registry does not hold is refused, so a
misspelt change fails loudly instead of running the program as written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from torch_investigate.tools.trace.config import Interventions


@dataclass(frozen=True)
class Intervention:
    key: str  # the tracer's name for it, kept in the JSON report
    short: str  # a few words: progress lines, the plot legend
    words: str  # the change in full: the runs tables, the texts
    # the change alters what the loss computes (its inputs' meaning, or which rows each
    # training batch holds: a loss over one-class batches is lower than over mixed ones
    # for the same model): its loss values are not comparable with the run as written,
    # only with each other
    changes_loss: bool = False


# "{value}" in short/words is replaced by the value of a `key=value` intervention.
REGISTRY: dict[str, Intervention] = {
    i.key: i
    for i in (
        Intervention("zero_grad_before_backward", "grads zeroed", "gradients zeroed before each backward"),
        Intervention("defer_zero_grad", "zero_grad after step", "zero_grad moved after the optimizer step"),
        Intervention("force_train_mode", "train mode forced", "the model in train mode for every training forward"),
        Intervention("force_eval_mode_in_eval", "eval mode in eval", "the model in eval mode for every evaluation forward"),
        Intervention("strip_prob", "softmax removed", "the softmax before the loss removed", changes_loss=True),
        Intervention("add_missing_params", "missing params added", "the missing parameters given to the optimizer"),
        Intervention("unfreeze_params", "frozen params trained", "the frozen parameters the optimizer holds set to train"),
        Intervention("train_left_out", "frozen params added", "the parameters the program froze and left out of the optimizer set to train and given to it"),
        Intervention("fixed_batch", "fixed batch", "one fixed batch"),
        Intervention("shuffle_targets", "shuffled targets", "targets shuffled against their inputs"),
        Intervention("holdout", "held-out", "the loss also measured on an unseen batch"),
        Intervention("fixed_pool", "pool of {value}", "the first {value} batches replayed in turn"),
        Intervention("reference_lr", "Adam lr {value}", "the update made by Adam at lr {value} instead of the program's optimizer"),
        Intervention("reference_model", "wide network", "a wide network of the same inputs in place of the program's model", changes_loss=True),
        Intervention("lr_scale", "lr x{value}", "learning rate x{value}"),
        Intervention("weight_decay_scale", "weight decay x{value}", "weight decay x{value}"),
        Intervention("keep_graph", "graph kept", "detach and .data in the forward kept in the graph"),
        Intervention("no_clip", "no clipping", "gradient clipping off"),
        Intervention("no_clamp", "no clamp", "the clamps on the gradient's path lifted", changes_loss=True),
        Intervention("clip_to", "clip at {value}", "gradients clipped at norm {value}, their typical size, instead of the program's limit"),
        Intervention("standardize_inputs", "inputs standardized", "inputs standardized per feature"),
        Intervention("align_eval_inputs", "eval inputs aligned", "the evaluation inputs moved to the training inputs' per-feature mean and std"),
        Intervention("align_eval_rows", "eval rows aligned", "each evaluation row given the training rows' mean and spread"),
        Intervention("swap_loss_args", "loss args swapped", "the loss arguments swapped back", changes_loss=True),
        Intervention("fix_broadcast", "loss input reshaped", "the loss input reshaped to the target's shape", changes_loss=True),
        Intervention("step_after_backward", "step after backward", "an optimizer step after each backward"),
        Intervention("shuffle_loader", "data shuffled", "the training data shuffled", changes_loss=True),
        Intervention("ordered_eval_loaders", "in order: {value}", "the evaluation DataLoader at {value} iterating in order instead of shuffled"),
        Intervention("reinit_params", "params re-initialized", "parameters re-initialized with PyTorch's defaults"),
        Intervention("gather_renormalized", "picked axis normalized", "the probabilities normalized over the axis they are picked along"),
        Intervention("softmax_dim_at", "softmax at {value}", "the softmax at {value} (file:line:axis) normalizing over that axis", changes_loss=True),
        Intervention("rejoin_cuts", "cuts rejoined", "numbers cut from the graph and used again given their tensors back"),
        Intervention("reshape_as_permute", "reshape as permute", "the reshape to a reordered shape done as a permute"),
        Intervention("note_call", "call {value} noted", "the call at {value} noted (prediction against target)"),
        Intervention("grad_check", "grad check {value}", "the loss helper called at {value} checked against finite differences"),
        Intervention("swap_call", "call args swapped", "the helper's arguments swapped at the noted call", changes_loss=True),
        Intervention("score_positions", "scored at {value}", "the training loss also scoring the positions {value} (axis:positions) it ignored, each with the input's next token", changes_loss=True),
        Intervention("unignore_class", "ignored class scored", "the training loss scoring the class its ignore_index left out (ignore_index -100)", changes_loss=True),
        Intervention("reseed", "seeds +{value}", "the run's seeds and the program's own seed calls shifted by {value} (chance alone)"),
    )
}  # fmt: skip


class UnknownIntervention(ValueError):
    """A change the tracer does not know: a misspelt key would otherwise be dropped."""


def tracer_interventions(changes: Mapping[str, object]) -> Interventions:
    """The tracer's typed `Interventions` for `{key: value}`; UnknownIntervention for a key
    the registry does not hold."""
    unknown = sorted(set(changes) - set(REGISTRY))
    if unknown:
        raise UnknownIntervention(
            f"unknown intervention(s) {', '.join(map(repr, unknown))}; known: {', '.join(REGISTRY)}"
        )
    return Interventions(**changes)  # type: ignore[arg-type]


def changes_loss(changes: Mapping[str, object] | list[str]) -> bool:
    """Any of these changes alters what the loss computes."""
    return any(REGISTRY[k].changes_loss for k in changes if k in REGISTRY)
