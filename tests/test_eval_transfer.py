"""Evaluation rows prepared otherwise than training rows, with the same moments: a
bag-of-words vocabulary refit on the validation reviews keeps every column's distribution
and changes what each column means. The training rows carry their targets (the pairing
test's reference fits transfer to an unseen training batch, and the program's own
training loss ends far below the best constant), yet the program's own evaluation error
never beats the validation targets' median: a train/evaluation mismatch. A program whose
training does not learn scores trivially everywhere and is not one. The reference fits of
a hand-written loss (`model(x).squeeze(-1) - y`) read a prediction made outside the model
in every step and keep their targets through a short last batch."""

from __future__ import annotations

from conftest import planner_report

from torch_investigate.agent.checks.pairing_fresh import own_error
from torch_investigate.tools.tracefile.trace import Trace

SCRIPT = """import numpy as np
import torch
from torch import nn
torch.manual_seed(0)
rng = np.random.default_rng(0)
WORDS = [f"w{i}" for i in range(60)]
WEIGHT = rng.normal(size=60)
def reviews(n, seed):
    r = np.random.default_rng(seed)
    freq = r.dirichlet(np.ones(60))            # each set has its own word frequencies
    docs = [r.choice(60, size=20, p=freq) for _ in range(n)]
    stars = np.array([np.clip(3 + WEIGHT[d].mean() * 4, 1, 5) for d in docs], np.float32)
    return [[WORDS[i] for i in d] for d in docs], stars
def featurize(docs, vocab=None):
    if vocab is None:  # most frequent words first
        counts = {}
        for d in docs:
            for w in d:
                counts[w] = counts.get(w, 0) + 1
        vocab = sorted(counts, key=lambda w: -counts[w])
    col = {w: j for j, w in enumerate(vocab)}
    X = np.zeros((len(docs), len(vocab)), np.float32)
    for i, d in enumerate(docs):
        for w in d:
            if w in col:
                X[i, col[w]] += 1 / len(d)
    return X, vocab
tr_docs, tr_y = reviews(3000, 1)
va_docs, va_y = reviews(600, 2)
X_tr, vocab = featurize(tr_docs)
VALFEATURES
X_tr, X_va = torch.from_numpy(X_tr), torch.from_numpy(X_va)
y_tr, y_va = torch.from_numpy(tr_y), torch.from_numpy(va_y)
model = nn.Sequential(nn.Linear(X_tr.shape[1], 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=LR)
for epoch in range(12):
    perm = torch.randperm(len(X_tr))
    for i in range(0, len(perm), 64):
        idx = perm[i:i + 64]
        loss = ((model(X_tr[idx]).squeeze(-1) - y_tr[idx]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        mae = (model(X_va).squeeze(-1) - y_va).abs().mean().item()
    model.train()
    print(f"epoch {epoch} loss {loss.item():.4f} val_mae {mae:.4f}")
"""


def _script(val_features: str, lr: str = "3e-3") -> str:
    return SCRIPT.replace("VALFEATURES", val_features).replace("LR", lr)


def _confirmed(report) -> list[tuple[str, int | None]]:
    return [(f.category, f.line) for f in report.findings if f.status == "confirmed"]


def _item(report, name: str):
    return next(i for s in report.stages for i in s.checklist if i.id == name)


def test_a_vocabulary_refit_on_validation_is_a_preprocessing_mismatch(tmp_path):
    report = planner_report(tmp_path, _script("X_va, _ = featurize(va_docs)"))
    assert [c for c, _ in _confirmed(report)] == ["preprocessing_mismatch"], _item(
        report, "train_eval_inputs"
    ).detail
    assert "median" in _item(report, "train_eval_inputs").detail


def test_the_training_vocabulary_reused_passes(tmp_path):
    report = planner_report(tmp_path, _script("X_va, _ = featurize(va_docs, vocab)"))
    assert _confirmed(report) == []
    assert _item(report, "pairing").outcome == "passed", _item(report, "pairing").detail


def test_a_program_that_does_not_learn_is_no_mismatch(tmp_path):
    # the program's own step size moves nothing: its evaluation is trivial because its
    # training is, and the reference fits alone cannot show otherwise
    report = planner_report(tmp_path, _script("X_va, _ = featurize(va_docs, vocab)", "1e-7"))
    assert "preprocessing_mismatch" not in [c for c, _ in _confirmed(report)]


def _errors(ratios: list[float]) -> Trace:
    rows = [(10 * (i + 1), 100.0 * r, 100) for i, r in enumerate(ratios)]
    levels = [(10 * (i + 1), 100.0, 100) for i in range(len(ratios))]
    return Trace(format_version=1, status="completed", eval_errors=rows, eval_error_levels=levels)


def test_own_error_against_the_targets_median():
    stays = own_error(_errors([1.3, 1.1, 1.02]))
    assert stays is not None and not stays.learns and abs(stays.best - 1.02) < 1e-9
    learns = own_error(_errors([0.9, 0.4, 0.3]))
    assert learns is not None and learns.learns


def test_two_optimizers_leave_the_evaluated_head_unshown():
    # round 15: a value head trains while the evaluated move head's optimizer holds a
    # replaced layer; the program's falling loss says nothing of the head evaluated
    from torch_investigate.agent.checks.eval_transfer import evaluation_untransferred
    from torch_investigate.tools.tracefile.records import OptimizerInfo

    t = _errors([1.3, 1.1, 1.02])
    t.losses = [1.0 - 0.05 * i for i in range(12)]  # training that falls
    t.optimizers = [OptimizerInfo(index=i, **{"class": "Adam"}) for i in range(2)]
    assert evaluation_untransferred(None, None, t, "fresh batches carry their targets") is False
