"""Resolving names through imports, and what the resolved torch names mean.

`resolve("F.softmax", {"F": "torch.nn.functional"})` -> `torch.nn.functional.softmax`.
The tables classify resolved names: losses, optimizers, schedulers, layers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# Used only when the file does not bind the name itself (star imports, snippets).
CONVENTIONAL_ALIASES = {
    "nn": "torch.nn",
    "F": "torch.nn.functional",
    "optim": "torch.optim",
    "np": "numpy",
}


# Names that usually hold a model, for callees the flow analysis cannot resolve.
MODEL_NAME = re.compile(
    r"(^|_|\.)(model|net|network|encoder|decoder|backbone|classifier|generator|discriminator|"
    r"critic|actor|policy|head|module|student|teacher)s?($|_|\d)",
    re.IGNORECASE,
)


def looks_like_model(callee: str) -> bool:
    """`model`, `self.encoder`, `net2`: a callee whose last name suggests a model."""
    return bool(MODEL_NAME.search(callee.rsplit(".", 1)[-1]))


def resolve(dotted_name: str, imports: Mapping[str, str]) -> str:
    head, _, rest = dotted_name.partition(".")
    target = imports.get(head) or CONVENTIONAL_ALIASES.get(head)
    if target is None:
        return dotted_name
    return f"{target}.{rest}" if rest else target


def last(resolved: str) -> str:
    return resolved.rsplit(".", 1)[-1]


def _torch_nn(resolved: str) -> str | None:
    """`Linear` for `torch.nn.Linear` / `torch.nn.modules.linear.Linear`, else None."""
    if resolved.startswith("torch.nn.") and not resolved.startswith("torch.nn.functional"):
        name = last(resolved)
        return name if name[:1].isupper() else None
    return None


# kind of loss -> how its (input, target) are read
LOSS_CLASSES = {
    "CrossEntropyLoss": "cross_entropy",
    "NLLLoss": "nll",
    "BCEWithLogitsLoss": "bce_logits",
    "BCELoss": "bce",
    "MSELoss": "mse",
    "L1Loss": "l1",
    "SmoothL1Loss": "smooth_l1",
    "HuberLoss": "huber",
    "KLDivLoss": "kl_div",
    "CTCLoss": "ctc",
    "PoissonNLLLoss": "poisson_nll",
    "GaussianNLLLoss": "gaussian_nll",
    "MultiLabelSoftMarginLoss": "multilabel_soft_margin",
    "MultiMarginLoss": "multi_margin",
    "SoftMarginLoss": "soft_margin",
    "MarginRankingLoss": "margin_ranking",
    "HingeEmbeddingLoss": "hinge_embedding",
    "CosineEmbeddingLoss": "cosine_embedding",
    "TripletMarginLoss": "triplet_margin",
}

LOSS_FUNCTIONS = {
    "cross_entropy": "cross_entropy",
    "nll_loss": "nll",
    "binary_cross_entropy_with_logits": "bce_logits",
    "binary_cross_entropy": "bce",
    "mse_loss": "mse",
    "l1_loss": "l1",
    "smooth_l1_loss": "smooth_l1",
    "huber_loss": "huber",
    "kl_div": "kl_div",
    "ctc_loss": "ctc",
    "poisson_nll_loss": "poisson_nll",
    "multilabel_soft_margin_loss": "multilabel_soft_margin",
    "soft_margin_loss": "soft_margin",
}

# Losses whose two arguments play the same role: a swap changes nothing.
SYMMETRIC_LOSSES = frozenset({"mse", "l1", "smooth_l1", "huber"})


def loss_class_kind(resolved: str) -> str | None:
    name = _torch_nn(resolved)
    return LOSS_CLASSES.get(name) if name else None


def loss_function_kind(resolved: str) -> str | None:
    if resolved.startswith("torch.nn.functional."):
        return LOSS_FUNCTIONS.get(last(resolved))
    return None


OPTIMIZER_NAMES = frozenset(
    {
        "SGD",
        "Adam",
        "AdamW",
        "RMSprop",
        "Adagrad",
        "Adadelta",
        "Adamax",
        "NAdam",
        "RAdam",
        "LBFGS",
        "SparseAdam",
        "ASGD",
        "Rprop",
        "Adafactor",
        "FusedAdam",
        "FusedLAMB",
        "Lamb",
        "LAMB",
        "Lion",
        "AdaBelief",
        "Ranger",
        "Adan",
        "Muon",
    }
)

SCHEDULER_NAMES = frozenset(
    {
        "StepLR",
        "MultiStepLR",
        "ExponentialLR",
        "CosineAnnealingLR",
        "ReduceLROnPlateau",
        "OneCycleLR",
        "CyclicLR",
        "LambdaLR",
        "MultiplicativeLR",
        "CosineAnnealingWarmRestarts",
        "LinearLR",
        "ConstantLR",
        "PolynomialLR",
        "SequentialLR",
        "ChainedScheduler",
        "get_linear_schedule_with_warmup",
        "get_cosine_schedule_with_warmup",
        "get_constant_schedule_with_warmup",
        "get_polynomial_decay_schedule_with_warmup",
        "get_scheduler",
    }
)

# Optimizers that rescale each gradient by its running magnitude: a uniformly scaled-down
# gradient (a tiny loss factor, a clip) changes their steps far less than SGD's.
ADAPTIVE_OPTIMIZERS = (
    "adam", "rmsprop", "adagrad", "adadelta", "nadam", "radam", "adamax", "adafactor", "lion",
)  # fmt: skip

# What names an evaluation: a function (`evaluate`, `Trainer.validate`), a split or a
# loader variable (`val_loader`, `test_set`). A tie-breaker only: what a run shows
# (grad mode, module.training, which batches reach backward) decides.
EVALUATION_WORDS = (
    "eval|evaluate|valid|validate|validation|val|test|dev|holdout|predict|infer|inference|calib"
)
EVALUATION_NAME = re.compile(rf"(^|[._])({EVALUATION_WORDS})", re.IGNORECASE)  # a qualname part
EVALUATION_TEXT = re.compile(rf"({EVALUATION_WORDS})", re.IGNORECASE)  # anywhere in a name
# `Dataset(root, train=False)`: the keyword says evaluation, whatever else "train" matches
TRAIN_FALSE = re.compile(r"\btrain\s*=\s*False\b")
TRAINING_TEXT = re.compile(r"train", re.IGNORECASE)

# Schedulers whose step counts epochs in their usual configuration: stepping them per
# batch decays the learning rate len(loader) times too fast.
PER_EPOCH_SCHEDULERS = frozenset({"StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR"})


def is_scheduler(resolved: str) -> bool:
    return "lr_scheduler." in resolved or last(resolved) in SCHEDULER_NAMES


def is_optimizer(resolved: str) -> bool:
    if is_scheduler(resolved):
        return False
    name = last(resolved)
    if resolved.startswith("torch.optim.") and name[:1].isupper() and name != "Optimizer":
        return True
    return name in OPTIMIZER_NAMES and "." in resolved


CLIPPING_FUNCTIONS = frozenset({"clip_grad_norm_", "clip_grad_norm", "clip_grad_value_"})


def is_data_loader(resolved: str) -> bool:
    return last(resolved) == "DataLoader"


def is_grad_scaler(resolved: str) -> bool:
    return last(resolved) == "GradScaler"


MODULE_BASE_SUFFIXES = ("LightningModule", "PreTrainedModel")


def is_torch_module_class(resolved: str) -> bool:
    """A torch.nn class (or a framework base) a repo class can inherit nn.Module from."""
    if _torch_nn(resolved) is not None and last(resolved) not in ("Parameter",):
        return True
    return last(resolved).endswith(MODULE_BASE_SUFFIXES)


def torch_layer(resolved: str) -> str | None:
    """`Linear` when resolved names a torch.nn module class (not a loss), else None."""
    name = _torch_nn(resolved)
    if name is None or name in LOSS_CLASSES or name == "Parameter":
        return None
    return name


# torch.nn classes that own parameters (a fresh one each call re-initializes them).
PARAMETERIZED_LAYERS = frozenset(
    {
        "Linear",
        "Bilinear",
        "LazyLinear",
        "Conv1d",
        "Conv2d",
        "Conv3d",
        "ConvTranspose1d",
        "ConvTranspose2d",
        "ConvTranspose3d",
        "LazyConv1d",
        "LazyConv2d",
        "LazyConv3d",
        "Embedding",
        "EmbeddingBag",
        "RNN",
        "LSTM",
        "GRU",
        "RNNCell",
        "LSTMCell",
        "GRUCell",
        "BatchNorm1d",
        "BatchNorm2d",
        "BatchNorm3d",
        "LayerNorm",
        "GroupNorm",
        "RMSNorm",
        "MultiheadAttention",
        "Transformer",
        "TransformerEncoder",
        "TransformerDecoder",
        "TransformerEncoderLayer",
        "TransformerDecoderLayer",
        "PReLU",
    }
)

CONTAINER_LAYERS = frozenset(
    {"Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"}
)

# Modules whose behaviour differs between train() and eval().
MODE_DEPENDENT_LAYERS = frozenset(
    {
        "Dropout",
        "Dropout1d",
        "Dropout2d",
        "Dropout3d",
        "AlphaDropout",
        "FeatureAlphaDropout",
        "BatchNorm1d",
        "BatchNorm2d",
        "BatchNorm3d",
        "SyncBatchNorm",
        "LazyBatchNorm1d",
        "LazyBatchNorm2d",
        "LazyBatchNorm3d",
    }
)

BATCHNORM_LAYERS = frozenset(
    {
        "BatchNorm1d",
        "BatchNorm2d",
        "BatchNorm3d",
        "SyncBatchNorm",
        "LazyBatchNorm1d",
        "LazyBatchNorm2d",
    }
)


def is_parameter_ctor(resolved: str) -> bool:
    return resolved in ("torch.nn.Parameter", "torch.nn.parameter.Parameter")


# Calls that compute gradients without `.backward()`: autograd's functional form, and
# torch.func transforms whose result, called, returns gradients (a functional training
# step: `grads, loss = grad_and_value(loss_fn)(params, x, y)`).
GRADIENT_CALLS = frozenset({"torch.autograd.backward", "torch.autograd.grad"})
GRADIENT_TRANSFORMS = frozenset(
    f"{pkg}.{fn}"
    for pkg in ("torch.func", "functorch")
    for fn in ("grad", "grad_and_value", "vjp", "jacrev", "jacfwd", "hessian")
)


def torch_function(resolved: str) -> str | None:
    """`softmax` for torch.softmax / torch.nn.functional.softmax / torch.special.softmax."""
    for prefix in ("torch.nn.functional.", "torch.special.", "torch."):
        if resolved.startswith(prefix):
            rest = resolved[len(prefix) :]
            if "." not in rest:
                return rest
    return None


# Calls that are never a repo helper or a model: resolving them would only cost time.
BUILTIN_CALLS = frozenset(
    {
        "len",
        "range",
        "print",
        "isinstance",
        "issubclass",
        "str",
        "int",
        "float",
        "bool",
        "list",
        "dict",
        "tuple",
        "set",
        "zip",
        "enumerate",
        "sum",
        "min",
        "max",
        "abs",
        "round",
        "sorted",
        "reversed",
        "getattr",
        "setattr",
        "hasattr",
        "super",
        "open",
        "type",
        "iter",
        "next",
        "map",
        "filter",
        "any",
        "all",
        "repr",
        "format",
        "id",
        "vars",
        "callable",
        "divmod",
        "pow",
    }
)
COMMON_METHODS = frozenset(
    {
        "view",
        "reshape",
        "size",
        "item",
        "tolist",
        "numpy",
        "append",
        "extend",
        "insert",
        "pop",
        "format",
        "join",
        "split",
        "strip",
        "replace",
        "startswith",
        "endswith",
        "lower",
        "upper",
        "get",
        "keys",
        "items",
        "values",
        "update",
        "setdefault",
        "copy",
        "to",
        "cuda",
        "cpu",
        "float",
        "long",
        "int",
        "half",
        "double",
        "bool",
        "sum",
        "mean",
        "std",
        "var",
        "max",
        "min",
        "argmax",
        "argmin",
        "numel",
        "dim",
        "detach",
        "clone",
        "unsqueeze",
        "squeeze",
        "permute",
        "transpose",
        "contiguous",
        "expand",
        "repeat",
        "flatten",
        "fill_",
        "zero_",
        "add_",
        "mul_",
        "copy_",
        "clamp",
        "abs",
        "exp",
        "log",
        "pow",
        "sqrt",
        "softmax",
        "log_softmax",
        "sigmoid",
        "tanh",
        "relu",
        "parameters",
        "named_parameters",
        "modules",
        "named_modules",
        "children",
        "state_dict",
        "load_state_dict",
        "register_buffer",
        "register_parameter",
        "apply",
        "requires_grad_",
        "type",
        "type_as",
        "new_zeros",
        "new_ones",
        "eq",
        "ne",
        "gt",
        "lt",
        "ge",
        "le",
        "any",
        "all",
        "nonzero",
        "masked_fill",
        "gather",
        "scatter",
        "index_select",
        "chunk",
        "cat",
        "stack",
        "read",
        "write",
        "close",
        "info",
        "debug",
        "warning",
        "error",
        "exists",
        "mkdir",
        "add_argument",
        "parse_args",
        "save",
        "load",
        "write_text",
        "read_text",
    }
)
