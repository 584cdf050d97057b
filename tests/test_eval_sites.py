"""Evaluation inputs compared per call site: a final scoring call that scales its inputs
its own way is a preprocessing mismatch even when the validation passes, taken with it,
look like training; the same scoring through the training transform is not."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

TRAIN = """
import numpy as np
import torch
from torch import nn

from score import prepare


def main():
    rng = np.random.default_rng(0)
    X = rng.normal(3.0, 2.0, size=(1200, 6)).astype(np.float32)
    y = (X @ rng.normal(size=6) + 0.1 * rng.normal(size=1200)).astype(np.float32)
    tr, va, te = slice(0, 800), slice(800, 1000), slice(1000, 1200)
    mu, sd = X[tr].mean(0), X[tr].std(0)
    Z = torch.from_numpy((X - mu) / sd)
    Y = torch.from_numpy(y)
    model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(20):
        perm = torch.randperm(800)
        for i in range(0, 800, 50):
            b = perm[i : i + 50]
            loss = nn.functional.mse_loss(model(Z[tr][b]).squeeze(1), Y[tr][b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            for i in range(0, 200, 50):
                val = nn.functional.mse_loss(model(Z[va][i : i + 50]).squeeze(1), Y[va][i : i + 50])
    with torch.no_grad():
        pred = model(torch.from_numpy(prepare(X[te], mu, sd))).squeeze(1)
    print("test rmse", float(((pred - Y[te]) ** 2).mean().sqrt()), float(val))


if __name__ == "__main__":
    main()
"""

MINMAX = """
def prepare(X, mu, sd):
    lo, hi = X.min(0), X.max(0)
    return (X - lo) / (hi - lo)
"""

SAME = """
def prepare(X, mu, sd):
    return (X - mu) / sd
"""


def investigate(repo):
    env = {**os.environ, "TERM": "dumb"}
    done = subprocess.run(
        [sys.executable, "-m", "torch_investigate.agent.cli", str(repo), "-f", "json", "-q"],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("scoring", ["minmax", "same"])
def test_a_scoring_call_with_its_own_scaling_is_a_preprocessing_mismatch(tmp_path, scoring):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "train.py").write_text(textwrap.dedent(TRAIN))
    (repo / "score.py").write_text(textwrap.dedent(MINMAX if scoring == "minmax" else SAME))
    report = investigate(repo)
    found = [f for f in report["findings"] if f["category"] == "preprocessing_mismatch"]
    if scoring == "minmax":
        (f,) = found
        assert f["status"] == "confirmed" and (f["file"], f["symbol"]) == ("score.py", "prepare")
        assert "the evaluation inputs at train.py:" in f["evidence"][0]["text"]
    else:
        assert not found
