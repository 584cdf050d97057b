"""Stage 4: a position the evaluation reads that the training loss never scores. A model
trained on its input moved one position (the next token) learns the output at a position
only where the loss scores the target there; a task scored on its answer alone masks the
prompt's positions with the loss's ignore index. Its evaluation generates: it feeds the
prompt and reads the output at the prompt's last position, where the answer's first
token is predicted. The tracer records both (tools/trace/read_positions.py): per position
of the training sequences, the targets the loss scores; per evaluation, the single
positions read from the model's output. A position read that no training sequence had
scored is the mask reaching one position too far (`y[:2n] = -1` for `y[:2n - 1] = -1`).

The run decides: the training loss is given, at those positions, the input's next token
as the target where it ignored it, and the program's own held-out reading must improve
by a quarter and beyond what reseeding the run as written moves it by. A model whose
evaluation reads only positions its loss trains (a padded language model, an
instruction model masked up to its answer) is never rerun."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks import places
from torch_investigate.agent.checks.base import Evidence
from torch_investigate.agent.checks.baseline import runtime
from torch_investigate.agent.checks.locations import where
from torch_investigate.agent.checks.merge import held_out_beyond_chance
from torch_investigate.agent.checks.numbers import listed
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import analysis
from torch_investigate.tools.code.consts import number_value
from torch_investigate.tools.code.flow import Value
from torch_investigate.tools.records import Location
from torch_investigate.tools.tracefile.trace import LossCall, Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session


def unscored_read(session: Session, ev: Evidence, t: Trace, calls: list[LossCall]) -> bool:
    """A confirmed loss_mask_error when evaluation reads positions the training loss
    (`calls`, one site's) never scores and scoring them repairs the program's held-out
    reading; True when found."""
    p = t.positions
    unscored = p.unscored_reads()
    if not unscored or session.runner is None or p.time_axis is None:
        return False
    if not calls or calls[0].frame != p.frame:
        return False  # the positions were counted at another loss
    reads = [r for r in p.reads if r.axis == p.time_axis and r.position in unscored]
    r = reads[0]
    scored = [i for i, n in enumerate(p.scored) if n]
    at = listed([str(i) for i in unscored])
    text = (
        f"the training targets are the model's input moved one position along axis "
        f"{p.time_axis}; in {max(p.seen)} training sequences the loss at {p.frame} scores "
        f"positions {listed([str(i) for i in scored])} and ignores position {at} (index "
        f"{p.ignore_index}) in every one, while the evaluation reads the model's output "
        f"there (position {r.position} of {r.length}, {r.count} times at {r.frame}): the "
        "output it reads was never trained"
    )
    change = {"score_positions": f"{p.time_axis}:{','.join(str(i) for i in unscored)}"}
    held = held_out_beyond_chance(
        session, change, f"with position {at} scored (the input's next token as its target)"
    )
    if held is None:
        ev.item(
            "contributing_elements",
            "passed",
            f"{text}; but scoring it (the input's next token as its target) does not improve "
            "the program's own held-out reading beyond what reseeding moves it by",
        )
        return False
    ev.find(
        "loss_mask_error",
        status="confirmed",
        confidence="high",
        evidence=[runtime(text, p.frame, session, positions=unscored), held],
        where=places.target_marked(session, p.frame)
        or _ignore_written(session, t, p.ignore_index)
        or where(session, p.frame),
        why="the mask removes from the loss a position whose output the evaluation reads, so the model is scored on a prediction it was never trained to make",
        confirm="print which positions of one training target equal ignore_index and which position of the output the evaluation reads first; end the mask one position earlier and compare the evaluation metric",
    )
    ev.item("contributing_elements", "failed", text)
    return True


def _ignore_written(session: Session, t: Trace, ignore: int | None) -> Location | None:
    """Where the targets are given the ignore index (`y[:k] = -1`), in a function the run
    executed (a Dataset's `__getitem__` among them): the one such assignment, else the one
    in the training loader's Dataset class."""
    if ignore is None:
        return None
    ran = set(session.baseline_trace_functions())
    a = analysis(session.index)
    found: list[Location] = []
    for sym in session.index.symbols:
        if sym.kind not in ("function", "method"):
            continue
        if f"{sym.file}:{sym.qualname.rsplit('.', 1)[-1]}" not in ran:
            continue
        node = session.index.definition(sym)
        unit = session.index.unit(sym.file)
        body = sx.function_body(node) if node is not None else None
        if body is None or unit is None:
            continue
        for n in sx.descendants(body):
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if n.type != "assignment" or left is None or right is None:
                continue
            if left.type == "subscript" and number_value(
                a, Value(right, a.flow.frame_at(unit, right))
            ) == float(ignore):
                found.append(Location(file=sym.file, line=sx.line(n), symbol=sym.qualname))
    if len(found) == 1:
        return found[0]
    datasets = {ld.dataset_class for ld in t.loaders if ld.role == "train" and ld.dataset_class}
    own = [f for f in found if (f.symbol or "").split(".")[0] in datasets]
    return own[0] if len(own) == 1 else None
