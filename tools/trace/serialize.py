"""The trace JSON: one serializer per section of `tools/tracefile/trace.Trace`.

`finish` runs once, after the program ended (or was stopped). Parameters are named
here, from the final models, and the ids kept while running are replaced by names.
"""

from __future__ import annotations

import math
import sys
from collections import Counter

from . import class_stream, eval_order, freeze_log, indexed_rows, token_layout
from .batches import MAX_BLOCK, BatchStats, block_equal_columns
from .hooks import loader
from .hooks.module_facts import end_stats
from .loss_rows import overlap_section
from .recorder import FORMAT_VERSION, MAX_CURVE, Recorder
from .tensors import SEEN_FUNCTIONS, frame_dict, frame_key, in_repo, norm, relpath


def finish(rec: Recorder) -> dict:
    with rec.quiet():
        return trace_dict(rec)


def trace_dict(rec: Recorder) -> dict:
    _resolve_pending(rec)
    if rec.init_module is not None:
        end_stats(rec.init_module, rec.init_stats)
    optimizers, opt_of = optimizers_section(rec)
    params = parameters_section(rec, opt_of)
    freezes = freeze_log.serialize(rec.freezes, params, rec.params)
    _name_param_ids(rec, optimizers, params)
    models = models_section(rec)
    return {
        "format_version": FORMAT_VERSION,
        "status": rec.status,
        "stop_reason": rec.stop_reason,
        "argv": list(rec.cfg.argv),
        "interventions": rec.iv.active(),
        "wall_s": round(rec.elapsed(), 4),
        "error": rec.error,
        "target_order": _target_order(rec),
        "target_is_input": dict(rec.target_is_input),
        "loss_sources": list(rec.loss_sources),
        "log_prob_losses": list(rec.log_prob_losses),
        "cut_terms": list(rec.cut_terms),
        "nograd_terms": _nograd_terms(rec),
        "number_terms": dict(rec.number_terms),
        "code_targets": [
            {
                "site": site,
                "role": rec.loaders.get(site, {}).get("role"),
                "target_index": index,
                "columns": [{str(k): v for k, v in col.items()} for col in columns],
            }
            for site, by_index in rec.code_targets.items()
            for index, columns in by_index.items()
        ],
        "counts": {
            **rec.counts,
            # plain leaves a loss reached in one backward only (made afresh each iteration)
            "leaves_reached_once": rec.transient_leaves + len(rec.leaves_seen_once),
        },
        "event_frames": rec.event_frames,
        "iterations": [e for e in rec.events if e][:200],
        "losses": rec.losses[:MAX_CURVE],
        "step_losses": rec.step_losses[:MAX_CURVE],
        "step_optimizers": rec.step_optimizers[:MAX_CURVE],
        "holdout_losses": rec.holdout_losses[:MAX_CURVE],
        "holdout_level": rec.iv_state.holdout_level,
        "eval_losses": rec.eval_losses,
        "eval_loss_rows": rec.eval_loss_rows,
        "eval_matches": rec.eval_matches,
        "eval_outside": rec.eval_outside,
        "eval_order": eval_order.serialize(rec),
        "eval_values": _eval_values(rec),
        "eval_errors": rec.eval_errors,
        "eval_error_levels": rec.eval_error_levels,
        "call_fit": rec.call_fit[:MAX_CURVE],
        "grad_checks": rec.grad_checks,
        "shadow_eval": rec.shadow_eval,
        "shadow_correct": rec.shadow_correct,
        "train_correct": rec.train_correct,
        "eval_shifted": rec.eval_shifted,
        "eval_shift_frame": rec.eval_shift_frame,
        "eval_rounded": rec.eval_rounded,
        "metric_probes": rec.metric_probes,
        "metric_values": rec.metric_values,
        "row_offsets": {k: _offsets(a) for k, a in rec.batches.row_offsets.items() if a[0] >= 2},
        "input_normalizer": rec.input_normalizer,
        "subset_overlaps": loader.subset_overlaps(rec),
        "lrs": rec.lrs[:MAX_CURVE],
        "models": models,
        "parameters": params,
        "optimizers": optimizers,
        "schedulers": list(rec.schedulers.values()),
        "loaders": list(rec.loaders.values()),
        "forwards": [
            {**_public(r), "output_read": r["index"] in rec.fw_read} for r in rec.forwards
        ],
        "loss_calls": [_public(r) for r in rec.loss_calls],
        "loss_sites": list(rec.loss_sites.values()),
        "difference_sites": list(rec.difference_sites.values()),
        "difference_masks": list(rec.difference_masks.values()),
        "backwards": rec.backwards,
        "steps": rec.steps,
        "clips": list(rec.clips.values()),
        "ops": _ops(rec),
        "created_in_forward": list(rec.created_in_forward.values()),
        "batchnorm": list(rec.bn_calls.values()),
        "attention": list(rec.sdpa.values()),
        "attr_tensors": list(rec.attr_tensors.values()),
        "submodule_modes": list(rec.submodule_modes.values()),
        "activations": list(rec.activations.values()),
        "loss_terms": [
            {
                "frame": site["frame"],
                "terms": [
                    {
                        "source": source,
                        "values": values,
                        "log_prob": source in site.get("log_probs", ()),
                    }
                    for source, values in site["terms"].items()
                ],
            }
            for site in rec.loss_terms.values()
        ],
        "batches": batches_section(
            rec.batches, {site for site, info in rec.loaders.items() if info.get("role") == "train"}
        ),
        "train_mode_counts": rec.train_mode_counts,
        "eval_switch_lines": sorted([file, line] for file, line in rec.eval_lines),
        "detail_windows": rec.detail_windows,
        "update_intervals": rec.update_intervals,
        "probes": rec.probes,
        "future_probe": rec.future,
        "neighbours": token_layout.summary(rec),
        "positions": rec.positions.summary(),
        "class_streams": class_stream.serialize(rec),
        "indexed_rows": indexed_rows.serialize(rec),
        "freeze_calls": freezes,
        "probe_result": rec.probe_result,
        "init_stats": rec.init_stats,
        "seen_functions": sorted(SEEN_FUNCTIONS)[:2000],
        "loaded_files": loaded_files(),
        "warnings": rec.warnings[:50],
    }


