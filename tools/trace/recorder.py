"""The trace being recorded: bounded state that hooks update and `finish` serializes.

Invariants
- `busy` is True while tracer code runs tensor ops, so the function mode and the
  module hooks ignore the tracer's own work.
- Per-parameter detail, graph walks and batch statistics are recorded only for the
  first `detail_steps` optimizer steps; counters and the loss curve for the whole run.
- Everything is keyed by object id while running and named at `finish`, because
  layers can be swapped during a run (names come from the final model).
"""

from __future__ import annotations

import math
import time
from collections import Counter
from contextlib import contextmanager

import torch

from .config import Config
from .tensors import SEEN_FUNCTIONS, feature_moments, frame_dict, frame_key, norm, summarize

FORMAT_VERSION = 1
MAX_EVENTS = 400  # per list of detailed records
MAX_CURVE = 5000


class StopTracing(BaseException):
    """Raised inside the program to end it once the budget is spent.

    A BaseException so that `except Exception:` in user code does not swallow it.
    """


class ParamRec:
    __slots__ = (
        "ref",
        "shape",
        "numel",
        "first_requires_grad",
        "is_leaf",
        "executed",
        "module_class",
        "module_created",
        "unregistered_module",
        "n_obs",
        "n_none",
        "n_zero",
        "n_nonfinite",
        "sum_norm",
        "max_norm",
        "n_delta",
        "n_delta_zero",
        "sum_delta",
        "sum_ratio",
        "w_start",
        "n_walks",
        "n_reachable",
        "grad_before",
        "created_in_forward",
        "local_name",
        "frozen_steps",
    )

    def __init__(self, p: torch.Tensor) -> None:
        self.ref = p
        self.shape = list(p.shape)
        self.numel = p.numel()
        self.first_requires_grad = bool(p.requires_grad)
        self.is_leaf = bool(p.is_leaf)
        self.executed = False
        self.module_class = ""
        self.module_created = None
        self.unregistered_module = False
        self.n_obs = self.n_none = self.n_zero = self.n_nonfinite = 0
        self.sum_norm = 0.0
        self.max_norm = 0.0
        self.n_delta = self.n_delta_zero = 0
        self.sum_delta = 0.0
        self.sum_ratio = 0.0
        self.w_start = norm(p)
        self.n_walks = self.n_reachable = 0
        self.grad_before = 0  # backward calls that found a non-zero .grad left over
        self.created_in_forward = False
        self.local_name = ""
        self.frozen_steps = 0  # optimizer steps that held this parameter while requires_grad=False


