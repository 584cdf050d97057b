"""Stage 2, leakage by sample identity rather than row content: Subsets of one dataset
that share indices, and a model run once over all rows whose losses read overlapping
rows of its output (full-graph training)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks import places
from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.locations import first_static_location, where
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.tools.tracefile.trace import Frame, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

# An evaluation pass holding at least this share of the distinct training rows its model
# was seen receiving evaluates the training data itself (a train-set metric), whatever
# share of the training set the trace saw.
HOLDS_TRAINING = 0.9


def shared_samples(session: Session, ev: Evidence, t: Trace) -> bool:
    """A training loader and an evaluation loader over Subsets of one dataset that share
    samples: leakage seen by sample index, whatever the inputs look like."""
    shared = [o for o in t.subset_overlaps if o["overlap"]]
    if not shared:
        return False
    o = max(shared, key=lambda x: x["overlap"] / max(x["eval_n"], 1))
    text = (
        f"{o['overlap']} of the {o['eval_n']} samples the evaluation loader at {o['eval']} reads "
        f"({fmt(100 * o['overlap'] / max(o['eval_n'], 1))}%) are among the {o['train_n']} the "
        f"training loader at {o['train']} reads (the same dataset, by sample index)"
    )
    file, _, line = o["eval"].rpartition(":")
    frame = Frame(file=file, line=int(line)) if file and line.isdigit() else None
    tfile, _, tline = o["train"].rpartition(":")
    tframe = Frame(file=tfile, line=int(tline)) if tfile and tline.isdigit() else None
    ev.find(
        "split_leakage",
        status="confirmed",
        confidence="high",
        evidence=[runtime(text, frame, session, overlap=o["overlap"], eval_samples=o["eval_n"])],
        where=places.index_origin(session, tframe)
        or places.index_origin(session, frame)
        or first_static_location(session, "split_leakage")
        or where(session, frame),
        why="evaluation samples the model trained on make the held-out metric optimistic; it no longer measures generalization",
        confirm="print len(set(train_ids) & set(eval_ids)); draw the split over the dataset's own indices, once",
    )
    ev.item("leakage", "failed", text)
    return True


def shared_rows_of_one_output(session: Session, ev: Evidence, t: Trace) -> bool:
    """Full-graph training: one forward over every node, the loss reading the training
    rows by index and each evaluation its own rows (tools/trace/indexed_rows.py). An
    evaluation pass that holds nearly all the training rows scores the training set; one
    whose rows are among the training rows evaluates nodes the model was fitted on."""
    passes = [p for p in t.indexed_rows if p.rows]
    held_out = [p for p in passes if p.overlap < HOLDS_TRAINING * p.train_rows]
    leaky = [p for p in held_out if p.overlap >= 5 and p.overlap >= 0.05 * p.rows]
    if not passes:
        return False
    if not leaky:
        # every forward sees every node: the rows the losses read are the samples
        scored = len(passes) - len(held_out)
        ev.item(
            "leakage",
            "passed",
            f"the model runs once over all rows and each loss reads its rows by index: "
            f"{len(held_out)} held-out evaluation pass(es) read rows the training loss at "
            f"{passes[0].train_site} never reads"
            + (f"; {scored} pass(es) score the training rows themselves" if scored else ""),
        )
        return True
    p = max(leaky, key=lambda x: x.overlap / x.rows)
    text = (
        f"{p.overlap} of the {p.rows} rows an evaluation at {p.site} reads from the model's "
        f"output ({fmt(100 * p.overlap / p.rows)}%) are among the {p.train_rows} rows the "
        f"training loss at {p.train_site} reads from the same forward over the same inputs"
        f" ({len(leaky)} of {len(held_out)} held-out evaluation passes share rows with training)"
    )
    tfile, _, tline = p.train_site.rpartition(":")
    tframe = Frame(file=tfile, line=int(tline)) if tfile and tline.isdigit() else None
    ev.find(
        "split_leakage",
        status="confirmed",
        confidence="high",
        evidence=[runtime(text, tframe, session, overlap=p.overlap, eval_rows=p.rows)],
        where=(where(session, p.train_index_made) if p.train_index_made else None)
        or first_static_location(session, "split_leakage")
        or where(session, tframe),
        why="evaluation nodes (rows) the model was trained on make the held-out metric optimistic; it no longer measures generalization",
        confirm="print len(set(idx_train.tolist()) & set(idx_test.tolist())); draw the training, validation and test indices as disjoint parts of one permutation",
    )
    ev.item("leakage", "failed", text)
    return True
