"""The records a trace is made of: one pydantic model per kind of event the tracer writes
(sections the checks read as plain dicts are TypedDicts in sections.py), held by `Trace`."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import NotRequired, TypedDict


class TraceRecord(BaseModel):
    model_config = ConfigDict(extra="ignore")


class Frame(TraceRecord):
    file: str
    line: int
    function: str = ""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


class TensorSummary(TraceRecord):
    shape: list[int] = Field(default_factory=list)
    dtype: str = ""
    nonfinite: int = 0
    min: float | None = None
    max: float | None = None
    mean: float | None = None
    std: float | None = None
    values: dict[str, int] | None = None  # histogram when few distinct values


class Provenance(TraceRecord):
    op: str
    frame: Frame | None = None
    dim: int | None = None
    # a module's forward was running when the op ran (False: applied to a forward's output
    # outside it, by the loop or a helper such as predict_proba; None: an older trace)
    in_forward: bool | None = None


class LossOperand(TensorSummary):
    provenance: Provenance | None = None
    requires_grad: bool = False
    grad_fn: str | None = None
    model_output: bool = False
    from_batch: bool = False
    made_in_code: bool = False  # built from constants by the program (torch.full labels)
    # computed from a model's output (bootstrapped TD targets, a teacher's soft targets,
    # pseudo-labels): a target with no fixed answer
    from_model: bool = False
    rows_sum_to_one: float | None = None  # fraction of rows that are probability vectors
    rows_exp_sum_to_one: float | None = None  # fraction of rows that are log-probabilities
    in_unit_interval: bool | None = None


class LossCall(TraceRecord):
    fn: str
    frame: Frame | None = None
    phase: str | None = None
    grad_enabled: bool = True
    input: LossOperand
    input_forward: int | None = None  # the index of the forward that produced the input
    target: LossOperand
    reduction: str | None = "mean"
    ignore_index: int | None = None
    # the ignored value ends every sequence of the unflattened targets, as padding does
    ignored_tail: bool | None = None
    contributing_values: list[float] | None = None
    broadcast_shape: list[int] | None = None
    total_elements: int = 0
    contributing_elements: int = 0
    interventions: list[str] = Field(default_factory=list)
    step: int = 0
    mask: LossMask | None = None
    module_frame: Frame | None = None  # where the loss module was built, when one was called
    value: float | str | None = None
    output_grad_fn: str | None = None


class LossSite(TraceRecord):
    fn: str
    frame: Frame | None = None
    calls: int = 0
    grad_calls: int = 0
    nograd_calls: int = 0
    nonfinite: int = 0


class OtherModeSubmodule(TypedDict):
    """A submodule whose train/eval flag differs from its model's."""

    path: str
    type: str
    training: bool


class Forward(TraceRecord):
    index: int
    model: str
    frame: Frame | None = None
    caller: Frame | None = None  # a no-grad forward's caller of the function holding it
    # a no-grad forward in train mode: where the program last switched another model to eval
    other_switched: Frame | None = None
    # an evaluation in train mode: the line that switched this model to train mode with
    # no backward since (a helper meant to switch it to eval)
    train_switched: Frame | None = None
    training: bool
    grad_enabled: bool
    phase: str | None = None
    step: int = 0
    inputs: list[TensorSummary] = Field(default_factory=list)
    outputs: list[list[int]] = Field(default_factory=list)
    loader: str | None = None
    other_mode: list[OtherModeSubmodule] = Field(default_factory=list)
    fed_by: int | None = None  # the index of the forward whose output this one received
    fed_grad: bool = False  # its first input carries gradient (back to the model that made it)
    # some part computes differently in train and eval mode (dropout, batch statistics,
    # a forward reading self.training); None: not recorded
    mode_layers: bool | None = None
    # an op of the program read its output (False: discarded, as a forward run only to
    # refresh BatchNorm statistics is, `torch.optim.swa_utils.update_bn`)
    output_read: bool = True


class GradStats(TraceRecord):
    observed: int = 0
    none: int = 0
    zero: int = 0
    nonfinite: int = 0
    mean_norm: float | None = None
    max_norm: float | None = None
    left_over_before_backward: int = 0


class UpdateStats(TraceRecord):
    observed: int = 0
    zero: int = 0
    mean_norm: float | None = None
    mean_ratio: float | None = None


class GraphStats(TraceRecord):
    walks: int = 0
    reachable: int = 0


