"""Stage 1: establish the symptom from a bounded run of the repo's own training path."""

from __future__ import annotations

import math
import re
import shlex
from typing import TYPE_CHECKING

from torch_investigate.agent.checks import caller_places
from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.crash_origin import tracer_broke
from torch_investigate.agent.checks.levels import (
    chance_level,
    element_chance,
    plateau,
    summed_elements,
)
from torch_investigate.agent.checks.locations import where
from torch_investigate.agent.checks.numbers import fmt, of_chance
from torch_investigate.agent.core.curves import curve_stats, falls_without_bound
from torch_investigate.tools.records import Stage
from torch_investigate.tools.tracefile.trace import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

# A crash inside user code, mapped to the defect it reveals: (pattern on "Type: message", category, title)
CRASH_PATTERNS: list[tuple[str, str, str]] = [
    (
        r"result type \w+ can't be cast to the desired output type|expected target dtype|Found dtype \w+ but expected \w+",
        "loss_target_mismatch",
        "",
    ),
    (
        r"Target size .* must be the same as input size|Using a target size .* different to the input size",
        "loss_target_mismatch",
        "",
    ),
    (
        r"expected scalar type (Long|Float)|Expected floating point type for target|expected .*Long.*but found|multi-target not supported|0D or 1D target tensor expected|Expected input batch_size .* to match target batch_size",
        "loss_target_mismatch",
        "",
    ),
    (
        r"Target -?\d+ is out of bounds|IndexError: Target|out of bounds.*target|nll_loss.*Assertion",
        "bad_labels",
        "",
    ),
    (r"all elements of (input|target) should be between 0 and 1", "bad_labels", ""),
    (
        r"optimizer got an empty parameter list",
        "optimizer_missing_params",
        "the optimizer was given no parameters (an exhausted generator or an empty list)",
    ),
    (r"can't optimize a non-leaf Tensor", "non_leaf_parameters", ""),
    (r"Expected more than 1 value per channel when training", "batchnorm_small_batch", ""),
    (
        r"modified by an inplace operation",
        "other",
        "an in-place operation overwrote a tensor autograd needs",
    ),
    (
        r"Trying to backward through the graph a second time",
        "other",
        "a tensor from an earlier iteration is reused in the graph (stale graph)",
    ),
    (
        r"mat1 and mat2 shapes cannot be multiplied|size mismatch|shape .* is invalid for input of size",
        "other",
        "shape mismatch in the forward pass",
    ),
]
GRAPH_CUT = re.compile(r"does not require grad and does not have a grad_fn")


def classify_crash(trace: Trace | None, etype: str, message: str) -> tuple[str, str]:
    """(category, title) for a crash; 'other' with a title when nothing specific fits."""
    text = f"{etype}: {message}"
    if GRAPH_CUT.search(text):
        if trace is not None:
            fws = trace.train_forwards() or trace.forwards
            if any(not f.grad_enabled for f in fws[:5]):
                return "no_grad_training", ""
            if trace.parameters and not any(
                p.requires_grad for p in trace.parameters if p.registered
            ):
                return "frozen_parameters", ""
            if any(o.kind in ("item", "tensor_rewrap", "numpy", "tolist") for o in trace.ops):
                return "loss_detached_scale", ""
        return "detached_graph", ""
    for pattern, category, title in CRASH_PATTERNS:
        if re.search(pattern, text):
            return category, title
    return "other", f"the training path raises {etype}"


@check(Stage.SYMPTOM)
def training_command(session: Session, ev: Evidence) -> None:
    cmd = session.command
    if cmd is None:
        ev.item("training_command", "skipped", session.command_note)
        return
    line = shlex.join(["python", *cmd.argv])
    ev.item("training_command", "passed", f"`{line}` ({cmd.source}: {cmd.reason})")


