"""The trace being recorded: bounded state that hooks update and `finish` serializes.

Invariants
- `busy` is True while tracer code runs tensor ops, so the function mode and the
  module hooks ignore the tracer's own work.
- Per-parameter detail, graph walks and batch statistics are recorded only for the
  first `detail_steps` optimizer steps; counters and the loss curve for the whole run.
- Everything is keyed by object id while running and named at `finish`, because
  layers can be swapped during a run (names come from the final model).
- Every attribute is declared here; hooks and interventions only update them. Past the
  budget a chain with more commands goes on untraced (status "budget").
"""

from __future__ import annotations

import time
from collections import Counter
from contextlib import contextmanager

import torch

from .batches import BatchStats
from .config import Config
from .freeze_log import FreezeLog
from .interventions.state import InterventionState
from .params import ParamRec
from .progress import ProgressFile
from .read_positions import PositionLog
from .tensors import frame_dict, frame_key

FORMAT_VERSION = 1
MAX_EVENTS = 400  # per list of detailed records
MAX_CURVE = 5000
MAX_ITERATION_EVENTS = 64  # calls kept in one iteration's order
MAX_REPEATED_EVENTS = 48  # of them forwards and loss calls


class StopTracing(BaseException):
    """Ends the program once the budget is spent (a BaseException: no `except Exception`)."""


MAX_FINAL_EVAL_OPS = 20_000  # evaluation ops observed after the step budget, at most
# a run not evaluated by the step cap goes on, up to this many times the cap, until it is
EVAL_WAIT = 4