class Parameter(TraceRecord):
    name: str
    shape: list[int]
    numel: int
    requires_grad: bool
    requires_grad_at_start: bool = True
    is_leaf: bool = True
    registered: bool  # in parameters() of a model called from the loop
    executed: bool  # its module ran in a training forward
    module_class: str = ""
    module_created: Frame | None = None
    created_in_forward: bool = False
    in_optimizer: bool
    optimizer: int | None = None
    grad: GradStats = Field(default_factory=GradStats)
    update: UpdateStats = Field(default_factory=UpdateStats)
    weight_norm_start: float | None = None
    weight_norm_end: float | None = None
    graph: GraphStats = Field(default_factory=GraphStats)
    frozen_steps: int = 0
    frozen_at: Frame | None = None  # the program's line that froze it (requires_grad_(False))
    reached: bool = False  # a leaf the training loss reached: a parameter, module or not
    # backwards whose graph fed it through the same node object as the previous one: the
    # forward uses a copy made once (e.g. `w.to(dtype)` before the loop) that its updates
    # never reach
    stale_steps: int = 0
    ran_without_grad: bool = False  # its module ran with grad off inside a training forward
    stale_frame: Frame | None = None  # where the copy the forward keeps using was made
    init_frame: Frame | None = None  # the last in-place write before training (its init)


class ParamGroup(TraceRecord):
    lr: float | None = None
    weight_decay: float | None = None
    momentum: float | None = None
    n_params: int = 0
    params: list[str] = Field(default_factory=list)


class OptimizerInfo(TraceRecord):
    index: int
    class_: str = Field(alias="class")
    frame: Frame | None = None
    steps: int = 0
    param_groups: list[ParamGroup] = Field(default_factory=list)


class SchedulerInfo(TraceRecord):
    class_: str = Field(alias="class")
    frame: Frame | None = None
    step_frame: Frame | None = None
    # False: a framework calls step() (step_frame is then only the program's way into it)
    stepped_by_program: bool = True
    steps: int = 0
    before_first_optimizer_step: int = 0
    lr_after: list[float | None] = Field(default_factory=list)
    # program line ("file:line") -> the steps it made (tools/trace/hooks/scheduler.py)
    step_sites: dict[str, int] = Field(default_factory=dict)


class LoaderInfo(TraceRecord):
    site: str
    frame: Frame | None = None
    batch_size: int | None = None
    shuffle: bool = False
    sampler: str = ""
    batch_sampler: str = ""  # the program's own batch sampler class (it orders the rows)
    drop_last: bool = False
    dataset_len: int | None = None
    dataset_class: str = ""  # the dataset's class (a repo class pairs inputs and targets)
    num_workers: int = 0
    batches: int = 0
    iterations: int = 0
    role: str | None = None


class Backward(TraceRecord):
    index: int
    step: int
    frame: Frame | None = None
    value: float | str | None = None
    shape: list[int] = Field(default_factory=list)
    requires_grad: bool = True
    is_leaf: bool = False
    grad_fn: str | None = None
    broadcast_in_graph: str | None = None
    graph_nodes: int = 0
    reachable: list[str] = Field(default_factory=list)
    unreachable_executed: list[str] = Field(default_factory=list)
    nonparam_leaves: int = 0
    left_over: list[str] = Field(default_factory=list)
    zero_grad_since_last_step: bool = False
    backward_in_iteration: int = 1
    in_step: bool = False  # inside optimizer.step(closure): a closure evaluation
    updates_before: int = 0  # optimizer steps and hand-written updates before this backward


class Step(TraceRecord):
    index: int
    optimizer: str
    frame: Frame | None = None
    lr: list[float | None] = Field(default_factory=list)
    n_params: int = 0
    params_with_grad: int = 0
    unchanged: list[str] = Field(default_factory=list)
    backwards_since_last_step: int = 0
    zero_grad_since_last_step: bool = False


class Clip(TraceRecord):
    kind: str
    frame: Frame | None = None
    limit: float
    calls: int = 0
    clipped: int = 0
    n_params_min: int = 0
    totals: list[float | None] = Field(default_factory=list)
    optimizer: int | None = None  # index of the optimizer holding the clipped parameters


