"""Train/eval modes: training steps that run after an `eval()` with no `train()` in
between, evaluation that runs in training mode, and dropout that ignores the mode.

Execution is followed from each entry point (module level, functions no repo code
calls) through helpers, with every loop body laid out twice so that the end of one
iteration (or epoch) is seen before the start of the next: `model.train()` placed
before the epoch loop while validation calls `model.eval()` at the end of each epoch
is caught; `eval()` for validation with `train()` restored is not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import Analysis
from torch_investigate.tools.code.checks.base import CheckContext, check, finding, observe, spot
from torch_investigate.tools.code.checks.model_values import forward_methods
from torch_investigate.tools.code.events import Occurrence, contextual_objects
from torch_investigate.tools.code.flow import Flow, Obj, Value
from torch_investigate.tools.code.models import mode_dependent
from torch_investigate.tools.code.names import EVALUATION_NAME, last
from torch_investigate.tools.code.params import is_trained, module_ref, normalized_text, same_object
from torch_investigate.tools.records import Finding

AUXILIARY = re.compile(
    r"teacher|target|ema|frozen|pretrained|reference|(^|_)ref($|_)", re.IGNORECASE
)
DROPOUT_FUNCTIONS = frozenset(
    {"dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout"}
)


@dataclass(eq=False)
class _Mode:
    occurrence: Occurrence
    training: bool


def _text(o: Occurrence) -> str:
    recv = o.event.receiver
    return normalized_text(recv) if recv is not None else ""


class _Models:
    """Which model each event is about, resolved in its calling context (cached: the
    same occurrence is compared many times)."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow
        # Keyed by the occurrence itself (identity): holding it keeps ids from being reused.
        self._cache: dict[Occurrence, list[Obj]] = {}

    def objects(self, o: Occurrence) -> list[Obj]:
        cached = self._cache.get(o)
        if cached is None:
            found = contextual_objects(self.flow, o)
            cached = [x for x in found if x.kind in ("instance", "external")]
            self._cache[o] = cached
        return cached

    def same(self, a: Occurrence, b: Occurrence) -> bool:
        a_objs, b_objs = self.objects(a), self.objects(b)
        if a_objs and b_objs:
            return any(same_object(x, y) for x in a_objs for y in b_objs)
        return bool(_text(a)) and _text(a) == _text(b)

    def last_mode(self, modes: list[_Mode], o: Occurrence) -> _Mode | None:
        return next((m for m in reversed(modes) if self.same(m.occurrence, o)), None)


def _in_training_loop(a: Analysis, o: Occurrence) -> bool:
    """The innermost loop around the event computes gradients and steps."""
    return bool(o.loops) and a.loop_trains(o.loops[-1])


@check("eval_mode_in_training", "eval_mode_in_training", "train_mode_in_eval")
def train_eval_modes(ctx: CheckContext) -> Iterator[Finding]:
    """eval() reaching training steps; evaluation in train mode; mode-blind dropout."""
    reported: set[tuple[str, int]] = set()
    for found in [*_walk_entry_points(ctx), *_mode_blind_dropout(ctx)]:
        key = (found.category, found.line or 0)
        if key not in reported:
            reported.add(key)
            yield found


def _walk_entry_points(ctx: CheckContext) -> Iterator[Finding]:
    a = ctx.analysis
    models = _Models(ctx.flow)
    for region in a.root_regions(training_only=True):
        occurrences = a.programs.flatten(a.program(region), repeat_loops=2)
        modes: list[_Mode] = []
        forwards: list[Occurrence] = []
        trained = False
        for i, o in enumerate(occurrences):
            if o.kind in ("train_mode", "eval_mode"):
                modes = [m for m in modes if not models.same(m.occurrence, o)]
                modes.append(_Mode(o, o.kind == "train_mode"))
            elif o.kind == "forward":
                forwards.append(o)
                found = _evaluation_in_train_mode(ctx, models, o, modes, trained)
                if found is not None:
                    yield found
            elif o.kind == "backward" and _training_step(a, occurrences, i):
                for f in forwards:
                    found = _training_in_eval_mode(ctx, models, f, o, modes)
                    if found is not None:
                        yield found
                forwards = []
                trained = True


def _training_step(a: Analysis, occurrences: list[Occurrence], i: int) -> bool:
    """A backward that an optimizer step follows (not a saliency map or a probe)."""
    if _in_training_loop(a, occurrences[i]):
        return True
    for later in occurrences[i + 1 :]:
        if later.kind == "step":
            return True
        if later.kind == "backward":
            return False
    return False


def _trained_forward(ctx: CheckContext, o: Occurrence) -> bool:
    if o.event.receiver is None:
        return True
    return is_trained(
        ctx.analysis, module_ref(ctx.analysis, Value(o.event.receiver, o.event.value.frame))
    )


