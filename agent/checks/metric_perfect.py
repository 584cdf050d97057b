"""Stage 7: the program's metric given a perfect prediction. The baseline run calls each
evaluation helper (`dice_per_image(logits, mask)`) once more with the model's output
replaced by a perfect prediction built from the target, and once by a perfectly wrong one
(tools/trace/metric_probe.py). A metric whose values lie in [0, 1] gives the perfect
prediction one of its ends (1 for a score, 0 for an error); one that gives it less in
every probed call, while the wrong prediction scores differently, is computed wrongly (a
Dice with its smoothing only in the denominator scores every correctly empty mask 0). Which
end is good the two answers alone do not tell (an error rate gives the perfect one 0); a
helper whose own words call it a score (its name, the label its value is printed under:
agent/checks/metric_direction.py) and that scores the perfectly wrong answer above the
perfect one in every call reads another class's column than the one it scores."""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.checks.metric_direction import printed_labels, sense
from torch_investigate.agent.checks.numbers import fmt
from torch_investigate.tools.records import Location
from torch_investigate.tools.tracefile.trace import Trace

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

# what a perfect prediction may miss its end by: float rounding and a smoothing term
ROUNDING = 1e-3
# how far apart a perfect and a perfectly wrong prediction must score for the helper to
# read its prediction at all: float rounding only (one row of a few thousand counts more)
DISTINCT = 1e-6


def imperfect_metric(session: Session, t: Trace) -> tuple[str, Location] | None:
    """(the observation, the helper) for the first probed helper that fails."""
    helpers = session.metric_helpers if session.runner is not None else {}
    for key, calls in t.metric_probes.items():
        spec, _, part = key.partition("#")  # `#n`: the helper's n-th returned value
        if not calls or spec not in helpers:
            continue
        if not all(0.0 <= v <= 1.0 for call in calls for v in call):
            continue
        if any(abs(p - w) <= DISTINCT for _, p, w in calls):
            continue  # the metric does not tell right from wrong answers
        file, line, name = helpers[spec].split(":", 2)
        # the program calls it a score (an error's words only cancel a score's: a helper
        # named an error that ranks a right answer high is more often named loosely)
        score = _sense(session, t, key, name) > 0
        inverted = score and all(w - p > ROUNDING for _, p, w in calls)
        gaps = [(1.0 - p) if p > w else p for _, p, w in calls]
        if min(gaps) <= ROUNDING and not inverted:
            continue
        if part and not all(min(w, 1.0 - w) <= ROUNDING for _, _, w in calls):
            # one of several values returned is a score only where a perfectly wrong
            # answer lands on an end (a rate returned beside the accuracy, the share of
            # positive predictions, lands between)
            continue
        _, p, w = calls[0]
        call_file, call_line = spec.split(":")[:2]
        value = f"{name}() (its value #{int(part) + 1})" if part else f"{name}()"
        where = f"{value} called at {call_file}:{call_line}"
        if inverted:
            text = (
                f"{where}, which the program names a score (the higher the better), gives "
                f"a perfectly wrong prediction {fmt(w)} and a perfect one (built from the "
                f"target) {fmt(p)} in "
                f"all {len(calls)} evaluation calls probed (the model's: {fmt(calls[-1][0])}): "
                "it ranks the wrong answer above the right one, the metric is computed "
                "wrongly (the prediction read for another class than the one it is scored "
                "against, or compared the wrong way round)"
            )
            return text, Location(file=file, line=int(line), symbol=name)
        end = "1" if p > w else "0"
        text = (
            f"{where} gives a perfect prediction (built "
            f"from the target) {fmt(p)}, not {end}, in all {len(calls)} evaluation calls "
            f"probed (a perfectly wrong one: {fmt(w)}; the model's: {fmt(calls[-1][0])}): "
            "the metric is computed wrongly"
        )
        return text, Location(file=file, line=int(line), symbol=name)
    return None


def _sense(session: Session, t: Trace, key: str, name: str) -> int:
    """Which way the program's own words for the helper's value point: its name and the
    labels it printed the value under."""
    run = session.baseline()
    stdout = (run.result.stdout if run is not None else "") or ""
    values = [v for _, v in t.metric_values.get(key, [])]
    return sense([name.rsplit(".", 1)[-1], *printed_labels(stdout, values)])