class OpSite(TraceRecord):
    """An op observation aggregated by kind and source line (broadcast, batch_dim, detach, ...)."""

    kind: str
    frame: Frame | None = None
    count: int = 0
    phases: dict[str, int] = Field(default_factory=dict)
    op: str | None = None
    shapes: list[list[int]] | list[int] | None = None
    out_shape: list[int] | None = None
    shape: list[int] | None = None
    dim: int | None = None
    implicit: bool | None = None
    in_forward: bool = False
    model_output: bool = False
    roles: list[str] | None = None  # broadcast: each operand a prediction, a batch tensor or other
    deliberate: bool | None = None  # broadcast: the program added the unit axes that broadcast
    cut: Frame | None = None  # reentered_cut: where the number was cut from its tensor
    empty: int | None = None  # mask_product: calls whose boolean mask kept no element
    kept: int | None = None  # mask_product: elements kept, summed over the calls
    total: int | None = None  # mask_product: elements, summed over the calls
    source: Frame | None = None  # renormalized: where the softmax made the probabilities
    source_in_forward: bool | None = None  # renormalized: a forward of the program made them
    caller: Frame | None = None  # renormalized: the line that called the function holding the op
    row_sum: float | None = None  # soft_target_axis: the targets' mean row sum on the class axis
    source_dim: int | None = None  # soft_target_axis: the axis the targets' softmax normalized
    reaches: list[str] | None = None  # a graph cut: the parameters its graph reached (first call)
    threshold: float | None = None  # saturated_compare: the constant compared with


class NogradTerm(TraceRecord):
    """A loss on the output of a model forward made with grad off, added to a backward'ed
    loss: it counts in the loss's value and trains nothing."""

    forward: Frame | None = None  # the line that called the model with grad off
    loss: Frame | None = None  # the loss call on its output
    parameters: list[str] = Field(default_factory=list)  # the model's (names as Parameter's)


class CreatedInForward(TraceRecord):
    frame: Frame | None = None
    count: int = 0
    shapes: list[list[int]] = Field(default_factory=list)


class BatchNormUse(TraceRecord):
    module: str
    frame: Frame | None = None
    calls: int = 0
    min_batch: int | None = None
    min_values_per_channel: int | None = None


class DropoutInEval(TraceRecord):
    frame: Frame | None = None
    dropout_p: float = 0.0
    calls_in_eval: int = 0
    calls: int = 0
    functional_dropout: bool = False


class AttrTensor(TraceRecord):
    module: str
    attribute: str
    shape: list[int] = Field(default_factory=list)
    is_leaf: bool = True
    grad_fn: str | None = None
    module_created: Frame | None = None


class Activation(TraceRecord):
    kind: str
    frame: Frame | None = None
    calls: int = 0
    inactive: float = 0.0
    dead_units: float = 0.0
    first_dead: float = 0.0  # at the first call: dead from initialization
    first_inactive: float = 0.0
    first_step: int = 0  # the optimizer step of the first call


class LossTerm(TraceRecord):
    source: str  # `file:line` that computed the term, "?" when unknown
    values: list[tuple[int, float | None]] = Field(default_factory=list)  # (step, signed value)
    log_prob: bool = False  # a log-probability (never above zero) added with a plus sign


class LossTermSum(TraceRecord):
    """Terms added into one training loss at `frame`: scalars, or per-sample vectors (their
    mean) added outside any forward (tools/trace/ops.py)."""

    frame: Frame | None = None
    terms: list[LossTerm] = Field(default_factory=list)


class LossMask(TypedDict):
    """A boolean-mask selection of the loss target, or a 0/1 mask multiplied into an
    element-wise loss: how many elements it keeps, the target values in the batch and the
    target values of the kept elements (None when there are too many to list)."""

    kept: int
    total: int
    source_values: list[float] | None
    kept_values: list[float] | None
    # the model's input per element, one feature vector each (tools/trace/filled_rows.py)
    kept_filled: NotRequired[int]  # kept elements whose input is the kept ones' commonest
    dropped_filled: NotRequired[int]  # dropped elements whose input is that same vector
    target_in_input: NotRequired[bool]  # an input channel equals every dropped target
    varies: NotRequired[bool]  # the mask differs between samples


class BatchSummary(TypedDict):
    tensors: list[TensorSummary]


class Moments(TraceRecord):
    n: int
    mean: list[float]
    std: list[float]


class TargetStats(TraceRecord):
    batches: int = 0
    values: dict[str, int] | None = None
    min: float | None = None
    max: float | None = None


