"""A runtime finding takes on the static suspicion of its category at its own line or in
its own file; one in another file (a second script of the repo with the same slip: the
graykode tutorials build layers inside forward in both BERT.py and Transformer.py) stays
a finding of its own instead of lending its evidence to the confirmed one."""

from __future__ import annotations

from torch_investigate.agent.checks.merge import _same_defect
from torch_investigate.tools.records import Finding, Observation, Stage


def _finding(file: str | None, line: int | None, status: str = "plausible") -> Finding:
    return Finding(
        category="params_created_in_forward",
        stage=Stage.AUTOGRAD,
        status=status,
        confidence="medium",
        file=file,
        line=line,
        symbol="MultiHeadAttention.forward" if file else None,
        evidence=[Observation(source="static", text=f"{file}:{line}")],
        why="w",
        confirm="c",
    )


def test_a_suspicion_in_another_file_is_not_merged():
    runtime = _finding("BERT.py", 114, "confirmed")
    other = _finding("Transformer.py", 77)
    assert _same_defect(runtime, [other]) == []


def test_the_suspicion_at_the_runtime_line_comes_first():
    runtime = _finding("BERT.py", 114, "confirmed")
    near, exact, other = _finding("BERT.py", 112), _finding("BERT.py", 114), _finding("T.py", 1)
    assert _same_defect(runtime, [other, near, exact]) == [exact, near]


def test_a_runtime_finding_without_a_place_takes_any_of_its_category():
    runtime = _finding(None, None, "confirmed")
    other = _finding("Transformer.py", 77)
    assert _same_defect(runtime, [other]) == [other]
