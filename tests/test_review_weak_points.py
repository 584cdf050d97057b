"""Weak points the walk must not miss (issue 20, point 6): a loss the task cannot reach
comes first among what a review is handed, through the real `openai` client: a language
model whose targets are its inputs settles far below the targets' entropy; a VAE whose
KL term has the wrong sign adds a term that runs ever more negative, although its
reconstruction loss cannot go below zero (both runs labelled healthy)."""

import shutil
from pathlib import Path

import pytest
from fakellm import Reply, ScriptedLLM, call
from fakellm.helpers import run_review

SHAPES = Path(__file__).resolve().parent / "fixtures" / "shapes"

CASES = {
    "charlm/targets_are_inputs": (
        "charlm", "train.py", ("return chunk[:-1], chunk[1:]", "return chunk[:-1], chunk[:-1]"),
        "below_marginal", "of the targets' entropy",
    ),
    "vae/kl_sign": (
        "vae", "main.py", ("KLD = -0.5 * torch.sum", "KLD = 0.5 * torch.sum"),
        "negative_loss", "while the rest of the loss (binary_cross_entropy) cannot go below zero",
    ),
}  # fmt: skip


def _params():
    for case_id, case in CASES.items():
        marks = [pytest.mark.slow] if case_id.startswith("vae") else []
        yield pytest.param(*case, id=case_id, marks=marks)


@pytest.mark.parametrize(("name", "file", "edit", "kind", "said"), list(_params()))
def test_an_impossible_loss_is_the_first_weak_point(tmp_path, name, file, edit, kind, said):
    repo = tmp_path / name
    shutil.copytree(SHAPES / name, repo, ignore=shutil.ignore_patterns("__pycache__"))
    text = (repo / file).read_text()
    assert edit[0] in text
    (repo / file).write_text(text.replace(*edit))
    finish = Reply(tool_calls=[call("finish", root_cause=None, explanation="looked")])
    with ScriptedLLM([finish, finish]) as server:
        run_review(repo, server, max_steps=2)
    brief = server.requests[0].messages[1]["content"]
    points = brief.split("Weak points, most important first:", 1)[1]
    first = points.strip().splitlines()[0]
    assert first.startswith(f"1. [{kind}]") and said in first
    assert "None stands out" not in points


# ---- every kind of impossible curve, on the walk's baseline trace ------------------------


def _walk(losses, evals=(), symptom="healthy"):
    """What `_curve_points` reads of a finished walk: the baseline trace (its per-step
    losses and evaluation passes), the symptom, the confirmed findings (none)."""
    from types import SimpleNamespace

    from torch_investigate.tools.tracefile.trace import TRACE_FORMAT_VERSION, Trace

    n = len(losses)
    trace = Trace(
        format_version=TRACE_FORMAT_VERSION, status="completed",
        counts={"backward": n, "step": n}, step_losses=list(losses),
        eval_losses=[(step, "train.py:40", value) for step, value in evals],
    )  # fmt: skip
    runner = SimpleNamespace(runs={"baseline": SimpleNamespace(trace=trace)})
    ledger = SimpleNamespace(confirmed=lambda: [])
    return SimpleNamespace(runner=runner, symptom=symptom, protocol=SimpleNamespace(ledger=ledger))


def _steps(first, last, n=40):
    return [first + (last - first) * i / (n - 1) for i in range(n)]


@pytest.mark.parametrize(
    ("losses", "evals", "kind", "said"),
    [
        (_steps(1.0, 2.2), (), "rising_loss", "The training loss rises (1 -> 2."),
        ([0.85**i for i in range(40)], [(5, 0.9), (35, 0.95)], "near_zero_not_learning",
         "while the evaluation loss does not improve (0.9 -> 0.95; labelled healthy)"),
        (_steps(1.0, -6.0), (), "negative_loss", "a loss to minimize has a floor"),
        (_steps(1.0, 0.3), [(5, 0.9), (35, 0.4)], None, None),
    ],
    ids=["rising", "near-zero, evaluation flat", "below zero", "a healthy curve"],
)  # fmt: skip
def test_each_impossible_curve_is_named_whatever_the_run_was_labelled(losses, evals, kind, said):
    """Point 6: the walk labelled each run healthy; a rising loss, one near zero while the
    evaluation does not improve, and one below zero are each a weak point; a curve that
    falls with its evaluation gives none (the review then hears "None stands out")."""
    from torch_investigate.agent.core.weak_points import _curve_points
    from torch_investigate.agent.llm.review import render_points

    points = _curve_points(_walk(losses, evals))
    if kind is None:
        assert points == [] and render_points(points).startswith("None stands out")
        return
    (point,) = points
    assert point.kind == kind and said in point.text and "labelled healthy" in point.text