class EvalBatch(TraceRecord):
    site: str
    rows: int = 0  # distinct rows in the batch
    overlap: int = 0  # of those, rows also seen in training
    step: int = 0  # training steps taken when the batch was evaluated
    module_train_rows: int = 0  # distinct training rows the evaluated module received
    holds_train_rows: int = 0  # of those, rows this batch holds
    batch_rows: int = 0  # the batch's rows, of which the first `fingerprinted` were
    fingerprinted: int = 0


class TargetOrder(TraceRecord):
    """Training loss targets compared with the DataLoader batch they came from, while the
    model's input was that batch's input unchanged (tools/trace/target_order.py)."""

    compared: int = 0
    reordered: int = 0  # the same values at other positions
    moved: float | None = None  # mean share of positions whose value moved
    frame: Frame | None = None  # the first loss call that saw reordered targets


class CodeTargets(TraceRecord):
    """Per-row targets by the integer codes of the same batch, for one loader
    (tools/trace/hooks/loader.py code_targets)."""

    site: str
    role: str | None = None  # the loader's phase: train or eval
    target_index: int  # the target's position in the loader's batch
    columns: list[dict[str, list[float]]] = Field(default_factory=list)  # code -> [n, sum, sum sq]


class PassRows(TraceRecord):
    site: str
    drawn: int = 0  # rows drawn in the pass
    unique: int = 0  # distinct rows among them


class Batches(TraceRecord):
    train: list[BatchSummary] = Field(default_factory=list)
    eval: list[BatchSummary] = Field(default_factory=list)
    moments: dict[str, dict[str, Moments | None]] = Field(
        default_factory=dict
    )  # model -> phase -> moments
    # model -> evaluation call site (file:line of the forward) -> moments of its inputs
    eval_site_moments: dict[str, dict[str, Moments | None]] = Field(default_factory=dict)
    train_fingerprints: int = 0
    eval_fingerprints: int = 0
    train_unique: int = 0
    eval_unique: int = 0
    overlap: int = 0
    self_supervised_overlap: int = 0  # left out of overlap: see tools/trace/loss_rows.py
    transformed_overlap: int = 0  # left out of overlap: equal only to transformed rows
    eval_batches: list[EvalBatch] = Field(default_factory=list)
    eval_first_pass: PassRows | None = None
    targets: dict[str, TargetStats] = Field(default_factory=dict)
    target_values_per_batch: list[dict[str, int]] = Field(default_factory=list)
    target_means_per_batch: list[float] = Field(default_factory=list)
    # the loss call (`file:line`) of each histogram, of each mean: a GAN's constant real
    # and fake labels are streams of their own, not one label stream in class order
    target_sites_per_batch: list[str] = Field(default_factory=list)
    target_mean_sites: list[str] = Field(default_factory=list)
    target_one_per_row: bool | None = None  # one value per row (None: an older trace)

    def target_streams(self) -> list[list[dict[str, int]]]:
        """The training targets' per-batch histograms, one list per loss call site (one
        list in all for a trace without sites), the longest first."""
        hists, sites = self.target_values_per_batch, self.target_sites_per_batch
        if len(sites) != len(hists):
            return [hists] if hists else []
        streams: dict[str, list[dict[str, int]]] = {}
        for h, site in zip(hists, sites, strict=True):
            streams.setdefault(site, []).append(h)
        return sorted(streams.values(), key=len, reverse=True)

    column_target_corr: dict[str, float] = Field(default_factory=dict)
    # input columns equal to the target, row for row, in every training batch compared
    columns_equal_target: list[int] = Field(default_factory=list)
    target_compared_columns: int = 0  # training batches compared column by column
    # input columns an exact affine function of a real-valued target in every batch compared
    columns_affine_target: list[int] = Field(default_factory=list)
    # a target of several values per row: for each of its columns, the input column equal
    # to it in every training batch compared ([] when some has none), and the batches
    target_block_equal: list[int] = Field(default_factory=list)
    target_block_compared: int = 0
    # batches whose target some input columns reproduce exactly (tools/trace/batches.py)
    target_linear_exact: int = 0
    target_linear_compared: int = 0


class ModelInfo(TraceRecord):
    class_: str = Field(alias="class")
    frame: Frame | None = None
    n_params: int = 0
    training_at_end: bool = True
    has_dropout: bool = False
    has_batchnorm: bool = False
    module_types: dict[str, int] = Field(default_factory=dict)


class ErrorInfo(TraceRecord):
    type: str
    message: str = ""
    frames: list[Frame] = Field(default_factory=list)
    repo_frame: Frame | None = None