@check(Stage.SYMPTOM)
def run_and_curve(session: Session, ev: Evidence) -> None:
    if session.options.static_only:
        for item in ("run", "loss_curve", "initial_loss"):
            ev.item(item, "skipped", "static-only: the training path was not run")
        return
    if not session.can_run:
        for item in ("run", "loss_curve", "initial_loss"):
            ev.item(item, "skipped", "no training command to run")
        return
    run = session.baseline()
    assert run is not None
    t = run.trace
    failure = run.result.failure
    environmental = failure is not None and failure.kind != "user_exception"
    broke = t is not None and t.error is not None and tracer_broke(t.error)
    if broke:
        assert t is not None and t.error is not None
        # the exception came out of the instrumentation, not the program: no finding
        ev.item(
            "run",
            "failed",
            f"the instrumentation failed inside the program's run ({t.error.type}: "
            f"{t.error.message[:160]}); this is a torch-investigate bug, not evidence about "
            "the program",
        )
        for item in ("loss_curve", "initial_loss"):
            ev.item(item, "skipped", "the traced run was broken by the instrumentation")
        ev.facts.failure = failure
        return
    if t is None or not t.ran_training:
        if t is not None and t.error is not None and not environmental:
            _crash_finding(session, ev, t)
        reason = (
            failure.message
            if failure
            else (t.stop_reason if t else run.trace_error) or "no backward pass ran"
        )
        if t is not None and t.error is None and not t.ran_training:
            reason = f"the command ran ({t.counts.get('forward', 0)} forward calls) but no backward pass or optimizer step was observed; is it the training command?"
            functional = t.counts.get("functional_grad", 0)
            if functional:
                reason = (
                    f"the program computes its gradients functionally ({functional} calls of "
                    "torch.autograd.grad or a torch.func transform) and updates its weights by "
                    "hand; the tracer follows backward() and optimizer steps, so the later stages "
                    "cannot be checked at run time"
                )
            elif _loss_never_backpropagated(session, ev, t):
                reason = (
                    "the command trains (it computes a loss with gradients) but no backward pass "
                    "ran, so nothing was updated: see stage 6"
                )
        ev.item("run", "failed", reason)
        ev.facts.symptom = (
            "crash"
            if (t is not None and t.error is not None)
            or (failure is not None and failure.kind == "user_exception")
            else None
        )
        ev.item("loss_curve", "skipped", "no loss was observed")
        ev.item("initial_loss", "skipped", "no loss was observed")
        ev.facts.failure = failure
        return
    counts = t.counts
    detail = (
        f"ran {t.n_steps} optimizer steps ({counts.get('forward', 0)} forwards, {counts.get('backward', 0)} backward calls)"
        f" in {fmt(run.result.wall_s)} s; {t.status}{': ' + t.stop_reason if t.stop_reason else ''}"
    )
    if t.error is not None and not environmental:
        _crash_finding(session, ev, t)
        detail += f"; then crashed: {t.error.type}: {t.error.message[:160]}"
    workers = [lo for lo in t.loaders if lo.num_workers]
    if workers:
        asked = ", ".join(sorted({str(lo.num_workers) for lo in workers}))
        detail += (
            f"; {len(workers)} DataLoader(s) asked for {asked} worker processes and loaded "
            "in-process instead, so every batch is traced"
        )
    ev.item("run", "passed", detail)
    ev.facts.failure = failure
    _classify(session, ev, t)
    _initial(session, ev, t)


def _loss_never_backpropagated(session: Session, ev: Evidence, t: Trace) -> bool:
    """Training forwards computed a loss that carries gradients, and nothing ever called
    backward on it: the program trains, but the update is skipped (a framework step that
    received no loss, a backward behind a condition never true). Said as stage 6's
    finding at the loss's function; the framework's own warnings are quoted."""
    sites = [s for s in t.loss_sites if s.grad_calls]
    if not sites or t.counts.get("backward", 0) or t.counts.get("functional_grad", 0):
        return False
    site = max(sites, key=lambda s: s.grad_calls)
    said = [
        w["message"]
        for w in t.warnings
        if w["category"] not in ("DeprecationWarning", "FutureWarning", "PendingDeprecationWarning")
    ][:2]
    text = (
        f"{site.grad_calls} training loss calls ({site.fn} at {site.frame}) computed a loss with "
        f"gradients, {t.counts.get('step', 0)} optimizer step calls were made, and backward "
        "never ran: no parameter was updated"
        + (f"; the program warned: {' | '.join(said)}" if said else "")
    )
    ev.find(
        "step_not_called",
        status="confirmed",
        confidence="high",
        evidence=[runtime(text, site.frame, session, loss_calls=site.grad_calls, backward=0)],
        where=caller_places.discarding_caller(session, site.frame) or where(session, site.frame),
        why="the loss is computed and thrown away: without a backward pass and an update nothing learns",
        confirm=f"make the function at {site.frame} hand its loss to the update (return it from a framework's training step; call backward and step in a hand-written loop)",
        stage=Stage.OPTIMIZER,
    )
    return True


# finite losses a curve needs before its shape is named (fewer: the run is too short
# to tell flat from slow from healthy)
MIN_CURVE = 8

# how a run ends without the program raising: the sandbox's time limits, or sys.exit
STOPS = ("WallClockLimit", "CpuTimeLimit", "SystemExit")


def _raised(t: Trace):
    """The exception the program raised, not counting a stop by a limit or sys.exit."""
    return t.error if t.error is not None and t.error.type not in STOPS else None


