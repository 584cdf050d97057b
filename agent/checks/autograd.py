"""Stage 5: autograd — which trainable parameters the loss reaches, gradient values, grad
mode, and how parameters are registered (frozen, unregistered, non-leaf, made in forward)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks import frozen_intent, leaves, places
from torch_investigate.agent.checks.base import Evidence, check
from torch_investigate.agent.checks.baseline import (
    cut_parameters,
    gradient_arrives,
    module_less,
    runtime,
    usable,
)
from torch_investigate.agent.checks.cut_numbers import numbers_explain
from torch_investigate.agent.checks.effects import intervene
from torch_investigate.agent.checks.locations import (
    attribute_location,
    first_static_location,
    model_location,
    where,
)
from torch_investigate.agent.checks.nograd_terms import nograd_term
from torch_investigate.agent.checks.numbers import fmt, listed
from torch_investigate.agent.checks.stand_ins import fresh_leaves_stand_in
from torch_investigate.tools.code.grad_switches import turns_grad_off
from torch_investigate.tools.records import Stage
from torch_investigate.tools.tracefile.trace import Frame, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

ITEMS = ("reachability", "gradient_values", "grad_mode", "registration")
CUTS = ("detach", "data", "item", "numpy", "tolist", "tensor_rewrap", "from_numpy", "detach_")


@check(Stage.AUTOGRAD)
def reachability(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ITEMS)
    if t is None:
        return
    # non-leaf "weights" can never be graph leaves; the registration check reports them
    walked = [p for p in t.parameters if p.graph.walks > 0 and p.is_leaf]
    if not walked and module_less(t):
        plain = [p for p in t.parameters if p.reached]
        ev.item(
            "reachability",
            "passed",
            f"the model is {len(plain)} plain tensors: each is a leaf the loss's graph reaches",
        )
        return
    if not walked and fresh_leaves_stand_in(session, ev, t):
        return
    if not walked:
        ev.item(
            "reachability",
            "skipped",
            "no backward graph was walked (no backward in the detailed steps)",
        )
        return
    # a network no optimizer trains whose output the training uses detached (an EMA copy,
    # a target network, a teacher) is unreachable by design: nothing meant to train it
    cut = cut_parameters(t)
    auxiliary = [
        p for p in walked if p.graph.reachable == 0 and not p.in_optimizer and t.optimizers
    ]
    if nograd_term(session, ev, t):  # names the model by its parameters: before the feeders
        return
    stale = _trained_under_no_grad(t)
    if stale:
        _no_grad_feeder(session, ev, t, stale)
        return
    if numbers_explain(session, ev, t, bool(cut)):
        return
    if not cut:
        aux = (
            f"; {len(auxiliary)} parameters of a network no optimizer trains run detached from it "
            "(an EMA or target copy, a teacher)"
            if auxiliary
            else ""
        )
        ev.item(
            "reachability",
            "passed",
            f"all {len(walked) - len(auxiliary)} parameters the optimizer trains that the forward uses are reachable from the loss's grad_fn{aux}",
        )
        return
    names = [p.name for p in cut]
    used = len({p.name for p in walked} | set(names))
    text = f"{len(cut)} of {used} parameters used in the training forward are unreachable from the loss's grad_fn: {listed(names)}; their .grad stays None"
    if _explain_cut(session, ev, t, text, names):
        ev.item("reachability", "failed", text)
    else:
        ev.item(
            "reachability",
            "not_applicable",
            f"{text}; keeping the graph at the cut the run saw reaches none of them and "
            "changes nothing: what leaves them unreached is not established",
            untested=True,
        )


def _explain_cut(session: Session, ev: Evidence, t: Trace, text: str, names: list[str]) -> bool:
    """Name why the graph is cut: grad disabled in part of the forward, or an explicit cut.
    False when the cut the run saw is shown not to be it."""
    off = [m for m in t.submodule_modes if m.get("kind") == "grad_disabled"]
    if off:
        frame = off[0].get("frame")

        fr = Frame.model_validate(frame) if frame else None
        ev.find(
            "no_grad_training",
            status="confirmed",
            confidence="high",
            evidence=[
                runtime(text, None, session, unreachable=names[:20]),
                runtime(
                    f"grad mode is off while {off[0]['module']} runs inside the training forward ({off[0]['calls']} calls)",
                    fr,
                    session,
                ),
            ],
            where=first_static_location(session, "no_grad_training") or where(session, fr),
            why="operations under no_grad record no graph, so everything before them gets no gradient",
            confirm="remove the torch.no_grad()/inference_mode around that part of the training forward and check p.grad after backward",
        )
        return True
    cuts = [o for o in t.ops if o.kind in CUTS and o.phases.get("train")]
    cuts.sort(key=lambda o: (not o.in_forward, -o.count))
    if cuts:
        o = cuts[0]
        eff = intervene(
            session,
            {"keep_graph": True},
            f"with .{o.kind} keeping the graph during the training forward",
        )
        cuts_loss = o.kind in ("item", "tolist") and not o.in_forward
        category = "loss_detached_scale" if cuts_loss else "detached_graph"
        # the cut is the mechanism when keeping the graph there lets the loss reach the
        # parameters it could not (or the model learns better for it); a cut elsewhere (an
        # evaluation rollout's detach) leaves them as they were: a bias whose gradient the
        # forward never needs, say, under a loss built from the model's input gradient
        kept = session.runner.get({"keep_graph": True})
        after = {p.name: p for p in (kept.trace.parameters if kept and kept.trace else [])}
        reached = [n for n in names if n in after and gradient_arrives(after[n])]
        # keeping the graph fails on the cut's own line (the value goes on to numpy or a
        # Python number there): the forward cuts it there by construction
        fail = kept.result.failure if kept is not None else None
        # (a cut between the forward and the loss, when the tensor it cuts depended on
        # the parameters the loss cannot reach: a logging detach of a prediction is no
        # such cut, its parameters reach the loss another way)
        hides = bool(set(o.reaches or ()) & set(names))
        forced = (
            (o.in_forward or hides)
            and fail is not None
            and o.frame is not None
            and (fail.file, fail.line) == (o.frame.file, o.frame.line)
        )
        proven = eff.improved or bool(reached) or forced
        ev.find(
            category,
            status="confirmed" if proven else "plausible",
            confidence="high" if proven else "low",
            evidence=[
                runtime(text, None, session, unreachable=names[:20]),
                runtime(
                    f"`{o.kind}` at {o.frame} cuts the graph ({o.count} calls {'inside the forward' if o.in_forward else 'between the forward and the loss'})",
                    o.frame,
                    session,
                ),
                eff.observation(),
            ],
            where=where(session, o.frame) or first_static_location(session, category),
            why="a tensor taken out of the graph (detach/.data/.item/numpy/torch.tensor) hides everything before it from backward; those parameters never update",
            confirm=f"remove the {o.kind} at {o.frame} and check that {names[0]}.grad is not None after backward",
        )
        return proven
    probe = t.probes.get("forward")
    if probe is not None and probe.status == "ok" and probe.ignores_input:
        # no op cuts the graph: the forward does not use these layers' output at all (the
        # output ignores the input: stage 3's finding explains it)
        ev.notes.append(
            f"{text}: no operation cuts the graph; the forward's output does not use them"
        )
        return True
    # no operation was seen cutting the graph, no part ran without grad: the layers' output
    # may simply not be used (WaveNet's last residual conv, whose sum nothing reads), which
    # leaves the rest of the model learning; without the mechanism it stays a suspicion
    loc = first_static_location(session, "detached_graph") or model_location(session, t)
    ev.find(
        "detached_graph",
        status="plausible",
        confidence="medium",
        evidence=[
            runtime(
                f"{text}; no operation on the training path was seen cutting the graph (detach, "
                ".data, .item, a no-grad region): their output may simply not be used",
                None,
                session,
                unreachable=names[:20],
            )
        ],
        where=loc,
        why="parameters that the loss cannot reach never receive a gradient, so they never learn",
        confirm=f"after loss.backward(), print {names[0]}.grad (None) and walk loss.grad_fn.next_functions to find where the graph ends",
    )
    return True


@check(Stage.AUTOGRAD)
def gradient_values(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    obs = [
        p
        for p in t.parameters
        if p.grad.observed and p.requires_grad and (p.executed and p.graph.reachable or p.reached)
    ]
    if not obs:
        ev.item("gradient_values", "skipped", "no gradient of a reachable parameter was observed")
        return
    nonfinite = [p for p in obs if p.grad.nonfinite]
    always_zero = [p for p in obs if p.grad.zero == p.grad.observed and p.grad.observed >= 5]
    norms = [p.grad.mean_norm for p in obs if p.grad.mean_norm is not None]
    summary = f"{len(obs)} parameters; mean gradient norms {fmt(min(norms) if norms else None)}..{fmt(max(norms) if norms else None)} over {obs[0].grad.observed} backward calls"
    if (
        nonfinite
        and ev.facts.symptom == "divergence"
        and t.curve()
        and t.curve()[0] == t.curve()[0]
    ):
        # the loss started finite and grew: non-finite gradients are the divergence itself,
        # which stage 8 examines (learning rate, initialization)
        ev.item(
            "gradient_values",
            "passed",
            f"gradients turn non-finite only after the loss diverges ({listed([p.name for p in nonfinite])}); {summary}",
        )
        return
    if nonfinite:
        ev.item(
            "gradient_values",
            "failed",
            f"non-finite gradients in {listed([p.name for p in nonfinite])}; {summary}",
        )
        return
    if always_zero:
        ev.notes.append(
            f"gradients exactly zero on every observed backward for {listed([p.name for p in always_zero])} (dead units or unused outputs)"
        )
    ev.item(
        "gradient_values",
        "passed",
        summary
        + (f"; always zero: {listed([p.name for p in always_zero])}" if always_zero else ""),
    )


def _trained_under_no_grad(t: Trace) -> list:
    """Parameters an optimizer steps that never get a gradient because their model ran under no_grad."""
    feeders = [f for f in t.forwards if f.phase == "train" and not f.grad_enabled]
    if not feeders:
        return []
    return [
        p for p in t.parameters
        if p.in_optimizer and p.requires_grad and not p.executed and p.grad.observed >= 3 and p.grad.none == p.grad.observed
    ]  # fmt: skip


def _no_grad_feeder(session: Session, ev: Evidence, t: Trace, stale: list) -> None:
    f = next(f for f in t.forwards if f.phase == "train" and not f.grad_enabled)
    names = [p.name for p in stale]
    text = (
        f"{f.model} runs under no_grad at {f.frame} inside the training iteration, yet the optimizer holds "
        f"{len(stale)} of its parameters with requires_grad=True ({listed(names)}); their .grad stays None"
    )
    ev.find(
        "no_grad_training",
        status="confirmed",
        confidence="high",
        evidence=[runtime(text, f.frame, session, parameters=names[:20])],
        where=first_static_location(session, "no_grad_training") or where(session, f.frame),
        why="a forward under no_grad records no graph: the parameters before it receive no gradient although they are meant to train",
        confirm=f"remove the no_grad around {f.model} at {f.frame} (or freeze it on purpose and leave it out of the optimizer)",
    )
    ev.item("reachability", "failed", text)


@check(Stage.AUTOGRAD)
def grad_mode(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    feeders = [f for f in t.forwards if not f.grad_enabled and f.phase == "train"]
    partial = [m for m in t.submodule_modes if m.get("kind") == "grad_disabled"]
    if feeders and _trained_under_no_grad(t):
        ev.item(
            "grad_mode",
            "failed",
            f"{len(feeders)} forwards inside training iterations ran with grad mode off (first at {feeders[0].frame}) on a model the optimizer trains",
        )
    elif partial:
        m = partial[0]
        fr = Frame.model_validate(m["frame"]) if m.get("frame") else None
        starved = [
            p
            for p in t.parameters
            if p.in_optimizer
            and p.requires_grad
            and p.grad.observed >= 3
            and p.grad.none == p.grad.observed
        ]
        text = f"grad mode is off inside the training forward while {m['module']} runs ({m['calls']} calls, {fr})"
        if starved and fr is not None and not turns_grad_off(session.index, fr.file, fr.line):
            text += (
                f"; {len(starved)} parameters the optimizer holds never get a gradient "
                f"({listed([p.name for p in starved])}), though the program's code at {fr} "
                "turns grad mode off nowhere: the library call made there runs them without a "
                "graph and returns an output cut from it (a reentrant checkpoint whose inputs "
                "do not require grad)"
            )
            ev.find(
                "detached_graph",
                status="confirmed",
                confidence="high",
                evidence=[runtime(text, fr, session, parameters=[p.name for p in starved][:20])],
                where=where(session, fr) or first_static_location(session, "detached_graph"),
                why="the output of that call carries no graph, so the layers it ran get no gradient and never train",
                confirm=f"check out.requires_grad right after the call at {fr}; with torch.utils.checkpoint pass use_reentrant=False (or an input that requires grad)",
            )
            ev.item("grad_mode", "failed", text)
        elif starved:
            text += f"; {len(starved)} parameters the optimizer holds never get a gradient ({listed([p.name for p in starved])})"
            ev.find(
                "no_grad_training",
                status="confirmed",
                confidence="high",
                evidence=[runtime(text, fr, session, parameters=[p.name for p in starved][:20])],
                where=first_static_location(session, "no_grad_training") or where(session, fr),
                why="operations under no_grad record no graph, so the layers before them get no gradient although the optimizer is meant to train them",
                confirm=f"remove the torch.no_grad() around {m['module']} in the forward (or freeze those layers on purpose and leave them out of the optimizer)",
            )
            ev.item("grad_mode", "failed", text)
        else:
            ev.item(
                "grad_mode",
                "passed",
                text + "; no trainable parameter is starved by it (a frozen part, on purpose)",
            )
    else:
        n = len([f for f in t.train_forwards() if f.grad_enabled])
        extra = (
            f"; {len(feeders)} forwards of a frozen feature extractor run under no_grad on purpose (no optimizer trains it)"
            if feeders
            else ""
        )
        ev.item(
            "grad_mode",
            "passed",
            f"grad mode on in all {n} recorded training forwards and their submodules{extra}",
        )


@check(Stage.AUTOGRAD)
def registration(session: Session, ev: Evidence) -> None:
    t = usable(session, ev, ()) if not session.options.static_only else None
    if t is None:
        return
    problems = []
    # parameters the optimizer holds but that cannot learn
    frozen = [
        p for p in t.parameters if p.registered and p.frozen_steps > 0 and not p.requires_grad
    ]
    if frozen:
        names = [p.name for p in frozen]
        text = f"{len(frozen)} parameters are held by an optimizer that steps, but have requires_grad=False: {listed(names)}; they never change"
        meant, evidence = frozen_intent.frozen_meant_to_train(session, t, frozen)
        ev.find(
            "frozen_parameters",
            status="confirmed" if meant else "plausible",
            confidence="high" if meant else "low",
            evidence=[runtime(text, None, session, frozen=names[:20]), *evidence],
            where=frozen_intent.unfreeze_place(session, t, frozen)
            or first_static_location(session, "frozen_parameters")
            or places.unfreeze_that_ran(session)
            or frozen_intent.freeze_place(
                session, next((p.frozen_at for p in frozen if p.frozen_at), None)
            )
            # no line froze them: they were made frozen (`from_pretrained`, freeze=True)
            or where(session, next((p.module_created for p in frozen if p.module_created), None))
            or (where(session, t.optimizers[0].frame) if t.optimizers else None),
            why="requires_grad=False parameters get no gradient, so the optimizer cannot move them although it was given them to train",
            confirm=f"print([n for n, p in model.named_parameters() if not p.requires_grad]); set requires_grad=True on {names[0]} if it is meant to train",
        )
        if meant:
            problems.append(text)
    leaves.frozen_by_eval(session, ev, t, problems)
    frozen_intent.left_out(session, ev, t, problems)
    # layers run in the forward whose parameters the model does not own
    # (or, held by no module at all, a leaf the loss reaches at every step that no
    # optimizer holds: `[nn.Parameter(...) for _ in range(n)]` kept in a plain list)
    unreg = [
        p
        for p in t.parameters
        if (
            p.executed
            or (
                p.reached
                and p.grad.observed >= 3
                and not p.in_optimizer
                and t.optimizers
                and p.weight_norm_start == p.weight_norm_end  # nothing updates it by hand
            )
        )
        and not p.registered
        and p.is_leaf
        and p.requires_grad
        and not p.created_in_forward
    ]
    if unreg:
        names = [p.name for p in unreg]
        text = (
            f"{len(unreg)} tensors used in the training forward are not in model.parameters(): {listed(names)}"
            + (
                "; the optimizer does not hold them either"
                if not any(p.in_optimizer for p in unreg)
                else ""
            )
        )
        eff = intervene(
            session, {"add_missing_params": True}, "with those tensors given to the optimizer"
        )
        frame = unreg[0].module_created
        leaf_attr = next((a for a in t.attr_tensors if a.is_leaf), None)
        attr_loc = (
            attribute_location(session, leaf_attr.module, leaf_attr.attribute)
            if leaf_attr
            else None
        )
        ev.find(
            "unregistered_parameters",
            status="confirmed",
            confidence="high",
            evidence=[runtime(text, frame, session, unregistered=names[:20]), eff.observation()],
            where=first_static_location(session, "unregistered_parameters")
            or attr_loc
            or where(session, frame)
            or model_location(session, t),
            why="layers in a plain list/dict (or tensors as plain attributes) are invisible to parameters(): the optimizer never updates them",
            confirm="wrap the list in nn.ModuleList (dict: nn.ModuleDict, tensors: nn.Parameter) and check len(list(model.parameters()))",
        )
        problems.append(text)
    leaves.stale_leaves(session, ev, t, problems)
    nonleaf = [a for a in t.attr_tensors if not a.is_leaf]
    if nonleaf:
        a = nonleaf[0]
        text = f"{a.module}.{a.attribute} {a.shape} is a non-leaf tensor (grad_fn {a.grad_fn}) held as a weight: its .grad stays None and the leaf it came from is not what the model uses"
        ev.find(
            "non_leaf_parameters",
            status="confirmed",
            confidence="high",
            evidence=[runtime(text, a.module_created, session)],
            where=first_static_location(session, "non_leaf_parameters")
            or attribute_location(session, a.module, a.attribute)
            or where(session, a.module_created),
            why="moving a tensor after requires_grad=True (.to/.cuda/.double) returns a copy; gradients flow to the orphaned original",
            confirm=f"print({a.module}.{a.attribute}.is_leaf) (False); create it as nn.Parameter on the right device instead",
        )
        problems.append(text)
    made = [c for c in t.created_in_forward if c.count >= 2]
    if made:
        c = made[0]
        n_fw = max(1, t.counts.get("forward", 1))
        text = f"{c.count} new parameters {c.shapes[:2]} were created at {c.frame} during {n_fw} forward calls: fresh random weights each call"
        ev.find(
            "params_created_in_forward",
            status="confirmed",
            confidence="high",
            evidence=[runtime(text, c.frame, session, created=c.count, forwards=n_fw)],
            where=where(session, c.frame)
            or first_static_location(session, "params_created_in_forward"),
            why="a layer built inside forward is re-initialized on every call and never seen by the optimizer, so what it learns is thrown away",
            confirm="move the layer construction to __init__ and check that the parameter count stays constant across forwards",
        )
        problems.append(text)
    if problems:
        ev.item("registration", "failed", " | ".join(problems))
    else:
        n = len([p for p in t.parameters if p.registered])
        ev.item(
            "registration",
            "passed",
            f"{n} registered leaf parameters; {len(frozen) or 'none'} frozen while in the "
            f"optimizer{', read as deliberate' if frozen else ''}; no unregistered tensors or "
            "parameters made in forward",
        )
