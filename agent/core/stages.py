"""What each stage of the protocol must find out before it may end.

The checklists are the protocol's evidence requirements (seeds/000): they are data,
not code, so checks, policies and reports all name the same items. A check marks an
item; the state machine refuses to close a stage while an item is pending.
"""

from __future__ import annotations

from dataclasses import dataclass

from torch_investigate.tools.records import CheckItem, Stage


@dataclass(frozen=True)
class ItemSpec:
    id: str
    description: str
    dynamic: bool  # needs the training path to have run


CHECKLISTS: dict[Stage, tuple[ItemSpec, ...]] = {
    Stage.SYMPTOM: (
        ItemSpec(
            "training_command", "the training command and configuration are identified", False
        ),
        ItemSpec("run", "the training path ran for a bounded number of steps", True),
        ItemSpec("loss_curve", "the loss curve is classified (flat, divergence, ...)", True),
        ItemSpec("initial_loss", "the first loss is compared with the chance level", True),
    ),
    Stage.DATA: (
        ItemSpec(
            "batch_contract", "feature/target shapes, dtypes, finite ranges, value sets", True
        ),
        ItemSpec("label_encoding", "target encoding matches what the loss expects", True),
        ItemSpec("class_balance", "class balance per batch across consecutive batches", True),
        ItemSpec("train_eval_inputs", "train vs evaluation input statistics", True),
        ItemSpec(
            "leakage", "overlap of train and evaluation rows; a feature equal to the target", True
        ),
        ItemSpec("pairing", "features and targets still correspond", True),
        ItemSpec("static", "data code read for splits, shuffles and transforms", False),
    ),
    Stage.FORWARD: (
        ItemSpec("shapes", "tensor shapes recorded through the model", True),
        ItemSpec("broadcasting", "no silent broadcasting between mismatched shapes", True),
        ItemSpec("batch_dimension", "softmax/argmax/reductions do not run over the batch", True),
        ItemSpec("sample_independence", "one sample's output does not depend on another", True),
        ItemSpec("input_dependence", "the output depends on the input", True),
        ItemSpec("static", "forward code read for dims, reshapes and activations", False),
    ),
    Stage.LOSS: (
        ItemSpec("output_semantics", "logits vs probabilities match the loss", True),
        ItemSpec("target_semantics", "target dtype, shape and encoding match the loss", True),
        ItemSpec("argument_order", "prediction and target are in the right argument slots", True),
        ItemSpec("contributing_elements", "reduction and masks keep the intended elements", True),
        ItemSpec("loss_scale", "the loss value and its gradient scale are plausible", True),
        ItemSpec("static", "loss code read", False),
    ),
    Stage.AUTOGRAD: (
        ItemSpec("reachability", "trainable parameters are reachable from the loss", True),
        ItemSpec("gradient_values", "gradients are present, finite and not collapsed", True),
        ItemSpec("grad_mode", "grad mode is on during the training forward", True),
        ItemSpec("registration", "parameters are registered, leaves, trainable, made once", True),
        ItemSpec("static", "graph-breaking code read (detach, no_grad, re-wrap)", False),
    ),
    Stage.OPTIMIZER: (
        ItemSpec(
            "call_order", "order of zero_grad, forward, loss, backward, clip, step, scheduler", True
        ),
        ItemSpec("ownership", "the optimizer owns every trainable parameter", True),
        ItemSpec("updates", "parameters change after each step", True),
        ItemSpec("gradient_reset", "gradients are reset between steps", True),
        ItemSpec("learning_rate", "learning rate per step", True),
        ItemSpec("clipping", "clipping ratio, if clipping is used", True),
        ItemSpec("weight_decay", "weight decay vs gradient", True),
        ItemSpec("static", "training loop code read", False),
    ),
    Stage.MODES: (
        ItemSpec("training_mode", "module.training during the training forward", True),
        ItemSpec("evaluation_mode", "module.training during evaluation", True),
        ItemSpec("batchnorm", "BatchNorm batch sizes in train mode", True),
        ItemSpec("metrics", "metrics recomputed from observed outputs and targets", True),
        ItemSpec("static", "train/eval switching and metric code read", False),
    ),
    Stage.OPTIMIZATION: (
        ItemSpec("lr_sweep", "learning-rate sweep on a fixed batch", True),
        ItemSpec("activations", "initialization and activation statistics", True),
        ItemSpec("gradient_flow", "per-layer gradient norms", True),
        ItemSpec("capacity", "fixed-batch overfit test", True),
    ),
}


def fresh_checklist(stage: Stage) -> list[CheckItem]:
    return [
        CheckItem(id=s.id, description=s.description, dynamic=s.dynamic) for s in CHECKLISTS[stage]
    ]