class Recorder:
    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.iv = cfg.interventions
        self.t0 = time.perf_counter()
        self.busy = False
        self.status = "running"
        self.stop_reason = ""
        self.error: dict | None = None
        self.fast_forward = False
        self.detail_until = cfg.detail_steps
        self.windows = 0
        self.detail_windows: list[dict] = []
        # parameter changes between consecutive backward calls (updates by any means)
        self.param_checksum: float | None = None
        self.update_intervals = {"observed": 0, "changed": 0}

        # models and parameters
        self.models: dict[int, torch.nn.Module] = {}  # top-level modules called from the loop
        self.model_frames: dict[int, tuple] = {}
        self.executed: dict[int, torch.nn.Module] = {}
        self.params: dict[int, ParamRec] = {}
        self.optimizers: dict[int, torch.optim.Optimizer] = {}
        self.optimizer_frames: dict[int, tuple] = {}
        self.optimizer_steps: Counter = Counter()
        self.schedulers: dict[int, dict] = {}
        self.loaders: dict[str, dict] = {}  # by creation site

        # counters and curves
        self.counts: Counter = Counter()
        self.losses: list[float] = []  # value of every backward'ed tensor
        self.step_losses: list[float] = []  # last backward value before each step
        self.lrs: list[list[float]] = []  # per step, per group
        self.events: list[list[str]] = [[]]  # call order per iteration (detailed)
        self.event_frames: dict[str, dict] = {}  # first frame per event kind
        self.zero_grad_since_step = False
        self.backward_since_step = 0
        self.last_backward_value: float | None = None

        # detailed records
        self.forwards: list[dict] = []
        self.pending: list[tuple[dict, object]] = []  # (forward or loss record, output grad_fn)
        self.loss_calls: list[dict] = []
        self.loss_sites: dict[str, dict] = {}
        self.backwards: list[dict] = []
        self.steps: list[dict] = []
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
        self.activations: dict[str, dict] = {}
        self.activation_calls: dict[str, int] = {}  # per forward: calls of each activation line

        # batches per phase
        self.batch_summaries: dict[str, list[dict]] = {"train": [], "eval": []}
        self.fingerprints: dict[str, list[str]] = {"train": [], "eval": []}
        self.eval_batches: list[tuple[str, list[str]]] = []  # (call site, row fingerprints)
        self.fw_by_index: dict[int, dict] = {}
        # module.training of every forward a backward directly follows, for the whole run
        # (the detailed records cover only the first steps)
        self.last_grad_forward: tuple[bool, int, tuple | None] | None = None
        self.train_mode_counts: dict = {"train": 0, "eval": 0, "first_eval": None}
        self.pending_nograd: list[dict] = []  # no-grad forwards whose phase a consumer decides
        self.moments: dict[str, list] = {}
        self.target_hist_per_batch: list[dict] = []
        self.target_means_per_batch: list[float] = []
        self.init_stats: list[dict] = []
        self.target_moments: dict[str, list] = {}
        self.column_target: dict = {}

        # call stack of module forwards: (module, role) with role "model" | "sub" | "other"
        self.stack: list[tuple[torch.nn.Module, str]] = []
        self.batch_size: int | None = None  # first dimension of the last model input
        self.last_input: torch.Tensor | None = None
        self.between_forward_and_backward = False
        self.first_train_forward_done = False

        # interventions state
        self.fixed_level = "loader" if cfg.train_loader else "forward"
        self.first_batch: tuple | None = None  # (args, kwargs) of the first training forward
        self.first_target = None
        self.probe_result: dict | None = None
        self.fixed: dict = {}  # captured fixed batch: args, targets per loss site
        self.standardize: tuple | None = None

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
        return self.cfg.trace and not self.fast_forward and self.n_steps < self.detail_until

    def open_detail_window(self, why: str) -> None:
        """A new training phase (a new optimizer or loss) gets its own detailed steps."""
        if self.windows >= 3 or self.n_steps < self.detail_until:
            return
        self.windows += 1
        self.detail_until = self.n_steps + self.cfg.detail_steps
        self.detail_windows.append({"from_step": self.n_steps, "reason": why})
        self.events.append([])

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def event(self, kind: str, frame=None) -> None:
        self.counts[kind] += 1
        if kind not in self.event_frames and frame is not None:
            self.event_frames[kind] = frame_dict(frame)
        if self.detailed or len(self.events) <= self.cfg.detail_steps + 1:
            cur = self.events[-1]
            if len(cur) < 64:
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

    def phase_now(self) -> str:
        return "train" if torch.is_grad_enabled() else "eval"

    # ---- parameters ----------------------------------------------------------------------

    def param(self, p: torch.Tensor) -> ParamRec:
        rec = self.params.get(id(p))
        if rec is None or rec.ref is not p:
            rec = ParamRec(p)
            self.params[id(p)] = rec
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
        ids: set[int] = set()
        for m in self.models.values():
            ids.update(id(p) for p in m.parameters())
        return ids

    # ---- stopping -------------------------------------------------------------------------

    def check_budget(self) -> None:
        """Called at steps, backwards and forwards; raises StopTracing when the budget is spent."""
        if self.status != "running":
            return
        steps = self.n_steps
        if not self.fast_forward and steps >= self.cfg.max_steps:
            self.fast_forward = True
            self.events.append([])
        over = None
        if steps >= self.cfg.max_total_steps:
            over = f"{steps} optimizer steps"
        elif steps == 0 and self.counts["backward"] >= self.cfg.max_total_steps:
            over = f"{self.counts['backward']} backward calls without an optimizer step"
        elif self.counts["forward"] >= self.cfg.max_forwards:
            over = f"{self.counts['forward']} forward calls"
        elif self.elapsed() > self.cfg.max_wall_s:
            over = f"{self.cfg.max_wall_s:.0f} s of tracing"
        if over:
            self.status = "stopped"
            self.stop_reason = f"budget reached after {over}"
            raise StopTracing(self.stop_reason)

    # ---- batches ---------------------------------------------------------------------------

    def record_inputs(
        self,
        phase: str,
        tensors: list[torch.Tensor],
        fingerprints: list[str],
        site: str = "?",
        model: str = "",
    ) -> None:
        if not tensors:
            return
        if phase == "eval" and fingerprints and len(self.eval_batches) < 2000:
            self.eval_batches.append((site, fingerprints))
        x = tensors[0]
        summaries = self.batch_summaries[phase]
        if len(summaries) < MAX_EVENTS:
            summaries.append({"tensors": [summarize(t, values=False) for t in tensors[:4]]})
        fp = self.fingerprints[phase]
        if len(fp) < 50_000:
            fp.extend(fingerprints)
        m = feature_moments(x)
        if m is not None:
            key = f"{phase}:{model}"  # per model: a pipeline's models see different inputs
            acc = self.moments.get(key)
            if acc is None or len(acc[0]) != len(m[0]):
                self.moments[key] = [list(m[0]), list(m[1]), m[2]]
            else:
                acc[0] = [a + b for a, b in zip(acc[0], m[0])]
                acc[1] = [a + b for a, b in zip(acc[1], m[1])]
                acc[2] += m[2]

    def record_target(self, phase: str, target: torch.Tensor, inputs: torch.Tensor | None) -> None:
        s = summarize(target)
        if phase == "train" and len(self.target_hist_per_batch) < MAX_EVENTS:
            self.target_hist_per_batch.append(s.get("values") or {})
            if s.get("mean") is not None:
                self.target_means_per_batch.append(s["mean"])
        acc = self.target_moments.setdefault(
            phase, {"n": 0, "values": Counter(), "min": math.inf, "max": -math.inf}
        )
        acc["n"] += 1
        if "values" in s:
            acc["values"].update({k: v for k, v in s["values"].items()})
        if "min" in s:
            acc["min"] = min(acc["min"], s["min"])
            acc["max"] = max(acc["max"], s["max"])
        # a feature column equal to (or perfectly tracking) the target: leakage of the target
        if (
            phase == "train"
            and inputs is not None
            and inputs.dim() == 2
            and inputs.is_floating_point()
            and inputs.shape[0] == target.shape[0]
            and inputs.shape[0] >= 8
            and target.numel() == target.shape[0]
        ):
            y = target.detach().reshape(-1).double()
            x = inputs.detach().double()[:, :64]
            if float(y.std()) > 0:
                xc = x - x.mean(0)
                yc = y - y.mean()
                denom = xc.norm(dim=0) * yc.norm()
                corr = (xc.T @ yc) / torch.where(denom > 0, denom, torch.ones_like(denom))
                for j, c in enumerate(corr.tolist()):
                    rec = self.column_target.setdefault(j, {"n": 0, "min_abs_corr": 1.0})
                    rec["n"] += 1
                    rec["min_abs_corr"] = min(
                        rec["min_abs_corr"], abs(c) if c == c else 0.0
                    )  # NaN: no evidence

    # ---- serialization ------------------------------------------------------------------

    def finish(self) -> dict:
        with self.quiet():
            return self._finish()

    def _finish(self) -> dict:
        # forwards never reached by a backward were evaluation forwards
        for rec, _ in self.pending:
            self._resolve(rec, "eval")
        self.pending.clear()
        for rec in self.pending_nograd:
            self._resolve(rec, "eval")
        self.pending_nograd.clear()

        top_param_ids = self.in_top_models()
        names: dict[int, str] = {}
        prefix = len(self.models) > 1
        for m in self.models.values():
            for n, p in m.named_parameters():
                names.setdefault(id(p), f"{type(m).__name__}.{n}" if prefix else n)
        module_paths: dict[int, str] = {}
        for m in self.models.values():
            for path, sub in m.named_modules():
                module_paths.setdefault(id(sub), path or type(m).__name__)

        opt_of: dict[int, int] = {}
        optimizers = []
        for oi, (oid, opt) in enumerate(self.optimizers.items()):
            groups = []
            for g in opt.param_groups:
                ids = [id(p) for p in g["params"]]
                for pid in ids:
                    opt_of.setdefault(pid, oi)
                    if pid not in self.params:
                        self.param(next(p for p in g["params"] if id(p) == pid))
                groups.append(
                    {
                        "lr": _f(g.get("lr")),
                        "weight_decay": _f(g.get("weight_decay", 0.0)),
                        "momentum": _f(g.get("momentum")) if "momentum" in g else None,
                        "n_params": len(ids),
                        "params": ids,  # replaced by names below
                    }
                )
            optimizers.append(
                {
                    "index": oi,
                    "class": type(opt).__name__,
                    "frame": frame_dict(self.optimizer_frames.get(oid)),
                    "steps": self.optimizer_steps[oid],
                    "param_groups": groups,
                }
            )

        unreg_counter: Counter = Counter()
        params = []
        for pid, rec in self.params.items():
            name = names.get(pid)
            registered = pid in top_param_ids
            if name is None:
                where = frame_key(rec.module_created) if rec.module_created else "?"
                base = f"<{'unregistered' if rec.executed else 'detached'} {rec.module_class or 'tensor'} at {where}>"
                unreg_counter[(base, rec.local_name)] += 1
                suffix = f".{rec.local_name}" if rec.local_name else ""
                n = unreg_counter[(base, rec.local_name)]
                name = f"{base}{suffix}" if n == 1 else f"{base}{suffix}#{n}"
            p = rec.ref
            params.append(
                {
                    "id": pid,
                    "name": name,
                    "shape": rec.shape,
                    "numel": rec.numel,
                    "requires_grad": bool(p.requires_grad),
                    "requires_grad_at_start": rec.first_requires_grad,
                    "is_leaf": bool(p.is_leaf),
                    "registered": registered,
                    "executed": rec.executed,
                    "module_class": rec.module_class,
                    "module_created": frame_dict(rec.module_created),
                    "created_in_forward": rec.created_in_forward,
                    "in_optimizer": pid in opt_of,
                    "optimizer": opt_of.get(pid),
                    "grad": {
                        "observed": rec.n_obs,
                        "none": rec.n_none,
                        "zero": rec.n_zero,
                        "nonfinite": rec.n_nonfinite,
                        "mean_norm": _f(rec.sum_norm / rec.n_obs) if rec.n_obs else None,
                        "max_norm": _f(rec.max_norm),
                        "left_over_before_backward": rec.grad_before,
                    },
                    "update": {
                        "observed": rec.n_delta,
                        "zero": rec.n_delta_zero,
                        "mean_norm": _f(rec.sum_delta / rec.n_delta) if rec.n_delta else None,
                        "mean_ratio": _f(rec.sum_ratio / rec.n_delta) if rec.n_delta else None,
                    },
                    "weight_norm_start": _f(rec.w_start),
                    "weight_norm_end": _f(norm(p)),
                    "graph": {"walks": rec.n_walks, "reachable": rec.n_reachable},
                    "frozen_steps": rec.frozen_steps,
                }
            )
        id_to_name = {p["id"]: p["name"] for p in params}
        for o in optimizers:
            for g in o["param_groups"]:
                g["params"] = [id_to_name.get(i, f"<id {i}>") for i in g["params"]]
        for b in self.backwards:
            for key in ("reachable", "unreachable_executed", "left_over"):
                b[key] = [id_to_name.get(i, f"<id {i}>") for i in b.get(key, [])]
        for s in self.steps:
            s["unchanged"] = [id_to_name.get(i, f"<id {i}>") for i in s.get("unchanged", [])]
        for p in params:
            del p["id"]

        models = []
        for mid, m in self.models.items():
            kinds = Counter(type(s).__name__ for s in m.modules())
            models.append(
                {
                    "class": type(m).__name__,
                    "frame": frame_dict(self.model_frames.get(mid)),
                    "n_params": sum(p.numel() for p in m.parameters()),
                    "training_at_end": bool(m.training),
                    "has_dropout": any("Dropout" in k for k in kinds),
                    "has_batchnorm": any(
                        k.startswith("BatchNorm") or k == "SyncBatchNorm" for k in kinds
                    ),
                    "module_types": dict(kinds.most_common(30)),
                }
            )

        def moments_out(key: str):
            acc = self.moments.get(key)
            if not acc:
                return None
            n = acc[2]
            means = [s / n for s in acc[0]]
            stds = [math.sqrt(max(q / n - mu * mu, 0.0)) for q, mu in zip(acc[1], means)]
            return {"n": n, "mean": means, "std": stds}

        targets = {}
        for phase, acc in self.target_moments.items():
            targets[phase] = {
                "batches": acc["n"],
                "values": dict(acc["values"].most_common(64)) if acc["values"] else None,
                "min": _f(acc["min"]),
                "max": _f(acc["max"]),
            }

        train_fps = set(self.fingerprints["train"])
        return {
            "format_version": FORMAT_VERSION,
            "status": self.status,
            "stop_reason": self.stop_reason,
            "argv": list(self.cfg.argv),
            "interventions": self.iv.active(),
            "wall_s": round(self.elapsed(), 4),
            "error": self.error,
            "counts": dict(self.counts),
            "event_frames": self.event_frames,
            "iterations": [e for e in self.events if e][:200],
            "losses": self.losses[:MAX_CURVE],
            "step_losses": self.step_losses[:MAX_CURVE],
            "holdout_losses": self.holdout_losses[:MAX_CURVE],
            "lrs": self.lrs[:MAX_CURVE],
            "models": models,
            "parameters": params,
            "optimizers": optimizers,
            "schedulers": list(self.schedulers.values()),
            "loaders": list(self.loaders.values()),
            "forwards": self.forwards,
            "loss_calls": self.loss_calls,
            "loss_sites": list(self.loss_sites.values()),
            "backwards": self.backwards,
            "steps": self.steps,
            "clips": list(self.clips.values()),
            "ops": list(self.ops.values()),
            "created_in_forward": list(self.created_in_forward.values()),
            "batchnorm": list(self.bn_calls.values()),
            "attention": list(self.sdpa.values()),
            "attr_tensors": list(self.attr_tensors.values()),
            "submodule_modes": list(self.submodule_modes.values()),
            "activations": list(self.activations.values()),
            "batches": {
                "train": self.batch_summaries["train"][:60],
                "eval": self.batch_summaries["eval"][:60],
                "moments": {
                    model: {
                        "train": moments_out(f"train:{model}"),
                        "eval": moments_out(f"eval:{model}"),
                    }
                    for model in sorted({k.split(":", 1)[1] for k in self.moments})
                },
                "train_fingerprints": len(self.fingerprints["train"]),
                "eval_fingerprints": len(self.fingerprints["eval"]),
                "train_unique": len(set(self.fingerprints["train"])),
                "eval_unique": len(set(self.fingerprints["eval"])),
                "overlap": len(set(self.fingerprints["eval"]) & set(self.fingerprints["train"])),
                "eval_batches": [
                    {"site": site, "rows": len(set(fps)), "overlap": len(set(fps) & train_fps)}
                    for site, fps in self.eval_batches
                ],
                "targets": targets,
                "target_values_per_batch": self.target_hist_per_batch[:200],
                "target_means_per_batch": self.target_means_per_batch[:200],
                "column_target_corr": {
                    str(j): r["min_abs_corr"] for j, r in self.column_target.items() if r["n"] >= 2
                },
            },
            "train_mode_counts": self.train_mode_counts,
            "detail_windows": self.detail_windows,
            "update_intervals": self.update_intervals,
            "probes": self.probes,
            "probe_result": self.probe_result,
            "init_stats": self.init_stats,
            "seen_functions": sorted(SEEN_FUNCTIONS)[:2000],
            "warnings": self.warnings[:50],
        }

    def _resolve(self, rec: dict, phase: str) -> None:
        """Assign a recorded forward or loss call to its phase once known."""
        if rec.get("phase") is not None:
            return
        rec["phase"] = phase
        batch = rec.pop("_batch", None)
        rec.pop("_input_ids", None)
        if batch is not None:
            fr = rec.get("frame")
            site = f"{fr['file']}:{fr['line']}" if fr else "?"
            self.record_inputs(phase, *batch, site=site, model=rec.get("model", ""))
        target = rec.pop("_target", None)
        if target is not None:
            self.record_target(phase, *target)


def _f(v) -> float | None:
    if v is None:
        return None
    try:
        v = float(v)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def grad_stats(rec: ParamRec) -> None:
    """Update gradient statistics of one parameter after a backward."""
    g = rec.ref.grad
    rec.n_obs += 1
    if g is None:
        rec.n_none += 1
        return
    n = float(g.detach().double().norm())
    if not math.isfinite(n):
        rec.n_nonfinite += 1
        return
    if n == 0.0:
        rec.n_zero += 1
    rec.sum_norm += n
    rec.max_norm = max(rec.max_norm, n)
