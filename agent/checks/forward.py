"""Stage 3: the forward pass — shapes, silent broadcasting, reductions and softmax over
the batch dimension, per-sample independence, and whether the output depends on the input."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks import caller_places
from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.baseline import (
    MODULE_LESS,
    module_less,
    numerically_dead,
    runtime,
    usable,
)
from torch_investigate.agent.checks.effects import compared_steps, intervene
from torch_investigate.agent.checks.gather_axis import picked_across
from torch_investigate.agent.checks.locations import first_static_location, model_location, where
from torch_investigate.agent.checks.loss_operands import (
    cross_broadcast_losses,
    prediction_of,
    target_of,
)
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.agent.checks.token_layout import scrambled_sequence
from torch_investigate.tools.records import Stage
from torch_investigate.tools.trace.loss_kinds import REGRESSION
from torch_investigate.tools.tracefile.trace import OpSite, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

ITEMS = ("shapes", "broadcasting", "batch_dimension", "sample_independence", "input_dependence")


@check(Stage.FORWARD)
def shapes(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ITEMS)
    if t is None:
        return
    fws = t.train_forwards()
    if not fws:
        if module_less(t):
            ev.item("shapes", "not_applicable", MODULE_LESS)
        else:
            ev.item("shapes", "skipped", "no training forward recorded")
        return
    f = fws[0]
    ins = ", ".join(f"{i.shape} {i.dtype}" for i in f.inputs) or "no tensor inputs"
    outs = ", ".join(str(o) for o in f.outputs) or "no tensor output"
    if _permuting_reshape(session, ev, t) or scrambled_sequence(session, ev, t):
        return
    ev.item(
        "shapes",
        "passed",
        f"{f.model}: inputs {ins} -> outputs {outs} ({len(fws)} training forwards recorded)",
    )


def _permuting_reshape(session: Session, ev: Evidence, t: Trace) -> bool:
    """A reshape in the training forward whose result holds the input's sizes in another
    order (`(B, N, 3)` -> `(B, 3, N)`): the values are read in the wrong order, as when a
    reshape stands where a transpose was meant. Confirmed when doing it as a permute makes
    the model learn better; a reshape that means it (a reordering of data laid out that
    way) makes no such difference and stays a suspicion."""
    sites = [
        o
        for o in t.ops
        if o.kind == "permuting_reshape" and (o.phases.get("train") or o.phases.get("data"))
    ]
    if not sites:
        return False
    o = sites[0]
    text = (
        f"`{o.op}` at {o.frame} turns a {o.shapes[0]} tensor into {o.shapes[1]}: its axes in "
        "another order (some merged), so values that belonged to one axis are read along another"
    )
    eff = intervene(session, {"reshape_as_permute": True}, "with that reshape done as a permute")
    ev.find(
        "reshape_scramble",
        status="confirmed" if eff.improved else "plausible",
        confidence="high" if eff.improved else "low",
        evidence=[runtime(text, o.frame, session, shapes=o.shapes), eff.observation()],
        where=where(session, o.frame) or first_static_location(session, "reshape_scramble"),
        why="reshape keeps the memory order: laying (B, N, C) out as (B, C, N) mixes points and coordinates instead of swapping the axes",
        confirm=f"replace the reshape at {o.frame} by .permute/.transpose (then .contiguous() if a view follows) and compare",
    )
    ev.item("shapes", "failed" if eff.improved else "passed", text + "; " + eff.text)
    return True


@check(Stage.FORWARD)
def broadcasting(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    calls = cross_broadcast_losses(t)
    in_loss = [b for b in t.backwards if b.broadcast_in_graph]
    grew = [o for o in t.ops if o.kind == "broadcast" and o.phases.get("train")]
    # operands the program lined up itself (`s.unsqueeze(2) - s.unsqueeze(1)`): all pairs
    # on purpose, as a ranking or contrastive loss means them
    designed = [o for o in grew if o.deliberate]
    grew = [o for o in grew if not o.deliberate]
    if calls:
        c = calls[0]
        text = (
            f"{c.fn} at {c.frame} compares input {c.input.shape} with target {c.target.shape}: they broadcast to "
            f"{c.broadcast_shape}, so every prediction is compared with every target"
        )
        _broadcast_finding(
            session,
            ev,
            t,
            text,
            c.frame,
            {"input": c.input.shape, "target": c.target.shape, "broadcast": c.broadcast_shape},
        )
        return
    if in_loss:
        key = in_loss[0].broadcast_in_graph
        site = next((o for o in grew if o.frame and f"{o.frame.file}:{o.frame.line}" == key), None)
        if site is not None:
            text = (
                f"`{site.op}` at {site.frame} combines {site.shapes[0]} with {site.shapes[1]} into {site.out_shape}, "
                f"and the loss is computed from that result"
            )
            _broadcast_finding(
                session, ev, t, text, site.frame, {"shapes": site.shapes, "out": site.out_shape},
                inside_forward=site.in_forward,
            )  # fmt: skip
            return
    if designed and not grew:
        listing = "; ".join(
            f"{o.op} {o.shapes} -> {o.out_shape} at {o.frame}" for o in designed[:3]
        )
        ev.item(
            "broadcasting",
            "passed",
            f"{len(designed)} broadcasts over axes the program added itself (unsqueeze, None "
            f"indexing): pairwise by design ({listing})",
        )
    elif grew:
        listing = "; ".join(f"{o.op} {o.shapes} -> {o.out_shape} at {o.frame}" for o in grew[:3])
        ev.item(
            "broadcasting",
            "passed",
            f"{len(grew)} growing broadcasts in training code, none feeding the loss ({listing})",
        )
    else:
        ev.item(
            "broadcasting",
            "passed",
            "no operation broadcast two smaller operands into a larger result on the training path",
        )


def _broadcast_finding(
    session: Session,
    ev: Evidence,
    t: Trace,
    text: str,
    frame,
    values: dict,
    *,
    inside_forward: bool = False,
) -> None:
    evidence = [runtime(text, frame, session, **values)]
    eff = intervene(
        session, {"fix_broadcast": True}, "with the loss input reshaped to the target's shape"
    )
    evidence.append(eff.observation())
    # an outer product inside the model that the loss reads, where reshaping the loss's
    # input to its target changes nothing (no target, or shapes that already agree), is
    # the model's own arithmetic as far as the run can tell
    same = eff.base_final is not None and eff.iv_final == eff.base_final
    suspicion = inside_forward and same
    ev.find(
        "broadcast_mismatch",
        status="plausible" if suspicion else "confirmed",
        confidence="medium" if suspicion else "high",
        evidence=evidence,
        where=first_static_location(session, "broadcast_mismatch")
        or caller_places.caller_passing(session, frame)
        or where(session, frame),
        why="the loss averages all pairwise differences instead of each prediction against its own target; its minimum is not the right weights",
        confirm="assert pred.shape == target.shape before the loss; squeeze/view the prediction to the target's shape",
    )
    if suspicion:
        ev.item("broadcasting", "not_applicable", f"{text}; {eff.text}", untested=True)
    else:
        ev.item("broadcasting", "failed", text)


def varying_sample_axis(t: Trace, axis: int) -> list[int]:
    """The sizes the training inputs' sample axis takes when it takes three or more (a
    DataLoader's batches take one, and a shorter last): then that axis holds a sentence's
    tokens or a graph's nodes, one sample per forward, not a batch. Empty otherwise."""
    sizes = sorted(
        {
            f.inputs[0].shape[axis]
            for f in t.train_forwards()
            if f.inputs and len(f.inputs[0].shape) > axis
        }
    )
    return sizes if len(sizes) >= 3 else []