def _training_in_eval_mode(
    ctx: CheckContext,
    models: _Models,
    forward: Occurrence,
    backward: Occurrence,
    modes: list[_Mode],
) -> Finding | None:
    if (
        forward.grad_disabled
        or AUXILIARY.search(_text(forward))
        or not _trained_forward(ctx, forward)
    ):
        return None
    mode = models.last_mode(modes, forward)
    if mode is None or mode.training:
        return None
    at = spot(ctx, mode.occurrence.event.value)
    forward_at = spot(ctx, forward.event.value)
    return finding(
        "eval_mode_in_training",
        at,
        confidence="high" if not mode.occurrence.conditional else "medium",
        evidence=[
            observe(at, "the model is put in eval mode here"),
            observe(forward_at, "and the next training forward runs with no train() in between"),
            observe(spot(ctx, backward.event.value), "its loss is backpropagated here"),
        ],
        why=(
            "In eval mode dropout is off and BatchNorm uses (and stops updating) its running "
            "statistics: from the first evaluation on, the model trains in a different regime "
            "than intended, which typically slows or stalls learning and overfits."
        ),
        confirm=(
            f"Log model.training at {forward_at.file}:{forward_at.line} during training (False "
            f"after the first evaluation); then call model.train() after the eval code (or at "
            "the start of every epoch) and compare."
        ),
    )


def _evaluation_in_train_mode(
    ctx: CheckContext, models: _Models, o: Occurrence, modes: list[_Mode], trained: bool
) -> Finding | None:
    a = ctx.analysis
    symbol = ctx.index.enclosing_symbol(o.event.file, o.event.line)
    evaluating = EVALUATION_NAME.search(symbol) or o.grad_disabled
    if not evaluating or _in_training_loop(a, o) or AUXILIARY.search(_text(o)):
        return None
    behaving = [x for x in models.objects(o) if mode_dependent(a, x)]
    if not behaving:
        return None
    mode = models.last_mode(modes, o)
    if mode is not None and not mode.training:
        return None
    if mode is None and not trained:
        return None  # an entry point that only evaluates: the caller's mode is unknown
    at = spot(ctx, o.event.value)
    evidence = [observe(at, f"evaluation forward in {symbol}")]
    if mode is not None:
        evidence.append(
            observe(
                spot(ctx, mode.occurrence.event.value), "the last mode change before it is train()"
            )
        )
    else:
        evidence.append(
            observe(at, "after training, with no eval() before it (modules start in train mode)")
        )
    names = ", ".join(sorted({x.name for x in behaving}))
    return finding(
        "train_mode_in_eval",
        at,
        confidence="medium",
        evidence=evidence,
        why=(
            f"{names} has dropout/BatchNorm: evaluated in train mode, dropout stays active "
            "and BatchNorm normalizes with (and updates its statistics from) evaluation "
            "batches, so reported metrics are noisy and wrong."
        ),
        confirm=(
            f"Log model.training at {at.file}:{at.line} (True); then call model.eval() before "
            "evaluating and model.train() after, and compare the metrics."
        ),
    )


def _mode_blind_dropout(ctx: CheckContext) -> Iterator[Finding]:
    """F.dropout without training=self.training; attention dropout_p in eval."""
    for fm in forward_methods(ctx.analysis):
        body = sx.function_body(fm.node)
        if body is None:
            continue
        for call in sx.calls_in(body):
            fn = sx.call_function(call)
            resolved = fm.unit.resolve_callee(fn)[1] if fn is not None else ""
            name = last(resolved)
            if not resolved.startswith("torch.nn.functional."):
                continue
            if name in DROPOUT_FUNCTIONS:
                flag = sx.argument(call, 2, "training")
                if flag is not None and sx.flat(flag) != "True":
                    continue
                problem = (
                    "F.dropout defaults to training=True"
                    if flag is None
                    else "training=True is hard-coded"
                )
            elif name == "scaled_dot_product_attention":
                p = sx.argument(call, 4, "dropout_p")
                if p is None or sx.number(p) == 0.0 or "training" in sx.flat(p):
                    continue
                problem = f"dropout_p={sx.flat(p)} is passed whatever the mode"
            else:
                continue
            at = spot(ctx, Value(call, fm.frame))
            yield finding(
                "train_mode_in_eval",
                at,
                confidence="medium" if name in DROPOUT_FUNCTIONS else "low",
                evidence=[observe(at, f"in {fm.symbol.name}.forward, {problem}")],
                why=(
                    "The functional form does not follow model.eval(): dropout stays active "
                    "during evaluation, so validation outputs are random and metrics too low."
                ),
                confirm=(
                    "Run the model twice on the same batch after model.eval() (outputs differ); "
                    f"then pass training=self.training (or dropout_p only when self.training) "
                    f"at {at.file}:{at.line}."
                ),
            )