def loaded_files() -> list[str]:
    """The repo's Python files this run imported or ran as its script: a second script
    of the repo that never ran is not where this run's defect is."""
    files = set()
    for m in list(sys.modules.values()):
        f = getattr(m, "__file__", None)
        if isinstance(f, str) and f.endswith(".py") and in_repo(f):
            files.add(relpath(f))
    return sorted(files)[:2000]


def _resolve_pending(rec: Recorder) -> None:
    """Forwards never reached by a backward were evaluation forwards."""
    for record, _ in rec.pending:
        rec.resolve_phase(record, "eval")
    rec.pending.clear()
    for record in rec.pending_nograd:
        rec.resolve_phase(record, "eval")
    rec.pending_nograd.clear()


def _public(record: dict) -> dict:
    """A record without the tensors it kept while its phase was open (a forward that
    crashed never learns its phase)."""
    if any(k.startswith("_") for k in record):
        return {k: v for k, v in record.items() if not k.startswith("_")}
    return record


# ---- parameters and optimizers -------------------------------------------------------------


def optimizers_section(rec: Recorder) -> tuple[list[dict], dict[int, int]]:
    """Optimizers with their groups (parameter ids, named later) and, per parameter id,
    the index of the first optimizer that owns it."""
    opt_of: dict[int, int] = {}
    optimizers = []
    for oi, (oid, opt) in enumerate(rec.optimizers.items()):
        groups = []
        for g in opt.param_groups:
            ids = [id(p) for p in g["params"]]
            for pid in ids:
                opt_of.setdefault(pid, oi)
                if pid not in rec.params:
                    rec.param(next(p for p in g["params"] if id(p) == pid))
            groups.append(
                {
                    "lr": _f(g.get("lr")),
                    "weight_decay": _f(g.get("weight_decay", 0.0)),
                    "momentum": _f(g.get("momentum")) if "momentum" in g else None,
                    "n_params": len(ids),
                    "params": ids,  # replaced by names in _name_param_ids
                }
            )
        optimizers.append(
            {
                "index": oi,
                "class": type(opt).__name__,
                "frame": frame_dict(rec.optimizer_frames.get(oid)),
                "steps": rec.optimizer_steps[oid],
                "param_groups": groups,
            }
        )
    return optimizers, opt_of


def _eval_values(rec: Recorder) -> dict | None:
    """Label values of the evaluation comparisons and the prediction values of the last
    three passes, None when there were too many values to be classes."""
    labels = rec.eval_values["labels"]
    if labels is None:
        return None
    passes = sorted(rec.eval_values["passes"].items())[-3:]
    return {
        "labels": sorted(labels),
        "passes": [[step, [[v, c] for v, c in sorted(counts.items())]] for step, counts in passes],
        "first_labels": sorted(rec.eval_values["first_labels"].items()),
    }


def _nograd_terms(rec: Recorder) -> list[dict]:
    """Each no-grad loss term with the parameters of the model whose output it regresses."""
    names = _param_names(rec)
    out = []
    for term in rec.nograd_terms:
        module = rec.models.get(term["module"])
        params = [names[id(p)] for p in module.parameters() if id(p) in names] if module else []
        out.append({"forward": term["forward"], "loss": term["loss"], "parameters": params[:64]})
    return out