def _crash_finding(session: Session, ev: Evidence, t: Trace) -> None:
    err = t.error
    assert err is not None
    if err.type in STOPS:
        return
    category, title = classify_crash(t, err.type, err.message)
    loc = where(session, err.repo_frame)
    ev.facts.symptom = "crash"
    last = t.loss_calls[-1] if t.loss_calls else None
    values = {"exception": err.type, "message": err.message[:500]}
    text = f"the training path raises {err.type}: {err.message[:300]}"
    if last is not None and category in ("loss_target_mismatch", "bad_labels"):
        text += (
            f" (last loss call {last.fn}: input {last.input.shape} {last.input.dtype}, "
            f"target {last.target.shape} {last.target.dtype}, target values {_values(last.target.values)})"
        )
        values.update(
            input_shape=last.input.shape,
            target_shape=last.target.shape,
            target_dtype=last.target.dtype,
        )
    ev.find(
        category,
        title=title,
        status="confirmed",
        confidence="high",
        evidence=[runtime(text, err.repo_frame, session, **values)],
        where=loc,
        why="the training path stops with this exception, so nothing after it (updates, evaluation) happens",
        confirm=f"run the command and read the traceback at {loc}"
        if loc
        else "run the command and read the traceback",
        detector="runtime.crash",
    )


def _values(values: dict[str, int] | None) -> str:
    if not values:
        return "n/a"
    keys = list(values)[:8]
    return "{" + ", ".join(keys) + ("…" if len(values) > 8 else "") + "}"


def _classify(session: Session, ev: Evidence, t: Trace) -> None:
    """Name the symptom from the loss curve (and the eval losses when there are some),
    phase by phase when the run trains in phases with different optimizers (a pretraining
    loss and a probe's loss are not one curve)."""
    raw = t.raw_curve()
    phases = [(a, b) for a, b in t.phases() if _finite(raw[a:b]) >= 2]
    if len(phases) < 2:
        phases = [(0, len(raw))]
    judged = [(a, b, *_judge(t, raw, a, b)) for a, b in phases]
    # the last phase is what the program ends with; an earlier one that blew up comes first
    a, b, symptom, why, stats = next(
        (j for j in judged[:-1] if j[2] in ("divergence", "crash")), judged[-1]
    )
    if stats is None or stats.n < MIN_CURVE:
        finite = stats.n if stats is not None else 0
        if _raised(t) is None and not (stats is not None and stats.nonfinite):
            # cut short by a limit (or the program's own exit), not a failure: too little
            # to classify
            more = (
                "the program itself ends there; a configuration that trains longer can be judged"
                if t.status == "completed"
                else "a larger --timeout (or --steps) lets more steps run"
            )
            ev.item(
                "loss_curve",
                "skipped",
                f"only {finite} finite loss value(s) before the run ended ({t.stop_reason or t.status}): "
                f"too few to classify; {more}",
            )
            ev.facts.symptom = None
            return
    if stats is None or stats.n < 2:
        ev.item(
            "loss_curve",
            "passed",
            "fewer than two finite loss values: the run crashed or diverged at once",
        )
        ev.facts.symptom = "crash" if _raised(t) else "divergence"
        return
    near = _near_chance(t)
    if near and len(phases) == 1:
        # said, not a symptom: what a model reaches is not known from here
        why = near if symptom == "healthy" else f"{why}; {near}"
    where = ""
    if len(phases) > 1:
        names = sorted({_optimizer(t, i) for i in t.step_optimizers[a:b]})
        others = "; ".join(
            f"phase {i + 1} {j[2]}" for i, j in enumerate(judged) if (j[0], j[1]) != (a, b)
        )
        where = (
            f"phase {phases.index((a, b)) + 1} of {len(phases)} (steps {a}-{b - 1}, "
            f"{', '.join(names)}; each phase judged on its own curve: {others}) "
        )
    ev.facts.symptom = symptom
    ev.facts.phase_symptoms = tuple(j[2] for j in judged) if len(phases) > 1 else ()
    # the verdicts read smoothed ends; the text states the runs table's statistics
    text = (
        f"{symptom}: {where}first loss {fmt(stats.first_recorded)}, settled {fmt(stats.settled)} "
        f"after {stats.n} steps (min {fmt(stats.minimum)}){'; ' + why if why else ''}"
    )
    ev.facts.symptom_evidence = text
    ev.item("loss_curve", "passed", text)


def _finite(raw: list[float | None]) -> int:
    return sum(1 for v in raw if v is not None and math.isfinite(v))


def _optimizer(t: Trace, index: int) -> str:
    opt = next((o for o in t.optimizers if o.index == index), None)
    return f"{opt.class_} #{index}" if opt else f"optimizer #{index}"


