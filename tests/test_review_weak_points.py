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