@check(Stage.FORWARD)
def batch_dimension(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None or picked_across(session, ev, t):
        return
    probe = t.probes.get("forward")
    mixing = (
        probe is not None
        and probe.status == "ok"
        and probe.independent is False
        and not varying_sample_axis(t, probe.sample_axis or 0)
    )
    sites = [
        o
        for o in t.ops
        if o.kind == "batch_dim" and (o.in_forward or o.phases.get("train") or not o.phases)
    ]
    forward_sites = [o for o in sites if o.in_forward]
    loss_prov = [
        c
        for c in t.train_loss_calls()
        if c.input.provenance
        and c.input.provenance.op in ("softmax", "log_softmax")
        and c.input.provenance.dim == 0
    ]
    site: OpSite | None = forward_sites[0] if forward_sites else None
    independent = probe is not None and probe.status == "ok" and probe.independent is True
    if site is not None and not loss_prov and independent:
        # the run shows no sample's output depends on another: statistics taken once (a
        # data-dependent initialization) or kept aside, not a reduction that couples them
        ev.item(
            "batch_dimension",
            "passed",
            f"{site.op}(dim=0) at {site.frame} reduces over the batch, but changing one sample "
            "leaves the others' outputs unchanged (sample_independence): it does not couple samples",
        )
        return
    if site is not None or loss_prov:
        if site is not None:
            d = site.dim or 0
            text = (
                f"{site.op}(dim={d}{' implied' if site.implicit else ''}) at {site.frame} on a "
                f"{site.shape} tensor whose {'first dimension' if d == 0 else f'dimension {d}'} "
                "is the batch" + (" (moved there by a transpose in the forward)" if d else "")
            )
            frame = site.frame
        else:
            c = loss_prov[0]
            text = f"the {c.fn} input is a {c.input.provenance.op} over dim 0 (the batch) of a {c.input.shape} tensor"
            frame = c.input.provenance.frame
        evidence = [runtime(text, frame, session)]
        if mixing:
            evidence.append(
                runtime(
                    f"changing the order of the batch rows changes each sample's output by up to {fmt(probe.cross_sample_relative)} of the output scale: samples are mixed",
                    None,
                    session,
                )
            )
        ev.find(
            "wrong_dimension",
            status="confirmed" if mixing or loss_prov else "plausible",
            confidence="high" if mixing or loss_prov else "medium",
            evidence=evidence,
            where=where(session, frame) or first_static_location(session, "wrong_dimension"),
            why="normalizing or reducing over the batch couples samples: each prediction depends on the others in its batch, and batches of different size or order give different answers",
            confirm="use dim=-1 (the class axis) and check that each output row sums to 1 for a batch of 2 and of 32",
        )
        if mixing or loss_prov:
            ev.item("batch_dimension", "failed", text)
        else:
            ev.item(
                "batch_dimension",
                "not_applicable",
                f"{text}; whether it couples samples the forward probe could not tell",
                untested=True,
            )
        return
    ev.item(
        "batch_dimension",
        "passed",
        "no softmax/argmax/reduction over dim 0 of a batch-sized tensor inside the forward",
    )


@check(Stage.FORWARD)
def sample_independence(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    probe = t.probes.get("forward")
    if probe is None and module_less(t):
        ev.item("sample_independence", "not_applicable", MODULE_LESS)
        ev.item("input_dependence", "not_applicable", MODULE_LESS)
        return
    if probe is not None and probe.status == "not_applicable":
        ev.item("sample_independence", "not_applicable", probe.reason)
        ev.item("input_dependence", "not_applicable", probe.reason)
        return
    if probe is None or probe.status != "ok":
        ev.item(
            "sample_independence",
            "skipped",
            f"the probe could not run: {probe.reason if probe else 'no training forward'}",
        )
        ev.item(
            "input_dependence",
            "skipped",
            f"the probe could not run: {probe.reason if probe else 'no training forward'}",
        )
        return
    axis = (
        f" (the samples are on axis {probe.sample_axis} of the input)" if probe.sample_axis else ""
    )
    if probe.independent and probe.stochastic:
        ev.item(
            "sample_independence",
            "passed",
            f"changing one of {probe.batch_size} samples leaves the other outputs unchanged (max deviation {fmt(probe.cross_sample_relative)} of the output scale, eval mode, every forward from the same random state since it samples){axis}",
        )
    elif probe.independent and probe.pairwise:
        ev.item(
            "sample_independence",
            "passed",
            f"the output holds one entry per pair of the {probe.batch_size} samples (a [batch, batch] score, as in-batch negatives compute): reordering the samples reorders its rows and columns the same way, and changing one sample moves only its own pairs (max deviation {fmt(probe.cross_sample_relative)} of the output scale, eval mode){axis}",
        )
    elif probe.independent:
        ev.item(
            "sample_independence",
            "passed",
            f"reordering the {probe.batch_size} rows of a batch reorders the outputs the same way (max deviation {fmt(probe.cross_sample_relative)} of the output scale, eval mode){axis}",
        )
    elif sizes := varying_sample_axis(t, probe.sample_axis or 0):
        ev.item(
            "sample_independence",
            "not_applicable",
            f"the rows the probe reordered are no batch of samples: the first axis of the "
            f"training inputs takes {len(sizes)} sizes ({', '.join(map(str, sizes[:6]))}"
            f"{', ...' if len(sizes) > 6 else ''}), as a sequence's positions or a graph's "
            "nodes do, which the forward relates by design",
        )
    else:
        text = f"in eval mode, reordering the rows of a {probe.batch_size}-sample batch changes outputs by up to {fmt(probe.cross_sample_relative)} of their scale beyond the reordering: samples influence each other"
        # reordering and changing one sample held, only a batch of another size moved the
        # outputs: a normalization over every sample, not rows stitched together
        by_size = probe.cross_sample_relative < 1e-4
        if by_size:
            text = f"in eval mode, the first {probe.batch_size // 2} samples of a {probe.batch_size}-sample batch forwarded alone get outputs up to {fmt(probe.split_relative)} of the output scale away from those they got in the whole batch (reordering the rows or changing one of them moves nothing): the forward normalizes over every sample of the batch"
        already = any(f.category == "wrong_dimension" for f in ev.findings)
        # a reshape that moves the batch dimension stitches samples together; a transpose
        # moves it exactly, so it stands for the mixing only when no reduction over the
        # moved axis was seen (that one is the wrong dimension, found above): a reshape to
        # the same sizes before it (`x.reshape(d, b).transpose(0, 1)` with d == b) hides
        reshape = next((o for o in t.ops if o.kind == "batch_reshape"), None)
        moved = next((o for o in t.ops if o.kind == "batch_transpose"), None)
        site = reshape or moved
        if not already and site is not None and not by_size:
            how = (
                f"{site.op} at {site.frame} turns {site.shapes[0]} into {site.shapes[1]}, moving the batch dimension without a permute"
                if site is reshape
                else f"{site.op} at {site.frame} moves the batch dimension of a {site.shape} tensor inside the forward"
            )
            ev.find(
                "reshape_scramble",
                status="confirmed",
                confidence="high" if site is reshape else "medium",
                evidence=[runtime(text, None, session), runtime(how, site.frame, session)],
                where=where(session, site.frame)
                or first_static_location(session, "reshape_scramble"),
                why="view/reshape reinterprets memory; without moving the dimensions into place first, rows of different samples are stitched together",
                confirm="perturb sample 0 of a batch and check that only output 0 changes; permute/transpose before the reshape, not after",
            )
        elif not already:
            loc = first_static_location(
                session, "wrong_dimension", "reshape_scramble"
            ) or model_location(session, t)
            ev.find(
                "wrong_dimension",
                status="confirmed",
                confidence="medium",
                evidence=[runtime(text, None, session)],
                where=loc,
                why="an operation in the forward mixes samples of a batch (a reduction, attention or reshape across the batch axis)",
                confirm="perturb sample 0 of a batch in eval mode and check which outputs change; bisect the forward to the op that mixes them",
            )
        ev.item("sample_independence", "failed", text)
    numeric = (
        numerically_dead(t)
        if (probe.ignores_input or (probe.inputs_differ and probe.rows_identical))
        else None
    )
    if probe.all_zero and (probe.ignores_input or probe.rows_identical):
        ev.item(
            "input_dependence",
            "not_applicable",
            "every output of the probed batch is exactly zero: a zero factor (a readout still "
            "at its zero start, as when nothing trains it) leaves no value that could show "
            "whether the forward reads its input; stages 5 and 6 examine what trains it",
            untested=True,
        )
    elif numeric:
        ev.item(
            "input_dependence",
            "passed",
            f"the forward uses its input, but the output is constant because {numeric}; stage 8 examines initialization and activations",
        )
    elif probe.ignores_input or (probe.inputs_differ and probe.rows_identical):
        text = (
            "outputs did not change when the batch rows were reordered"
            if probe.ignores_input
            else "every sample gets the same output although the inputs differ"
        )
        ev.find(
            "output_ignores_input",
            status="confirmed",
            confidence="high",
            evidence=[runtime(f"{text} (output scale {fmt(probe.output_scale)})", None, session)],
            where=first_static_location(session, "output_ignores_input")
            or model_location(session, t),
            why="a model whose output does not depend on its input can only learn the average target",
            confirm="feed two different batches through model.eval() and compare the outputs; trace which tensor the forward really returns",
        )
        ev.item("input_dependence", "failed", text)
    else:
        ev.item(
            "input_dependence",
            "passed",
            f"outputs change by up to {fmt(probe.change_when_rows_reordered)} when the inputs change (scale {fmt(probe.output_scale)})",
        )
    _activation(session, ev, t)


def _activation(session: Session, ev: Evidence, t: Trace) -> None:
    """An output activation that cannot reach the targets (ReLU/sigmoid/tanh on a regression output)."""
    for c in t.train_loss_calls()[:5]:
        # a distance is symmetric: `mse_loss(x, model(x))` passes the prediction second
        pred, tgt = (prediction_of(c), target_of(c)) if c.fn in REGRESSION else (c.input, c.target)
        prov = pred.provenance
        if prov is None or not pred.model_output:
            continue
        if prov.op == "softmax" and c.fn in REGRESSION:
            # every output row sums to 1: only targets that are distributions are reachable
            rows = tgt.rows_sum_to_one
            if rows is None or rows >= 0.5 or (pred.rows_sum_to_one or 0) < 0.99:
                continue
            out_of_range = True
            detail = (
                f"{c.fn} regresses softmax outputs (every row sums to 1) onto targets of which "
                f"{fmt(100 * rows)}% of rows sum to 1 (mean {fmt(tgt.mean)} over "
                f"{tgt.shape[1]} entries a row): the outputs cannot reach the targets"
            )
        elif prov.op not in ("relu", "sigmoid", "tanh"):
            continue
        else:
            out_of_range, detail = _out_of_range(c.fn, tgt, prov.op)
        if not out_of_range:
            continue
        eff = intervene(
            session, {"strip_prob": True}, f"with the final {prov.op} removed before the loss"
        )
        ev.find(
            "activation_misuse",
            status="confirmed",
            confidence="high" if eff.improved else "medium",
            evidence=[runtime(detail, prov.frame, session), eff.observation()],
            where=where(session, prov.frame) or first_static_location(session, "activation_misuse"),
            why="the output activation cannot produce the values the loss asks for, so part of the targets is unreachable and gradients vanish there",
            confirm=f"remove the final {prov.op} (or rescale the targets into its range) and compare {compared_steps(session)} steps",
        )
        return


def _out_of_range(fn: str, tgt, op: str) -> tuple[bool, str]:
    """Whether the targets lie outside what a final ReLU/sigmoid/tanh can produce."""
    lo, hi = {"relu": (0.0, None), "sigmoid": (0.0, 1.0), "tanh": (-1.0, 1.0)}[op]
    tmin, tmax = tgt.min, tgt.max
    if fn in ("cross_entropy", "binary_cross_entropy_with_logits"):
        return op == "relu", f"{fn} expects unbounded logits but receives {op} outputs (>= 0)"
    if fn in REGRESSION and tmin is not None and tmax is not None:
        return (
            tmin < lo - 1e-6 or (hi is not None and tmax > hi + 1e-6),
            f"{fn} targets range over [{fmt(tmin)}, {fmt(tmax)}] but the model ends in {op} "
            f"(range [{lo}, {hi if hi is not None else 'inf'}))",
        )
    return False, ""