def _judge(t: Trace, raw: list[float | None], a: int, b: int) -> tuple[str, str, object]:
    """The symptom of the steps [a, b) of the run: (symptom, why, curve statistics)."""
    stats = curve_stats(raw[a:b])
    if stats is None or stats.n < 2:
        return "crash" if _raised(t) else "divergence", "", stats
    if stats.nonfinite or stats.last > 3 * abs(stats.first) + 1e-9:
        return (
            "divergence",
            f"{stats.nonfinite} non-finite losses"
            if stats.nonfinite
            else f"loss grew from {fmt(stats.first_recorded)} to {fmt(stats.settled)}",
            stats,
        )
    runaway = falls_without_bound(raw[a:b])
    if runaway is not None:
        return (
            "divergence",
            f"the loss falls without bound: {runaway.text()}",
            stats,
        )
    if _raised(t) is not None and b >= len(raw):
        return "crash", f"{t.error.type} after {t.n_steps} steps", stats
    if stats.rel_drop < 0.03:
        if stats.spread > 0.3:
            return (
                "oscillation",
                f"loss bounces (median step change {fmt(100 * stats.spread)}% of its level) without a trend",
                stats,
            )
        return "flat_loss", f"loss moved {fmt(100 * stats.settled_drop)}% in {stats.n} steps", stats
    if stats.rel_drop < 0.2:
        return (
            "slow_progress",
            f"loss fell only {fmt(100 * stats.settled_drop)}% in {stats.n} steps",
            stats,
        )
    return (*_evaluation(t, stats, a, b if b < len(raw) else None), stats)


def _near_chance(t: Trace) -> str | None:
    """The loss stopped improving near the chance level (a note; the symptom comes from the
    curve's own shape and the evaluations, never from a fixed fraction of chance)."""
    p = plateau(t, above=0.5, flat=0.05)
    if p is None:
        return None
    level, chance = p
    return f"the loss levelled off at {fmt(level)}, {of_chance(level, chance)}, over the second half of the run"


def _evaluation(t: Trace, stats, a: int = 0, b: int | None = None) -> tuple[str, str]:
    """Training learns: what do the program's own evaluations say, over the whole run (or
    the phase of steps [a, b))? Each evaluation pass is compared at the step it was made,
    so a run fast-forwarded after the traced steps is judged on what it evaluated, not on
    its first pass."""
    passes = [(s, v) for s, v in t.eval_curve() if s >= a and (b is None or s <= b)]
    if len(passes) < 2 or passes[-1][0] <= passes[0][0]:
        seen = f"only one evaluation pass was seen (after {passes[0][0]} steps)" if passes else ""
        return "healthy", seen
    steps = [s for s, _ in passes]
    values = [v for _, v in passes]
    first, last, best = values[0], values[-1], min(values)
    train = t.curve()
    trained = _train_drop(train, steps[0], steps[-1])
    span = f"between {steps[0]} and {steps[-1]} steps"
    if last > 1.1 * best and best < first and values.index(best) < len(values) - 1:
        return "overfitting", (
            f"the evaluation loss fell to {fmt(best)} and rose back to {fmt(last)} {span} while the training loss fell"
        )
    if trained is not None and trained > 0.3 and last > 0.97 * first:
        return "bad_evaluation", (
            f"the training loss fell {fmt(100 * trained)}% {span} while the evaluation loss stayed at {fmt(last)} (from {fmt(first)})"
        )
    return "healthy", f"evaluation loss {fmt(first)} -> {fmt(last)} {span}"


def _train_drop(curve: list[float], start: int, end: int) -> float | None:
    """Relative fall of the training loss between two optimizer steps."""
    if not curve or end <= start or start >= len(curve):
        return None
    a = curve[min(start, len(curve) - 1)]
    b = curve[min(end, len(curve) - 1)]
    return (a - b) / (abs(a) + 1e-12)


def _initial(session: Session, ev: Evidence, t: Trace) -> None:
    calls = t.train_loss_calls()
    if not calls:
        ev.item(
            "initial_loss",
            "not_applicable",
            "no recognised loss function was called (custom loss); first backward value "
            + fmt(t.curve()[0] if t.curve() else None),
        )
        return
    c = calls[0]
    chance = chance_level(c)
    first = c.value if isinstance(c.value, float) else None
    if chance is None or first is None:
        ev.item(
            "initial_loss",
            "not_applicable",
            f"{c.fn}: no chance level for this loss; first value {fmt(first)}",
        )
        return
    ratio = first / chance
    note = "near" if 0.5 < ratio < 2 else ("far above" if ratio >= 2 else "below")
    summed = summed_elements(c)
    per = element_chance(c.fn, c.input.shape)
    level = f"{fmt(chance)} ({fmt(per)} summed over {summed} elements)" if summed else fmt(chance)
    ev.item(
        "initial_loss",
        "passed",
        f"first {c.fn} {fmt(first)} vs chance level {level} ({note}; random weights need not hit it exactly)",
    )
    ev.facts.chance = chance
