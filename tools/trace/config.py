"""Tracer configuration: budgets and the runtime interventions a caller may apply.

The parent process builds this as a plain dict (it crosses the process boundary as
JSON); `Config.from_dict` ignores unknown keys so an older tracer never crashes on a
newer caller.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields


@dataclass
class Interventions:
    """One change applied at run time, without editing the repo's files."""

    zero_grad_before_backward: bool = (
        False  # reset .grad of every tracked parameter before backward
    )
    defer_zero_grad: bool = (
        False  # drop zero_grad calls between backward and step; reset after step
    )
    force_train_mode: bool = False  # training forwards run with model.train()
    force_eval_mode_in_eval: bool = False  # no-grad forwards run with model.eval()
    strip_prob: bool = False  # give the loss the logits instead of softmax/sigmoid/relu output
    add_missing_params: bool = False  # add trainable parameters the optimizer lacks
    unfreeze_params: bool = False  # parameters an optimizer holds with requires_grad=False train
    # parameters a line of the program froze, that ran in the training forward and that no
    # optimizer holds: set to train and added to the first optimizer that steps
    train_left_out: bool = False
    fixed_batch: bool = False  # every training batch is the first one
    shuffle_targets: bool = False  # with fixed_batch: targets permuted against the inputs
    holdout: bool = False  # with fixed_batch: loss on an unseen batch after each update
    fixed_pool: int = 1  # with fixed_batch: the first N batches are replayed in turn
    reference_lr: float = 0.0  # > 0: every optimizer's update is Adam's at this lr instead
    # the top model's output replaced by a wide network's of the same input (reference_model.py)
    reference_model: bool = False
    lr_scale: float = 1.0
    weight_decay_scale: float = 1.0
    keep_graph: bool = False  # detach/.data inside the training forward keep the graph
    no_clip: bool = False  # clip_grad_norm_/clip_grad_value_ measure but do not clip
    no_clamp: bool = False  # clamp/clip on the gradient's path pass their input through
    clip_to: float = 0.0  # > 0: clip_grad_norm_ clips at this norm instead of the program's
    standardize_inputs: bool = False  # float model inputs standardized per feature
    # evaluation inputs moved, per feature, to the training inputs' mean and std
    align_eval_inputs: bool = False
    # each evaluation row (a sample, or one channel of it) given the training rows' mean
    # and spread
    align_eval_rows: bool = False
    swap_loss_args: bool = False  # loss(a, b) called as loss(b, a)
    fix_broadcast: bool = False  # loss input reshaped to the target's shape when they broadcast
    step_after_backward: bool = False  # optimizer.step() after each backward when none followed
    shuffle_loader: bool = False  # training DataLoaders iterate in random order
    # "file:line,...": the shuffling evaluation DataLoaders built there iterate in order
    ordered_eval_loaders: str = ""
    gather_renormalized: bool = False  # a gather across a softmax's axis renormalizes first
    # "file:line:dim": the softmax called on that line normalizes over that axis instead
    softmax_dim_at: str = ""
    rejoin_cuts: bool = False  # a number cut from the graph and used again gets its tensor back
    reshape_as_permute: bool = False  # a reshape inside forward to a permuted shape permutes
    reinit_params: bool = (
        False  # re-initialize parameters with default PyTorch init at first forward
    )
    reseed: int = 0  # > 0: the run's seeds and the program's own seed calls shifted by this
    # "axis:p,q": next-token targets the training loss ignores at those positions along
    # that axis get the input's next token there (read_positions.py)
    score_positions: str = ""
    # training index losses that ignore a class the model has an output channel for
    # (ignore_index in [0, C)) score it: ignore_index -100 instead
    unignore_class: bool = False
    # "file:line:i:j": that call of a repo helper noted in the run's own copy (call_note.py)
    note_call: str = ""
    swap_call: bool = False  # with note_call: its arguments i and j in each other's places
    # "file:line:i:j": that loss helper's gradient set beside finite differences (grad_check.py)
    grad_check: str = ""

    def active(self) -> list[str]:
        out = []
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bool) and v:
                out.append(f.name)
            elif not isinstance(v, bool) and v != f.default:
                out.append(f"{f.name}={v}")
        return out

    def act_on_ops(self) -> bool:
        """Interventions that act on ops before the loss: they need every training op."""
        return any(
            (
                self.strip_prob,
                self.keep_graph,
                self.reshape_as_permute,
                self.rejoin_cuts,
                self.gather_renormalized,
            )
        )


@dataclass
class Config:
    argv: list[str] = field(default_factory=list)
    # commands that run after `argv` in the same traced process, as its chain runs them
    # (`python train.py && python evaluate.py`): each only once the one before it ended
    then: list[list[str]] = field(default_factory=list)
    out: str = "trace.json"
    max_steps: int = 300  # optimizer steps traced before fast-forward
    detail_steps: int = 25  # steps with per-parameter detail and graph walks
    max_total_steps: int = 1500  # hard stop (steps, or backward calls without steps)
    max_forwards: int = 20000  # hard stop on forwards (scripts with no optimizer)
    max_wall_s: float = 90.0  # tracer's own wall budget (the sandbox has a hard one too)
    fast_forward: bool = True  # after max_steps: 1 batch per training epoch, keep evaluating
    eval_batches: int = 25  # evaluation batches per pass once fast-forwarding
    seed: int | None = 0  # seeds torch/random/numpy before the program runs
    map_cuda: bool = True  # .cuda()/"cuda" run on the CPU when no GPU exists
    trace: bool = True  # False: run untraced (benchmark baseline), only the loss curve
    probes: bool = True  # per-sample independence / input dependence at the first forward
    train_loader: str | None = None
    probe_code: str | None = (
        None  # a snippet to run after the first step (tools/trace/user_probe.py)  # creation site "file:line" of the training DataLoader
    )
    # `file:line:i:j` calls of an evaluation helper probed with a perfect prediction
    metric_calls: list[str] = field(default_factory=list)
    progress_out: str | None = None  # where to keep {"steps", "forwards", "phase"} up to date
    progress_interval_s: float = 0.5  # at most one progress write per this much wall time
    interventions: Interventions = field(default_factory=Interventions)

    @classmethod
    def from_dict(cls, d: dict) -> Config:
        known = {f.name for f in fields(cls)}
        kw = {k: v for k, v in d.items() if k in known and k != "interventions"}
        iv = d.get("interventions") or {}
        iv_known = {f.name for f in fields(Interventions)}
        kw["interventions"] = Interventions(**{k: v for k, v in iv.items() if k in iv_known})
        return cls(**kw)
