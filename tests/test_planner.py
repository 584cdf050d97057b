"""The built-in planner on hand-written bugs, each category in at least two differently
written repos: a class-based DataLoader trainer (tests/fixtures/trace/mlp_loader), a
flat full-batch script (tests/fixtures/trace/flat_fullbatch), and the benchmark's
templates (rings, cnn_bn). Each case asserts the category is confirmed, located at the
right file and symbol, and is the root cause; clean bases get no confirmed finding.

Most cases are slow (one full investigation each); a few run by default.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from torch_investigate.agent.core.planner import Planner
from torch_investigate.agent.core.policy import investigate
from torch_investigate.agent.core.session import Options, Session

ROOT = Path(__file__).resolve().parents[1]
BASES = {
    "mlp": (ROOT / "tests/fixtures/trace/mlp_loader", "train.py"),
    "flat": (ROOT / "tests/fixtures/trace/flat_fullbatch", "fit.py"),
    "rings": (ROOT / "evals/repos/rings", "train.py"),
    "rings_model": (ROOT / "evals/repos/rings", "model.py"),
    "cnn": (ROOT / "evals/repos/cnn_bn", "main.py"),
}

# id: (base, [(old, new), ...], category, (file, symbol) or None, fast)
CASES: dict[str, tuple[str, list[tuple[str, str]], str, tuple[str, str] | None, bool]] = {
    "zero_grad/mlp": ("mlp", [("            opt.zero_grad()\n", "")], "missing_zero_grad", ("train.py", "train"), True),
    "zero_grad/flat": ("flat", [("    sgd.zero_grad()\n", "")], "missing_zero_grad", ("fit.py", "<module>"), False),
    "softmax/mlp": ("mlp", [("F.cross_entropy(model(xb), yb)", "F.cross_entropy(F.softmax(model(xb), dim=1), yb)")], "softmax_before_ce", ("train.py", "train"), True),
    # a hand-written label-smoothed cross-entropy (log_softmax inside) fed a predict_proba
    "softmax/handwritten": ("mlp", [("        return self.out(self.drop(h))\n", "        return self.out(self.drop(h))\n\n    def proba(self, x):\n        return self.forward(x).softmax(dim=-1)\n"), ("def make_data(n, gen):", "def smoothed_ce(scores, target, eps=0.1):\n    logp = F.log_softmax(scores, dim=-1)\n    nll = -logp.gather(1, target.unsqueeze(1)).squeeze(1)\n    return ((1 - eps) * nll - eps * logp.mean(dim=-1)).mean()\n\n\ndef make_data(n, gen):"), ("F.cross_entropy(model(xb), yb)", "smoothed_ce(model.proba(xb), yb)")], "softmax_before_ce", ("train.py", "train"), False),
    "softmax/cnn": ("cnn", [("        return self.fc(x)", "        return F.softmax(self.fc(x), dim=1)")], "softmax_before_ce", ("main.py", "Net.forward"), False),
    "sigmoid/rings": ("rings", [("loss = criterion(logits, yb)", "loss = criterion(torch.sigmoid(logits), yb)")], "sigmoid_before_bce_logits", ("train.py", "main"), False),
    "sigmoid/rings_model": ("rings_model", [("        return self.out(h)  # [batch, 1]", "        return torch.sigmoid(self.out(h))")], "sigmoid_before_bce_logits", ("model.py", "RingClassifier.forward"), False),
    "eval_mode/mlp": ("mlp", [("        model.train()\n", "")], "eval_mode_in_training", ("train.py", "train"), False),
    "eval_mode/cnn": ("cnn", [("    model.train()\n", "    pass\n")], "eval_mode_in_training", ("main.py", "train_one_epoch"), False),
    "detach/mlp": ("mlp", [("return self.out(self.drop(h))", "return self.out(self.drop(h.detach()))")], "detached_graph", ("train.py", "Classifier.forward"), True),
    "detach/rings_model": ("rings_model", [("h = self.act(self.fc2(h))", "h = self.act(self.fc2(h)).data")], "detached_graph", ("model.py", "RingClassifier.forward"), False),
    "opt_subset/mlp": ("mlp", [("torch.optim.Adam(model.parameters()", "torch.optim.Adam(model.out.parameters()")], "optimizer_missing_params", ("train.py", "train"), False),
    "opt_subset/flat": ("flat", [("torch.optim.SGD(net.parameters()", "torch.optim.SGD(net[2].parameters()")], "optimizer_missing_params", ("fit.py", "<module>"), False),
    "broadcast/flat": ("flat", [("Y = 3 * X - 0.5 + 0.05 * torch.randn(64, 1)", "Y = (3 * X - 0.5 + 0.05 * torch.randn(64, 1)).squeeze(1)")], "broadcast_mismatch", ("fit.py", "<module>"), True),
    "broadcast/rings": ("rings", [("nn.BCEWithLogitsLoss()", "nn.MSELoss()"), ("loss = criterion(logits, yb)", "loss = criterion(logits, yb.squeeze(1))")], "broadcast_mismatch", ("train.py", "main"), False),
    "step_order/mlp": ("mlp", [("            opt.zero_grad()\n", ""), ("            loss.backward()\n", "            loss.backward()\n            opt.zero_grad()\n")], "step_order", ("train.py", "train"), False),
    "step_order/flat": ("flat", [("    sgd.zero_grad()\n", ""), ("    err.backward()\n", "    err.backward()\n    sgd.zero_grad()\n")], "step_order", ("fit.py", "<module>"), False),
    "pif/mlp": ("mlp", [("        return self.out(self.drop(h))", "        mix = nn.Linear(16, 16)\n        return self.out(self.drop(mix(h)))")], "params_created_in_forward", ("train.py", "Classifier.forward"), False),
    "pif/rings_model": ("rings_model", [("        return self.out(h)  # [batch, 1]", "        return nn.Linear(h.shape[1], 1)(h)")], "params_created_in_forward", ("model.py", "RingClassifier.forward"), False),
    "unregistered/mlp": ("mlp", [("        self.hidden = nn.Linear(4, 16)", "        self.blocks = [nn.Linear(4, 16)]"), ("self.hidden(x)", "self.blocks[0](x)")], "unregistered_parameters", ("train.py", "Classifier.__init__"), False),
    "unregistered/rings_model": ("rings_model", [("        self.fc2 = nn.Linear(hidden, hidden)", "        self.extra = {'fc2': nn.Linear(hidden, hidden)}"), ("self.fc2(h)", "self.extra['fc2'](h)")], "unregistered_parameters", ("model.py", "RingClassifier.__init__"), False),
    "scheduler/mlp": ("mlp", [("            opt.step()\n", "            opt.step()\n            sched.step()\n"), ("step_size=3, gamma=0.5", "step_size=1, gamma=0.5")], "scheduler_misuse", ("train.py", "train"), False),
    "scheduler/flat": ("flat", [("for it in range(150):", "decay = torch.optim.lr_scheduler.ExponentialLR(sgd, gamma=0.7)\nfor it in range(150):"), ("    sgd.step()\n", "    sgd.step()\n    decay.step()\n")], "scheduler_misuse", ("fit.py", "<module>"), False),
    "metric/mlp": ("mlp", [("model(xv).argmax(dim=1)", "model(xv).argmax()")], "metric_bug", ("train.py", "train"), False),
    "metric/cnn": ("cnn", [("correct += pred.eq(target.view_as(pred)).sum().item()", "correct += (pred == target).sum().item() / 100")], "metric_bug", ("main.py", "validate"), False),
    "train_in_eval/mlp": ("mlp", [("        model.eval()\n", "")], "train_mode_in_eval", ("train.py", "train"), False),
    "train_in_eval/cnn": ("cnn", [("    model.eval()\n", "    pass\n")], "train_mode_in_eval", ("main.py", "validate"), False),
    # frozen parameters count as a defect when the run shows they were meant to train:
    # nothing the optimizer holds trains (a frozen layer that only slows learning a little
    # is, at run time, a fixed projection: tests/test_frozen_intent.py)
    "frozen/mlp": ("mlp", [("    opt = torch.optim.Adam", "    model.requires_grad_(False)\n    opt = torch.optim.Adam")], "frozen_parameters", None, False),
    "frozen/flat": ("flat", [("sgd = torch.optim.SGD", "net.requires_grad_(False)\nsgd = torch.optim.SGD")], "frozen_parameters", None, False),
    "leakage/mlp": ("mlp", [("    xv, yv = make_data(64, gen)", "    xv, yv = make_data(64, gen)\n    xv[:16], yv[:16] = x[:16], y[:16]")], "split_leakage", None, False),
    "leakage/rings": ("rings", [("    print(f\"train {tuple(x_train.shape)}", "    x_val[:60], y_val[:60] = x_train[:60], y_train[:60]\n    print(f\"train {tuple(x_train.shape)}")], "split_leakage", None, False),
    "unshuffled/cnn": ("cnn", [("batch_size=args.batch_size, shuffle=True)", "batch_size=args.batch_size, shuffle=False)")], "unshuffled_data", ("main.py", "main"), False),
    "nonfinite/mlp": ("mlp", [("    x, y = make_data(256, gen)", "    x, y = make_data(256, gen)\n    x[7, 2] = float('nan')")], "nonfinite_inputs", None, False),
    "nonfinite/flat": ("flat", [("Y = 3 * X - 0.5 + 0.05 * torch.randn(64, 1)", "Y = 3 * X - 0.5 + 0.05 * torch.randn(64, 1)\nX[5, 0] = float('inf')")], "nonfinite_inputs", None, False),
    "step_not_called/mlp": ("mlp", [("            opt.step()\n", "")], "step_not_called", None, False),
    "step_not_called/flat": ("flat", [("    sgd.step()\n", "")], "step_not_called", None, False),
    "wrong_dim/mlp": ("mlp", [("h = F.relu(self.hidden(x))", "h = F.softmax(self.hidden(x), dim=0)")], "wrong_dimension", ("train.py", "Classifier.forward"), False),
    "wrong_dim/rings_model": ("rings_model", [("h = self.act(self.fc1(x))", "h = torch.softmax(self.fc1(x), dim=0)")], "wrong_dimension", ("model.py", "RingClassifier.forward"), False),
    "ignores_input/mlp": ("mlp", [("h = F.relu(self.hidden(x))", "h = F.relu(self.hidden(torch.zeros_like(x)))")], "output_ignores_input", None, False),
    "ignores_input/rings_model": ("rings_model", [("h = self.act(self.fc1(x))", "h = self.act(self.fc1(x * 0))")], "output_ignores_input", None, False),
    "loss_item/mlp": ("mlp", [("            loss.backward()", "            loss = torch.tensor(loss.item(), requires_grad=True)\n            loss.backward()")], "loss_detached_scale", ("train.py", "train"), False),
    "loss_item/flat": ("flat", [("    err.backward()", "    err = torch.tensor(err.item(), requires_grad=True)\n    err.backward()")], "loss_detached_scale", ("fit.py", "<module>"), False),
    "swap/rings": ("rings", [("loss = criterion(logits, yb)", "loss = criterion(yb, logits)")], "loss_args_swapped", ("train.py", "main"), False),
    "bad_labels/rings": ("rings", [("loss = criterion(logits, yb)", "loss = criterion(logits, 2 * yb - 1)")], "bad_labels", None, False),
    # targets read from the data, then overwritten by a constant the code makes
    "bad_labels/flat": ("flat", [("    err = crit(net(X), Y)", "    Y = torch.zeros_like(Y)\n    err = crit(net(X), Y)")], "bad_labels", ("fit.py", "<module>"), True),
    "bad_labels/mlp": ("mlp", [("F.cross_entropy(model(xb), yb)", "F.cross_entropy(model(xb), yb + 1)")], "bad_labels", None, False),
}  # fmt: skip


def run_case(tmp_path: Path, base: str, edits: list[tuple[str, str]]):
    src, file = BASES[base]
    repo = tmp_path / src.name
    shutil.copytree(src, repo, ignore=shutil.ignore_patterns("data", "__pycache__"))
    text = (repo / file).read_text()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    (repo / file).write_text(text)
    with Session(repo, Options()) as session:
        investigate(session, Planner())
        return session.report()


def _params():
    for case_id, (base, edits, category, where, fast) in CASES.items():
        marks = [] if fast else [pytest.mark.slow]
        yield pytest.param(base, edits, category, where, id=case_id, marks=marks)


@pytest.mark.parametrize(("base", "edits", "category", "where"), list(_params()))
def test_planner_confirms_the_seeded_category(tmp_path, base, edits, category, where):
    report = run_case(tmp_path, base, edits)
    found = [f for f in report.findings if f.category == category]
    summary = [(f.category, f.status, f.file, f.symbol) for f in report.findings]
    assert found, summary
    f = next((x for x in found if x.status == "confirmed"), found[0])
    assert f.status == "confirmed", summary
    assert any(o.is_dynamic for o in f.evidence)
    if where is not None:
        assert (f.file, f.symbol) == where, summary
    root = report.finding(report.root_cause)
    assert root is not None and root.category == category, (report.root_cause, summary)
    assert report.conclusion == "defects_found"


REFRESH = [
    (
        "        model.eval()\n",
        "        with torch.no_grad():\n            for xb, _ in loader:\n                model(xb)\n        model.eval()\n",
    )
]


@pytest.mark.parametrize(
    ("base", "edits"),
    [
        ("mlp", []),
        pytest.param("flat", [], marks=pytest.mark.slow),
        # statistics refreshed in train mode under no_grad, outputs unread (update_bn)
        pytest.param("mlp", REFRESH, marks=pytest.mark.slow, id="mlp-refresh"),
    ],
)
def test_clean_bases_have_no_confirmed_finding(tmp_path, base, edits):
    report = run_case(tmp_path, base, edits)
    assert not [f for f in report.findings if f.status == "confirmed"], [
        (f.category, f.evidence[-1].text) for f in report.findings
    ]
    assert report.conclusion == "no_defect_found", report.conclusion_reason


def test_a_runaway_loss_that_a_confirmed_fix_bounds_is_its_symptom(tmp_path):
    # loss(target, logits) differentiates the labels toward minus infinity: the loss runs
    # away, but with the arguments swapped back it is bounded, so the unbounded objective
    # is the swap's symptom and no second confirmed defect
    report = run_case(tmp_path, "rings", CASES["swap/rings"][1])
    runaway = [f for f in report.findings if f.category == "objective_unbounded"]
    summary = [(f.category, f.status, f.evidence[-1].text[:120]) for f in report.findings]
    assert [f.category for f in report.findings if f.status == "confirmed"] == [
        "loss_args_swapped"
    ], summary
    assert runaway and all(f.status == "plausible" for f in runaway), summary
    assert all("follows from" in f.evidence[-1].text for f in runaway), summary
