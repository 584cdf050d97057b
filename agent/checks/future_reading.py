"""Stage 2, a next-token model that reads its own target: the targets are the input moved
one position, and the model's outputs before a position move when only the inputs after it
change (tools/trace/future.py). What carries the later inputs back decides what it is: a
softmax normalized over another axis than the product after it sums over (attention
weights normalized over the queries) is a dimension defect whose consequence this is; an
op of the model's own forward that moves positions (a reshape where a transpose was meant),
with no module of the repo carrying them, is examined by stage 3; otherwise the model sees
the future (no causal mask) and the leakage is confirmed here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks import places
from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.tools.tracefile.trace import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

# ops of a forward that move positions of a batch (tools/trace/ops.py)
POSITION_MOVERS = ("batch_transpose", "permuting_reshape")


def sees_future(session: Session, ev: Evidence, t: Trace) -> bool:
    p = t.future_probe
    if p is None or not p.sees_future or p.cut is None:
        return False
    return (
        _softmax_axis(session, ev, t)
        or _moved_positions(session, ev, t)
        or _confirmed_leak(session, ev, t)
    )


def _probe_text(t: Trace) -> str:
    p = t.future_probe
    return (
        "the training targets are the model's input moved one position (the next token); "
        f"with the inputs from position {p.cut} of {p.length} on replaced by other tokens of "
        f"the batch, the model's outputs before position {p.cut} move by "
        f"{fmt(100 * (p.moved_before or 0.0))}% of their scale (eval mode, one RNG state; two "
        "unchanged forwards agree)"
    )


def _softmax_axis(session: Session, ev: Evidence, t: Trace) -> bool:
    sites = [o for o in t.ops if o.kind == "softmax_axis" and o.phases.get("train")]
    if not sites:
        return False
    o = sites[0]
    axis = f"axis {o.dim} of a {o.shape} tensor"
    text = (
        f"the softmax at {o.frame} normalizes {axis}, but the product at {o.caller} sums over "
        f"its last axis ({'the second to last' if o.dim == -2 else 'another'} is normalized): each "
        "output mixes weights normalized across other positions"
    )
    ev.find(
        "wrong_dimension",
        status="confirmed",
        confidence="high",
        evidence=[
            runtime(text, o.frame, session),
            runtime(
                f"{_probe_text(t)}: earlier positions read later inputs through it", None, session
            ),
        ],
        where=where(session, o.frame) or first_static_location(session, "wrong_dimension"),
        why="attention weights normalized over the wrong axis do not sum to one over what each "
        "output averages; normalized across the queries, every position's weights depend on "
        "the later positions, so a causal mask no longer keeps the future out",
        confirm=f"normalize over the axis the product sums over (softmax(..., dim=-1) before "
        f"`@ v`) at {o.frame}, then change only the last token and check that earlier outputs do not move",
    )
    ev.item("leakage", "failed", f"{_probe_text(t)}; explained by the softmax at {o.frame}: {text}")
    return True


def _moved_positions(session: Session, ev: Evidence, t: Trace) -> bool:
    p = t.future_probe
    if [m for m in p.mixers if _repo_class(session, m.class_)]:
        return False
    moves = [o for o in t.ops if o.kind in POSITION_MOVERS and o.in_forward and o.count]
    if not moves:
        return False
    o = moves[0]
    text = (
        f"{_probe_text(t)}; no module of the repo carries later inputs back, but `{o.op}` at "
        f"{o.frame} moves the batch's positions inside the forward: stage 3 examines it, and the "
        "later inputs may reach earlier positions through it"
    )
    ev.find(
        "split_leakage",
        title="each position's output reads the inputs after it (its own target)",
        status="plausible",
        confidence="medium",
        evidence=[runtime(text, o.frame, session)],
        where=where(session, o.frame) or places.dataset_class(session, p.model_class, ("forward",)),
        why="a model whose earlier positions read later inputs copies the next input instead of predicting it",
        confirm=f"fix the axis order at {o.frame}, then change only the last token and check that earlier outputs do not move",
    )
    ev.item("leakage", "failed", text)
    return True


def _confirmed_leak(session: Session, ev: Evidence, t: Trace) -> bool:
    """The targets are the model's input moved one position, and the model's outputs
    before a position move when only the inputs after it change: each position reads its
    own target (tools/trace/future.py)."""
    p = t.future_probe
    text = f"{_probe_text(t)}: each position reads the inputs after it, its own target among them"
    own = [m for m in p.mixers if _repo_class(session, m.class_)]
    if own:
        text += f"; the first module that carries later inputs to earlier positions is `{own[0].module}` ({own[0].class_})"
    ev.find(
        "split_leakage",
        title="each position's output reads the inputs after it (its own target)",
        status="confirmed",
        confidence="high",
        evidence=[runtime(text, None, session, moved_before=p.moved_before, cut=p.cut)],
        where=(own and places.dataset_class(session, own[0].class_, ("forward", "__call__")))
        or places.dataset_class(session, p.model_class, ("forward", "__call__"))
        or first_static_location(session, "split_leakage"),
        why="a model that sees the positions after the one it predicts copies the next input "
        "instead of predicting it: the training loss falls far below what the task allows, "
        "and generation, which has no future to read, fails",
        confirm="feed one sequence, change only its last token, and compare the outputs at the "
        "earlier positions: they must not move (a causal mask: torch.tril, or is_causal=True)",
    )
    ev.item("leakage", "failed", text)
    return True


def _repo_class(session: Session, name: str) -> bool:
    return any(s.kind == "class" for s in session.index.find_symbols(name))
