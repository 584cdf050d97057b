"""The program's own metric as a held-out reading (its distance from what a perfect
prediction scores, tools/tracefile/trace.py): only a helper whose perfect answer lands on
a known end reads quality. A temperature fitted to the logits (round 11's healthy
calibration repo, whose far-out-of-distribution evaluation rows an alignment rerun moved)
reads the predictions but scores nothing, so it gives no reading; the calibration error
beside it does."""

from __future__ import annotations

from torch_investigate.tools.tracefile.trace import Trace


def _trace(probes: dict, values: dict) -> Trace:
    return Trace(format_version=1, status="completed", metric_probes=probes, metric_values=values)


def test_a_fitted_temperature_gives_no_reading_and_the_calibration_error_does():
    t = _trace(
        {"m.py:86:0:1": [[1.09, 1.0, 1489166.0]], "m.py:91:0:1": [[0.058, 0.0, 1.0]]},
        {"m.py:86:0:1": [[706, 1.09]], "m.py:91:0:1": [[706, 0.058]]},
    )
    assert t.metric_distance_curve() == [(706, 0.058)]


def test_an_error_that_a_perfect_answer_brings_to_zero_reads_quality():
    t = _trace({"m.py:5:0:1": [[0.7, 0.0, 3.2]]}, {"m.py:5:0:1": [[100, 0.7]]})
    assert t.metric_distance_curve() == [(100, 0.7)]


def test_a_rate_of_positives_gives_no_reading():
    t = _trace({"m.py:5:0:1": [[0.31, 0.3, 0.7]]}, {"m.py:5:0:1": [[100, 0.31]]})
    assert t.metric_distance_curve() == []
