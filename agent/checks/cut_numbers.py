"""Stage 5, numbers cut from the graph: a value taken out of a tensor that carries
gradient (`float(t)`, `t.item()`) and used again in the training computation
(tools/trace/interventions/reentry.py). The value counts, its gradient is gone."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import cut_parameters, runtime
from torch_investigate.agent.checks.effects import Effect, intervene
from torch_investigate.agent.checks.grad_gap import gradient_gap
from torch_investigate.agent.checks.locations import where
from torch_investigate.agent.checks.numbers import listed
from torch_investigate.agent.checks.spread import chance_band
from torch_investigate.tools.tracefile.trace import Frame, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


def numbers_explain(session: Session, ev: Evidence, t: Trace, cut: bool) -> bool:
    """A finding from numbers cut out of the graph. With parameters the loss cannot reach
    (`cut`), only a number computed with and taken back in (`total + w * loss.item()`)
    explains them: its rerun gives the tensor back there. Without, the number taken back
    as it was cut, a term detached or rebuilt from numbers, then one computed with."""
    if cut:
        rebuilt = [
            f
            for f in session.protocol.ledger.all()
            if f.category == "loss_detached_scale" and f.status == "confirmed"
        ]
        if rebuilt:  # stage 4 found the loss itself rebuilt from numbers: that explains them
            ev.item("reachability", "failed", f"no parameter is reached: {rebuilt[0].title}")
            return True
        return reentered_cut(session, ev, t, ("reentered_number",)) or reentered_cut(
            session, ev, t, unreached=[p.name for p in cut_parameters(t)]
        )
    return (
        reentered_cut(session, ev, t)
        or cut_term(session, ev, t)
        or number_term(session, ev, t)
        or reentered_cut(session, ev, t, ("reentered_number",))
        or gradient_gap(session, ev, t)
    )


def reentered_cut(
    session: Session,
    ev: Evidence,
    t: Trace,
    kinds: tuple[str, ...] = ("reentered_cut",),
    unreached: list[str] | None = None,
) -> bool:
    """A number cut from a scalar that carries gradient (`float(t)`, `t.item()`) and used
    again in the training computation: every parameter can still be reached through other
    paths, but that term's gradient is gone. Rerun with the tensor given back in its place;
    confirmed when the model then learns better.

    With `unreached`, the parameters the loss cannot reach, a number taken back as it was
    cut (a logging dict's `.item()` summed into the loss with weight 1) explains them only
    when the rerun reaches some of them or learns better; else False, and nothing found."""
    sites = [o for o in t.ops if o.kind in kinds and o.phases.get("train")]
    if not sites:
        return False
    o = sites[0]
    text = (
        f"a number cut at {o.cut} from a tensor that carries gradient is used again by "
        f"`{o.op}` at {o.frame} in the training computation: that value reaches the loss "
        "without its gradient"
    )
    eff = intervene(session, {"rejoin_cuts": True}, "with the tensor used in place of its number")
    if not eff.improved and o.op in ADDED:
        _added_term_beyond_chance(session, eff)
    place = where(session, o.cut) or where(session, o.frame)
    if unreached is not None:
        reached = _reached_when_rejoined(session, unreached)
        if not (eff.improved or reached):
            return False
        if reached:
            text += (
                f"; with the tensor given back there the loss reaches {listed(reached)}, "
                "which it cannot as written"
            )
        # the cut serves the logging; the defect is where the number is taken back
        place = where(session, o.frame) or place
    # the whole loss rebuilt from numbers reaches no parameter at all: the loss itself
    # carries no gradient (a term lost beside others that still train is a cut graph)
    trains = any(p.graph.walks > 0 and p.graph.reachable > 0 for p in t.parameters)
    ev.find(
        "detached_graph" if trains else "loss_detached_scale",
        status="confirmed" if eff.improved else "plausible",
        confidence="high" if eff.improved else "medium",
        evidence=[runtime(text, o.frame, session), eff.observation()],
        where=place,
        why="a term turned into a Python number still counts in the loss's value but no gradient flows through it: what it should teach the model is lost",
        confirm=f"keep the tensor at {o.cut} (no float()/.item()) where the result feeds the loss, and compare",
    )
    if eff.improved:
        ev.item("reachability", "failed", f"{text}; {eff.text}")
    else:
        ev.item(
            "reachability",
            "not_applicable",
            f"{text}; {eff.text}: within this run the gradient it lacks does not decide the loss",
            untested=True,
        )
    return True


def _reached_when_rejoined(session: Session, names: list[str]) -> list[str]:
    """Of the parameters named, those the loss reaches in the rerun that gives the cut
    numbers their tensors back."""
    run = session.runner.get({"rejoin_cuts": True})
    after = {p.name: p for p in (run.trace.parameters if run and run.trace else [])}
    return [n for n in names if (q := after.get(n)) is not None and q.graph.reachable > 0]


# a cut number taken back by these ops is a term added to the loss: its value counts, its
# gradient is gone (a scale, `loss / loss.item()`, may be a deliberate normalization)
ADDED = {"add", "sub", "__add__", "__radd__", "__sub__", "__rsub__", "rsub"}


def _added_term_beyond_chance(session: Session, eff: Effect) -> None:
    """A term added to the loss as a number teaches nothing whatever its size: the rerun
    with its gradient given back proves the loss as written lacks it when the loss then
    settles lower than every reseeded run as written by more than those differ (a KL
    term beside a reconstruction sum several times larger moves the total by a few
    percent, below the size rule that judges interventions in general)."""
    band = chance_band(session, eff.steps) if eff.steps else None
    if band is None or not band.moved or eff.iv_final is None or eff.base_final is None:
        return
    if eff.iv_final < eff.base_final and band.beyond(eff.iv_final):
        eff.improved = True
        eff.text += f"; beyond chance: {band.text()}"


def cut_term(session: Session, ev: Evidence, t: Trace) -> bool:
    """A value detached in the training forward or on its way to the loss (`.data` in a loss
    helper) that the loss adds as a term (through
    sums, differences, averages and products with plain numbers only): its value counts,
    its gradient is gone, whatever it was computed from (a flow's log-determinant, a KL
    term). A detached value the loss uses as data (a stop-gradient target, an advantage
    that weighs a prediction) is no term and is not marked. Rerun with the cut keeping the
    graph; confirmed when the model then learns better."""
    if not t.cut_terms:
        return False
    frame = t.cut_terms[0]
    text = (
        f"the training loss adds a value cut from the graph at {frame} (a detach or `.data` "
        "in the forward or on its way to the loss, or a torch.autograd.grad without "
        "create_graph), through sums and averages "
        "only: that term counts in the loss's value, but no gradient flows through it to "
        "the parameters it was computed from"
    )
    eff = intervene(session, {"keep_graph": True}, "with the cut keeping the graph")
    if not eff.improved:
        _added_term_beyond_chance(session, eff)
    ev.find(
        "detached_graph",
        status="confirmed" if eff.improved else "plausible",
        confidence="high" if eff.improved else "medium",
        evidence=[runtime(text, frame, session), eff.observation()],
        where=where(session, frame),
        why="a term detached before it is added to the loss is a constant to the optimizer: what it should teach the model (a log-determinant, a regularizer) is lost",
        confirm=f"keep the graph at {frame} (no .detach(); create_graph=True for autograd.grad) where it feeds the loss, and compare",
    )
    if eff.improved:
        ev.item("reachability", "failed", f"{text}; {eff.text}")
    else:
        ev.item(
            "reachability",
            "not_applicable",
            f"{text}; {eff.text}: within this run the gradient it lacks does not decide the loss",
            untested=True,
        )
    return True


def number_term(session: Session, ev: Evidence, t: Trace) -> bool:
    """A number made a tensor inside the training iteration (`torch.tensor(total / n)` of
    losses taken out with .item()) that the backward'ed loss adds, whose value changes
    from step to step: it depends on the model, counts in the loss, and carries no
    gradient. A constant (`torch.tensor(0.0)` that a sum starts from) is no term."""
    for site, values in t.number_terms.items():
        if len({round(v, 12) for v in values}) < 3:
            continue
        file, _, line = site.rpartition(":")
        frame = Frame(file=file, line=int(line))
        shown = ", ".join(f"{v:.4g}" for v in values[:4])
        text = (
            f"the training loss adds a tensor made from a number at {frame}, whose value "
            f"changes from step to step ({shown}, ...; {len(set(values))} values in "
            f"{len(values)} steps): it is computed from the model, yet as a new tensor it "
            "carries no gradient back to it"
        )
        ev.find(
            "detached_graph",
            status="confirmed",
            confidence="medium",
            evidence=[runtime(text, frame, session, values=values[:20])],
            where=where(session, frame),
            why="a loss term rebuilt from numbers (.item(), float()) is a constant to the optimizer: what it should teach the model is lost",
            confirm=f"keep the tensors at {frame} (sum the loss tensors, not their .item() values) and check that loss.grad_fn reaches the model through that term",
        )
        ev.item("reachability", "failed", text)
        return True
    return False