def _ops(rec: Recorder) -> list[dict]:
    """The op sites, a cut's reached parameters named."""
    names = _param_names(rec)
    out = []
    for o in rec.ops.values():
        o = dict(o)
        ids = o.pop("_reaches", None)
        if ids is not None:
            o["reaches"] = sorted({names[i] for i in ids if i in names})[:64]
        out.append(o)
    return out


def _param_names(rec: Recorder) -> dict[int, str]:
    """Names from the final models (prefixed by the model class when there are several;
    a second model of the same class as `Class#2`, so two networks built alike, as
    co-teaching's or a GAN's, do not share names)."""
    names: dict[int, str] = {}
    prefix = len(rec.models) > 1
    seen: Counter = Counter()
    for m in rec.models.values():
        cls = type(m).__name__
        seen[cls] += 1
        model = cls if seen[cls] == 1 else f"{cls}#{seen[cls]}"
        for n, p in m.named_parameters():
            names.setdefault(id(p), f"{model}.{n}" if prefix else n)
    return names


def parameters_section(rec: Recorder, opt_of: dict[int, int]) -> list[dict]:
    """Every parameter seen, with an "id" key that _name_param_ids removes."""
    top_param_ids = rec.in_top_models()
    names = _param_names(rec)
    unreg_counter: Counter = Counter()
    params = []
    for pid, r in rec.params.items():
        r.settle()  # a lazy layer's parameter first seen before its forward
        name = names.get(pid)
        if name is None and r.reached and not r.module_class and not r.executed:
            base = f"<tensor {'x'.join(map(str, r.shape)) or 'scalar'}>"  # a plain-tensor model
            unreg_counter[(base, "")] += 1
            n = unreg_counter[(base, "")]
            name = base if n == 1 else f"{base}#{n}"
        if name is None:
            where = frame_key(r.module_created) if r.module_created else "?"
            base = f"<{'unregistered' if r.executed else 'detached'} {r.module_class or 'tensor'} at {where}>"
            unreg_counter[(base, r.local_name)] += 1
            suffix = f".{r.local_name}" if r.local_name else ""
            n = unreg_counter[(base, r.local_name)]
            name = f"{base}{suffix}" if n == 1 else f"{base}{suffix}#{n}"
        record = _parameter(r, pid, name, pid in top_param_ids, opt_of)
        site = rec.init_sites.get(pid)
        record["init_frame"] = frame_dict(site) if site is not None else None
        # the program's line that froze it (requires_grad_(False)), while it stays frozen
        frozen = rec.frozen_at.get(pid) if not r.ref.requires_grad else None
        record["frozen_at"] = frame_dict(frozen) if frozen is not None else None
        params.append(record)
    return params


def _parameter(r, pid: int, name: str, registered: bool, opt_of: dict[int, int]) -> dict:
    p = r.ref
    return {
        "id": pid,
        "name": name,
        "shape": r.shape,
        "numel": r.numel,
        "requires_grad": bool(p.requires_grad),
        "requires_grad_at_start": r.first_requires_grad,
        "is_leaf": bool(p.is_leaf),
        "registered": registered,
        "executed": r.executed,
        "module_class": r.module_class,
        "module_created": frame_dict(r.module_created),
        "created_in_forward": r.created_in_forward,
        "in_optimizer": pid in opt_of,
        "optimizer": opt_of.get(pid),
        "grad": {
            "observed": r.n_obs,
            "none": r.n_none,
            "zero": r.n_zero,
            "nonfinite": r.n_nonfinite,
            "mean_norm": _f(r.sum_norm / r.n_obs) if r.n_obs else None,
            "max_norm": _f(r.max_norm),
            "left_over_before_backward": r.grad_before,
        },
        "update": {
            "observed": r.n_delta,
            "zero": r.n_delta_zero,
            "mean_norm": _f(r.sum_delta / r.n_delta) if r.n_delta else None,
            "mean_ratio": _f(r.sum_ratio / r.n_ratio) if r.n_ratio else None,
        },
        "weight_norm_start": _f(r.w_start),
        "weight_norm_end": _f(norm(p)),
        "graph": {"walks": r.n_walks, "reachable": r.n_reachable},
        "frozen_steps": r.frozen_steps,
        "reached": r.reached,
        "stale_steps": r.stale_steps,
        "ran_without_grad": r.ran_without_grad,
        "stale_frame": frame_dict(r.stale_frame) if r.stale_frame is not None else None,
    }