class Recorder:
    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.iv = cfg.interventions
        self.iv_state = InterventionState(level="loader" if cfg.train_loader else "forward")
        self.t0 = time.perf_counter()
        self.progress = ProgressFile(cfg.progress_out, cfg.progress_interval_s)
        self.busy, self.status = False, "running"
        self.stop_reason = ""
        self.error: dict | None = None
        self.fast_forward = False
        self.window_in_fast_forward = False  # the open detail window began while fast-forwarding
        self.final_eval_ops = 0  # evaluation ops observed after the step budget
        self.sort_orders: dict = {}  # (file, function) -> role -> (descending, frame)
        self.detail_until = cfg.detail_steps
        self.windows = 0
        self.detail_windows: list[dict] = []
        # parameter changes between consecutive backward calls (updates by any means)
        self.param_checksum: dict[int, float] | None = None  # parameter id -> sum
        # plain leaves a loss reached once (id -> weak reference, consumer node): a
        # parameter when a later backward reaches the same tensor again; a leaf made
        # afresh each iteration (`torch.tensor(total, requires_grad=True)`, an input
        # that asks for its gradient) never is, and is not kept alive
        self.leaves_seen_once: dict[int, tuple] = {}
        self.transient_leaves = 0
        # target order (target_order.py): the training batch as the DataLoader gave it
        self.loader_batch: list | None = None
        self.input_as_loaded: int | bool | None = None
        self.gather_key: object = None  # the index of the last `X[idx]` outside a model
        self.gather_rows: list = []
        self.target_order = {"compared": 0, "reordered": 0, "moved_sum": 0.0, "frame": None}
        # the tensors the last training forward received: a loss target equal to one of
        # them is the input itself (target_order.target_against_input)
        self.received: list = []
        self.received_call: tuple | None = None  # (module, args, kwargs) of that forward
        self.future: dict | None = None  # tools/trace/future.py, at the first next-token target
        # token_layout.py: storage -> (shape, line) of its last layouts before training;
        # the neighbouring ids of next-token batches along their time axis and across it
        self.layout_sites: dict[int, list] = {}
        self.neighbours: dict = {
            "batches": 0,
            "time_axis": None,
            "layout": None,
            "along": [],
            "across": [],
        }
        self.class_streams: dict[str, dict] = {}  # tools/trace/class_stream.py, per loss site
        self.class_site_calls: dict[str, int] = {}  # loss calls per site since the last backward
        self.target_is_input = {
            "compared": 0, "equal": 0, "frame": None, "reconstructed": 0, "shifted": 0,
            "skipped": 0, "skip": 0, "skip_frame": None, "rows_moved": 0, "row_offset": 0,
            "scored": 0, "padded": 0, "pad_values": [], "pad_frame": None, "rows_frame": None,
        }  # fmt: skip
        self.update_intervals = {"observed": 0, "changed": 0, "nonfinite": 0}
        self.positions = PositionLog()  # read_positions.py: scored in training, read in eval

        # models and parameters
        self.models: dict[int, torch.nn.Module] = {}  # top-level modules called from the loop
        self.mode_dependent: dict[int, bool] = {}  # module id -> computes differently by mode
        self.mode_off: dict[int, tuple[str, int, str]] = {}  # module id -> last eval switch line
        self.eval_lines: set[tuple[str, int]] = set()  # every program line that switched to eval
        # module id -> (the program's line that last switched it to train mode, the number
        # of backwards by then): a switch with no backward since belongs to what follows
        self.mode_on: dict[int, tuple[tuple[str, int, str], int]] = {}
        self.frozen_at: dict[int, tuple[str, int, str]] = {}  # tensor id -> line that froze it
        self.freezes = FreezeLog()  # requires_grad_ calls as call paths (freeze_log.py)
        self.model_frames: dict[int, tuple] = {}
        self.executed: dict[int, torch.nn.Module] = {}
        self.params: dict[int, ParamRec] = {}
        self.registered_before: dict[int, torch.nn.Parameter] = {}  # in parameters() at a step
        self.optimizers: dict[int, torch.optim.Optimizer] = {}
        self.optimizer_frames: dict[int, tuple] = {}
        self.optimizer_steps: Counter = Counter()
        self.schedulers: dict[int, dict] = {}
        self.loaders: dict[str, dict] = {}  # by creation site
        self.subsets: dict[str, tuple] = {}  # loader site -> (base dataset, sample indices)

        # counters and curves
        self.counts: Counter = Counter()
        self.losses: list[float] = []  # value of every backward'ed tensor
        self.step_losses: list[float] = []  # last backward value before each step
        self.step_optimizers: list[int] = []  # which optimizer took each step (its index)
        self.lrs: list[list[float]] = []  # per step, per group
        self.events: list[list[str]] = [[]]  # call order per iteration (detailed)
        self.event_frames: dict[str, dict] = {}  # first frame per event kind
        self.zero_grad_since_step = False
        self.backward_since_step = 0
        self.own_backwards: dict[int, int] = {}  # optimizer id -> backwards since its step
        self.own_zeroed: set[int] = set()  # optimizers zeroed since the last backward
        self.last_backward_value: float | None = None

        # detailed records
        self.forwards: list[dict] = []
        self.pending: list[tuple[dict, object]] = []  # (forward or loss record, output grad_fn)
        self.loss_calls: list[dict] = []
        self.loss_sites: dict[str, dict] = {}
        self.difference_sites: dict[str, dict] = {}  # losses written by hand (`pred - y`)
        # tools/trace/difference_mask.py: masks multiplied into them, per difference site;
        # the difference awaiting its result; keys of rows cut by hand that a model received
        self.difference_masks: dict[str, dict] = {}
        self.pending_difference: tuple | None = None
        self.fed_rows_keys: set = set()
        self.backwards: list[dict] = []
        self.steps: list[dict] = []
        self.step_snapshot: dict[int, torch.Tensor] | None = None  # weights before a step
        self.clips: dict[str, dict] = {}
        self.ops: dict[str, dict] = {}  # broadcasts, dims, detaches, ... aggregated by kind+site
        self.created_in_forward: dict[str, dict] = {}
        self.bn_calls: dict[str, dict] = {}
        self.sdpa: dict[str, dict] = {}
        self.attr_tensors: dict[str, dict] = {}
        self.submodule_modes: dict[str, dict] = {}
        self.warnings: list[dict] = []
        self.probes: dict[str, dict] = {}
        self.holdout_losses: list[float] = []
        self.eval_losses: list[list] = []  # [steps so far, site, value], the whole run's
        self.eval_loss_rows: list[int] = []  # the rows of each of those calls' target
        self.eval_errors: list[list] = []  # [steps, sum of |prediction - target|, elements]
        self.call_fit: list[float] = []  # call_note.py: the noted call's prediction vs target
        self.grad_checks: list[list[float]] = []  # grad_check.py: [loss, fd^2, miss^2]
        # [steps, sum of |target - its median|, elements]: the same calls' best constant
        self.eval_error_levels: list[list] = []
        self.eval_outside: dict | None = None  # the first comparison with values no label takes
        # eval_matches.py: label values of all comparisons; per pass, the predictions' values
        # and the label counts of the first pass (its optimizer steps so far)
        self.eval_values: dict = {
            "labels": set(),
            "passes": {},
            "first_labels": {},
            "first_step": None,
        }
        self.eval_matches: list[list] = []  # eval_matches.py: [steps, matched, compared]
        self.eval_order: dict[str, dict] = {}  # eval_order.py: per shuffling loader, its pass
        self.last_nograd_step: int | None = None  # optimizer steps at the last no-grad model call
        self.last_output_eval = False  # the last model output came from an evaluation forward
        # train_rows.py: what training batches were cut from (tensor ids and shapes) or
        # loaded by (loader sites), and whether the last evaluation forward scored them
        self.train_sources: set[tuple] = set()
        self.train_loaders: set[str] = set()
        self.loader_tensors: dict[str, set[tuple]] = {}  # site -> its TensorDataset's tensors
        self.eval_scores_train = False
        # loader site -> (its builder's caller, the instruction there) of the first loader
        # built at it; site -> further calls on one line (hooks/loader.py: _own_site)
        self.loader_callers: dict[str, tuple] = {}
        self.loader_calls: dict[str, list] = {}
        self.loader_points: dict[str, list] = {}  # site -> loaders built on its one line
        self.class_axes: set[int] = set()
        self.train_correct: list[list] = []  # [steps, rows right, rows] of training batches
        self.backwards_at_cap: int | None = (
            None  # _evaluated: backwards when the cap was met  # the class-axis sizes of training class-index losses
        )
        self.activations: dict[str, dict] = {}
        # scalar terms added into a training loss (ops.loss_term): site -> the line of
        # the sum, and each term's values by the line that computed it
        self.loss_terms: dict[str, dict] = {}
        # numbers cut from scalars that carry gradient this step (interventions/reentry.py)
        self.cut_values: dict[float, tuple] = {}
        self.loss_sources: list[str] = []  # `file:line` of the op that made each loss backward'ed
        self.cut_terms: list[dict] = []  # lines of values detached in the forward a loss adds
        # losses on no-grad forwards' outputs a backward'ed loss adds: {forward, loss} lines
        self.nograd_terms: list[dict] = []
        self.number_terms: dict[str, list[float]] = {}  # file:line -> values a loss added
        self.log_prob_losses: list[str] = []  # of those, the losses that are log-probabilities
        # loader site -> batch position of a per-row target -> per code column: code ->
        # [count, sum, sum of squares] of the targets (hooks/loader.py code_targets)
        self.code_targets: dict[str, dict[int, list[dict]]] = {}
        self.activation_calls: dict[str, int] = {}  # per forward: calls of each activation line

        # batches per phase
        self.batches = BatchStats()
        self.fw_by_index: dict[int, dict] = {}
        # full-graph training: rows of a forward's output a loss reads by index
        # (tools/trace/indexed_rows.py), per input for training, per pass for evaluation
        self.indexed_train: dict[str, set[int]] = {}
        self.indexed_eval: list[dict] = []
        self.indexed_train_site: dict[str, str] = {}  # the training loss call that read them
        self.indexed_train_born: dict = {}  # the line that made the training rows' index tensor
        self.fw_read: set[int] = set()  # forwards whose output an op of the program read
        # module.training of every forward a backward directly follows, the whole run's
        self.last_grad_forward: tuple[bool, int, tuple | None] | None = None
        self.train_mode_counts: dict = {
            "train": 0,
            "eval": 0,
            "first_eval": None,
            "back_to_train": 0,
        }
        self.switched_off: set[int] = set()  # modules some call switched to eval mode
        self.pending_nograd: list[dict] = []  # no-grad forwards whose phase a consumer decides
        self.init_stats: list[dict] = []
        self.init_module: torch.nn.Module | None = None  # the model init_stats describe
        # id(parameter) -> the frame of the last in-place write before the first step
        self.init_sites: dict[int, object] = {}
        # a normalization layer the batch goes through as is: {"module", "frame"}
        self.input_normalizer: dict | None = None

        # where the program is: the call stack of module forwards as (module, role), role
        # "model" | "sub" | "other"; the loader and the recorded forward being consumed
        self.stack: list[tuple[torch.nn.Module, str]] = []
        self.batch_size: int | None = None  # first dimension of the last model input
        self.last_input: torch.Tensor | None = None
        self.between_forward_and_backward = False
        self.first_train_forward_done = False
        self.current_loader: str | None = None
        self.current_forward: dict | None = None
        self.top_grad_enabled = True  # grad mode at the last top-level model call
        self.in_backward = False
        self.sched_init = 0  # > 0 inside a scheduler's constructor (its initial step)
        self.step_mode_off: object | None = None  # DisableTorchFunction during a step
        # inside optimizer.step(): a closure's forward/loss/backward (LBFGS, Lightning's
        # automatic optimization) belong to that step, not to iterations of their own
        self.in_step = False
        # id(grad_fn) of a copy of a trainable leaf -> (grad_fn, frame of the copy)
        self.copy_sites: dict[int, tuple] = {}

        # for the user probe and the held-out loss
        self.first_batch: tuple | None = None  # (args, kwargs) of the first training forward
        self.first_model = None  # the module that received `first_batch`
        self.first_target = None
        self.loss_fn: tuple | None = None  # (func, kwargs, extra args) of the first training loss
        # shadow_eval.py: the training target's position in its loader's batch, the batch
        # the current loader gave last, and [steps, loss sum, rows] per evaluation forward
        self.target_pos: int | None = None
        self.current_batch: list | None = None
        self.shadow_eval: list[list] = []
        self.shadow_correct: list[list] = []  # [steps, rows classified right, rows]
        # eval_matches.py: [steps, matches one value up, one value down, compared] per `==`
        self.eval_shifted: list[list] = []
        self.eval_shift_frame: dict | None = None  # the first such comparison
        self.eval_rounded: list[list] = []  # [steps, matches rounded, compared, cast frame]
        # metric_probe.py: per probed call site, [as called, perfect, perfectly wrong]
        self.metric_probes: dict[str, list] = {}
        # metric_probe.py: per call site, [steps, value] of every call (the program's metric)
        self.metric_values: dict[str, list] = {}
        # (file, line, function) where the first backward's tensor was computed, if not in the caller
        self.loss_maker: tuple | None = None
        self.probe_result: dict | None = None
        self.reprobed = False  # the forward probe was taken again (a zero output at first)

    # ---- helpers ---------------------------------------------------------------------

    @contextmanager
    def quiet(self):
        prev = self.busy
        self.busy = True
        try:
            yield
        finally:
            self.busy = prev

    @property
    def depth(self) -> int:
        return len(self.stack)

    @property
    def n_steps(self) -> int:
        return self.counts["step"]

    @property
    def detailed(self) -> bool:
        return (
            self.cfg.trace
            and (not self.fast_forward or self.window_in_fast_forward)
            and self.n_steps < self.detail_until
        )

    def open_detail_window(self, why: str) -> None:
        """A new training phase (a new optimizer or loss) gets its own detailed steps,
        also once the run fast-forwards (a replay loss that starts with the second task)."""
        if self.windows >= 3 or self.n_steps < self.detail_until:
            return
        self.windows += 1
        self.window_in_fast_forward = self.fast_forward
        self.detail_until = self.n_steps + self.cfg.detail_steps
        self.detail_windows.append({"from_step": self.n_steps, "reason": why})
        self.events.append([])

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def event(self, kind: str, frame=None) -> None:
        self.counts[kind] += 1
        if kind not in self.event_frames and frame is not None:
            self.event_frames[kind] = frame_dict(frame)
        if self.in_step and kind != "step":
            # a closure's work inside optimizer.step(): counted apart, and not an iteration
            # of its own in the call order
            self.counts[f"{kind}_in_step"] += 1
            return
        if self.detailed or len(self.events) <= self.cfg.detail_steps + 1:
            cur = self.events[-1]
            # a loop of many forwards per update (one per time step of an RNN) must leave
            # room for the calls that order the update: backward, zero_grad, step
            if kind in ("forward", "loss") and len(cur) >= MAX_REPEATED_EVENTS:
                return
            if len(cur) < MAX_ITERATION_EVENTS:
                cur.append(kind)

    def op_site(self, kind: str, frame, **info) -> dict:
        """Aggregate an op observation by kind and source location."""
        key = f"{kind}@{frame_key(frame)}"
        rec = self.ops.get(key)
        if rec is None:
            if len(self.ops) >= MAX_EVENTS:
                return {}
            rec = {"kind": kind, "frame": frame_dict(frame), "count": 0, "phases": {}}
            rec.update(info)
            self.ops[key] = rec
        rec["count"] += 1
        return rec

    def final_eval_op(self) -> bool:
        """An evaluation op after the step budget that is still observed: a final scoring
        pass of a few batches is read whole, a long one in part (MAX_FINAL_EVAL_OPS), and
        the fast-forward stays fast."""
        if not self.evaluating() or self.final_eval_ops >= MAX_FINAL_EVAL_OPS:
            return False
        self.final_eval_ops += 1
        return True

    def evaluating(self) -> bool:
        """Evaluation code runs: grad mode is off, or the last model output came from an
        evaluation forward (a metric computed after the `no_grad` block closed)."""
        return not torch.is_grad_enabled() or self.last_output_eval

    def phase_now(self) -> str:
        return "train" if torch.is_grad_enabled() else "eval"

    # ---- parameters ----------------------------------------------------------------------

    def param(self, p: torch.Tensor) -> ParamRec:
        rec = self.params.get(id(p))
        if rec is None or rec.ref is not p:
            rec = ParamRec(p)
            self.params[id(p)] = rec
        elif rec.lazy:
            rec.settle()
        return rec

    def track_module_params(self, module: torch.nn.Module, executed: bool) -> None:
        for local, p in module._parameters.items():
            if p is None:
                continue
            rec = self.param(p)
            rec.local_name = rec.local_name or local
            if executed:
                rec.executed = True
            if not rec.module_class:
                rec.module_class = type(module).__name__
                rec.module_created = getattr(module, "_ti_created", None)

    def in_top_models(self) -> set[int]:
        """Parameters of the called models, now or at an earlier step (a head replaced
        after pretraining was registered while it ran); held, so no id is reused."""
        for m in self.models.values():
            self.registered_before.update((id(p), p) for p in m.parameters())
        return set(self.registered_before)

    # ---- stopping -------------------------------------------------------------------------

    def check_budget(self) -> None:
        """Called at steps, backwards and forwards; raises StopTracing when the budget is spent."""
        if self.status != "running":
            return
        steps = self.n_steps + self.counts["hand_update"]  # updates, by an optimizer or by hand
        if not self.fast_forward and steps >= self.cfg.max_steps:
            self.fast_forward = True
            self.events.append([])
        now = self.elapsed()
        self.progress.update(now, self.progress_snapshot)
        over = None
        if steps >= self.cfg.max_total_steps and self._evaluated(steps):
            over = f"{steps} optimizer steps"
        elif steps == 0 and self.counts["backward"] >= self.cfg.max_total_steps:
            over = f"{self.counts['backward']} backward calls without an optimizer step"
        elif self.counts["forward"] >= self.cfg.max_forwards:
            over = f"{self.counts['forward']} forward calls"
        elif now > self.cfg.max_wall_s:
            over = f"{self.cfg.max_wall_s:.0f} s of tracing"
        if over:
            self.stop_reason = f"budget reached after {over}"
            ends = not (self.cfg.then and self.cfg.fast_forward) or "tracing" in over
            self.status = "stopped" if ends else "budget"  # a chain's training goes on
            if ends:
                raise StopTracing(self.stop_reason)

    def _evaluated(self, steps: int) -> bool:
        """At the step cap, a run as written whose model has not been called with grad off (an
        ensemble evaluated once all its members are trained) goes on, up to EVAL_WAIT
        times the cap, until a training step follows its first evaluation: the
        evaluation is what the data and mode stages read."""
        if not self.cfg.fast_forward:
            # a run with a change stops at its steps, once what follows the last of them
            # up to the next backward has run (the evaluation after training: compared)
            if steps > self.cfg.max_total_steps:
                return True
            if self.backwards_at_cap is None:
                self.backwards_at_cap = self.counts["backward"]
            return self.counts["backward"] > self.backwards_at_cap
        if steps >= self.cfg.max_total_steps * EVAL_WAIT:
            return True
        return self.last_nograd_step is not None and steps > self.last_nograd_step

    def progress_snapshot(self) -> dict:
        """What the host shows while the run is in flight (tools/trace/progress.py)."""
        if not torch.is_grad_enabled():
            phase = "eval"
        else:
            phase = "fast_forward" if self.fast_forward else "train"
        return {"steps": self.n_steps, "forwards": self.counts["forward"], "phase": phase}

    # ---- phases ------------------------------------------------------------------------------

    def resolve_nograd(self, indexes: set[int], phase: str) -> None:
        """Decide the pending no-grad forwards with these indexes, and those whose output a
        decided one consumed (`_via`), in turn."""
        frontier = set(indexes)
        while frontier:
            keep, now = [], set()
            for record in self.pending_nograd:
                if record["index"] in frontier or record.get("_via") in frontier:
                    self.resolve_phase(record, phase)
                    now.add(record["index"])
                else:
                    keep.append(record)
            self.pending_nograd[:] = keep
            frontier = now

    def resolve_phase(self, rec: dict, phase: str) -> None:
        """Assign a recorded forward or loss call to its phase once known; its batch and
        target go into the phase's batch statistics."""
        if rec.get("phase") is not None:
            # an evaluation loss call is recorded with its phase: its target only tells
            # whether it is a value of the inputs (loss_rows.py), and must not reach the trace
            self.batches.loss_rows.eval_target(rec.pop("_target", None), rec.get("frame"))
            return
        rec["phase"] = phase
        batch = rec.pop("_batch", None)
        rec.pop("_inputs", None)
        fr = rec.get("frame")
        site = f"{fr['file']}:{fr['line']}" if fr else "?"
        if batch is not None:
            self.batches.record_inputs(
                phase,
                *batch,
                site=site,
                model=rec.get("model", ""),
                step=rec.get("step", 0),
                module=rec.pop("_module", 0),
                learns=rec.get("grad_enabled", True),
                origin=rec.pop("_origin_fps", None),
            )
        target = rec.pop("_target", None)
        if target is not None:
            self.batches.record_target(phase, *target, site=site, step=rec.get("step", 0))