def _name_param_ids(rec: Recorder, optimizers: list[dict], params: list[dict]) -> None:
    """Replace the parameter ids in groups, backwards and steps by parameter names."""
    id_to_name = {p["id"]: p["name"] for p in params}

    def named(ids) -> list[str]:
        return [id_to_name.get(i, f"<id {i}>") for i in ids]

    for o in optimizers:
        for g in o["param_groups"]:
            g["params"] = named(g["params"])
    for b in rec.backwards:
        for key in ("reachable", "unreachable_executed", "left_over"):
            b[key] = named(b.get(key, []))
    for s in rec.steps:
        s["unchanged"] = named(s.get("unchanged", []))
    for p in params:
        del p["id"]


# ---- models and batches ----------------------------------------------------------------


def models_section(rec: Recorder) -> list[dict]:
    models = []
    for mid, m in rec.models.items():
        kinds = Counter(type(s).__name__ for s in m.modules())
        models.append(
            {
                "class": type(m).__name__,
                "frame": frame_dict(rec.model_frames.get(mid)),
                "n_params": sum(p.numel() for p in m.parameters()),
                "training_at_end": bool(m.training),
                "has_dropout": any("Dropout" in k for k in kinds),
                "has_batchnorm": any(
                    k.startswith("BatchNorm") or k == "SyncBatchNorm" for k in kinds
                ),
                "module_types": dict(kinds.most_common(30)),
            }
        )
    return models


def _moments(acc: list | None) -> dict | None:
    if not acc:
        return None
    n = acc[2]
    means = [s / n for s in acc[0]]
    stds = [math.sqrt(max(q / n - mu * mu, 0.0)) for q, mu in zip(acc[1], means)]
    return {"n": n, "mean": means, "std": stds}


def _offsets(a: list) -> dict:
    n = a[0]
    mean = a[1] / n
    return {"n": n, "between": max(a[2] / n - mean * mean, 0.0), "within": a[3] / n}


def _site_moments(site_moments: dict[str, list]) -> dict:
    """Evaluation input moments per model and call site."""
    out: dict[str, dict] = {}
    for key, acc in site_moments.items():
        model, _, site = key.partition("\0")
        out.setdefault(model, {})[site] = _moments(acc)
    return out


def _targets(stats: BatchStats) -> dict:
    return {
        phase: {
            "batches": acc["n"],
            "values": dict(acc["values"].most_common(64)) if acc["values"] else None,
            "min": _f(acc["min"]),
            "max": _f(acc["max"]),
        }
        for phase, acc in stats.target_moments.items()
    }


def _target_order(rec: Recorder) -> dict:
    o = rec.target_order
    return {
        "compared": o["compared"],
        "reordered": o["reordered"],
        "moved": _f(o["moved_sum"] / o["reordered"]) if o["reordered"] else None,
        "frame": o["frame"],
    }


def _columns_equal_target(stats: BatchStats, train_sites: set[str]) -> dict:
    """Input columns equal to the target in every training batch compared: read at the
    loss when it names its target, else from the training loaders' (x, y) batches."""
    found = [tuple(stats.column_equal)]
    found += [(cols, n) for site, (cols, n) in stats.loader_columns.items() if site in train_sites]
    cols, n = next(((c, n) for c, n in found if n >= 2), (None, 0))
    affine = stats.column_affine[0] or ()
    return {
        "columns_equal_target": sorted(cols or ())[:16],
        "target_compared_columns": n,
        "columns_affine_target": sorted(affine if stats.column_affine[1] >= 2 else ())[:16],
        "target_block_equal": block_equal_columns(stats.block_equal)[:MAX_BLOCK],
        "target_block_compared": stats.block_equal[1],
    }


def batches_section(stats: BatchStats, train_sites: set[str]) -> dict:
    return {
        "train": stats.summaries["train"][:60],
        "eval": stats.summaries["eval"][:60],
        "moments": {
            model: {
                "train": _moments(stats.moments.get(f"train:{model}")),
                "eval": _moments(stats.moments.get(f"eval:{model}")),
            }
            for model in sorted({k.split(":", 1)[1] for k in stats.moments})
        },
        "eval_site_moments": _site_moments(stats.site_moments),
        **overlap_section(stats),
        "targets": _targets(stats),
        "target_values_per_batch": stats.target_hist_per_batch[:200],
        "target_means_per_batch": stats.target_means_per_batch[:200],
        "target_one_per_row": stats.target_one_per_row,
        "target_sites_per_batch": stats.target_sites_per_batch[:200],
        "target_mean_sites": stats.target_mean_sites[:200],
        "column_target_corr": {
            str(j): r["min_abs_corr"] for j, r in stats.column_target.items() if r["n"] >= 2
        },
        **_columns_equal_target(stats, train_sites),
        "target_linear_exact": stats.target_linear[0],
        "target_linear_compared": stats.target_linear[1],
    }


def _f(v) -> float | None:
    if v is None:
        return None
    try:
        v = float(v)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None
