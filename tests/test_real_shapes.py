"""Shapes of training code met in real repos (issue 19), each as a small repo written
here and, where it is a bug, the same repo with the defect: language models whose
targets are their own inputs, a copy task that is healthy by design, DataLoader
workers. Each case asserts what the report must say, and that the healthy version gets
no confirmed finding.

Each case is one full investigation; the fast ones run by default.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from torch_investigate.agent.core.planner import Planner
from torch_investigate.agent.core.policy import investigate
from torch_investigate.agent.core.session import Options, Session

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "shapes"


def investigate_copy(tmp_path: Path, name: str, edits: list[tuple[str, str]], file: str):
    repo = tmp_path / Path(name).name
    shutil.copytree(FIXTURES / name, repo, ignore=shutil.ignore_patterns("__pycache__"))
    text = (repo / file).read_text()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    (repo / file).write_text(text)
    with Session(repo, Options()) as session:
        investigate(session, Planner())
        return session.report()


def confirmed(report) -> list[tuple[str, str | None, str | None]]:
    return [(f.category, f.file, f.symbol) for f in report.findings if f.status == "confirmed"]


# id: (fixture, file, edits, the root cause as (category, file, symbol), or None: healthy)
CASES = {
    "charlm/healthy": ("charlm", "train.py", [], None, False),
    "charlm/targets_are_inputs": (
        "charlm", "train.py", [("return chunk[:-1], chunk[1:]", "return chunk[:-1], chunk[:-1]")],
        ("split_leakage", "train.py", "Chunks.__getitem__"), True,
    ),
    # a GPT-style forward(idx, targets) that computes its loss inside: handed its targets
    # to score them, not as input (nanoGPT and minGPT as written got a leakage suspicion)
    "charlm/targets_given_to_forward": (
        "charlm", "train.py",
        [("    def forward(self, idx):\n        h, _ = self.rnn(self.emb(idx)); return self.head(h)",
          "    def forward(self, idx, targets):\n        h, _ = self.rnn(self.emb(idx)); logits = self.head(h)\n        return logits, nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))"),
         ("        logits = model(x)\n        loss = nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))",
          "        logits, loss = model(x, y)")],
        None, False,
    ),
    "vae/healthy": ("vae", "main.py", [], None, False),
    "vae/kl_sign": (
        "vae", "main.py", [("KLD = -0.5 * torch.sum", "KLD = 0.5 * torch.sum")],
        ("objective_unbounded", "main.py", "loss_function"), False,
    ),
    "lightning/healthy": ("lightning_clf", "train.py", [], None, False),
    "lightning/step_returns_none": (
        "lightning_clf", "train.py", [("        return loss\n", "        self.last_loss = loss\n")],
        ("step_not_called", "train.py", "MoonClassifier.training_step"), False,
    ),
    # a step size that leaves |dw|/|w| ~5e-8 per step: stage 8 once 1-7 are coherent
    "mlp/lr_effectively_zero": (
        "../trace/mlp_loader", "train.py",
        [("torch.optim.Adam(model.parameters(), lr=1e-2)", "torch.optim.SGD(model.parameters(), lr=1e-7)"),
         ("for epoch in range(4):", "for epoch in range(25):"), ("        sched.step()\n", "")],
        ("lr_too_low", "train.py", "train"), False,
    ),
    # gradients by torch.func and a hand-written update: found as the command, and never a
    # confirmed "no update" for want of a backward() call
    "func_sgd/healthy": ("func_sgd", "fit.py", [], None, False),
    # asks for a GPU: run through the script's own device option, and never a crash finding
    "gpu_default/healthy": ("gpu_default", "train.py", [], None, True),
    # categorical codes: an encoder fit anew on the evaluation data reads other categories
    "tabular_codes/healthy": ("tabular_codes", "train.py", [], None, False),
    "tabular_codes/encoder_refit": (
        "tabular_codes", "train.py",
        [("    val_ds = Claims(records(2000, 2), train_ds.encoders)", "    val_ds = Claims(records(2000, 2))")],
        ("preprocessing_mismatch", "train.py", "main"), False,
    ),
    # pretraining scored on its own training rows (not leakage) and a head with no
    # dropout or BatchNorm evaluated in train mode (changes nothing)
    "transfer/healthy": ("../trace/transfer", "transfer.py", [], None, False),
    # a reset helper called before backward in one step and between backward and step in
    # the other: placed at that call; the generator's backward filling the
    # discriminator's .grad (reset before its own step) is no missing zero_grad
    "gan1d/reset_between_backward_and_step": (
        "../../../evals/rounds/01/cases/gan1d-step_order", "train_gan.py", [],
        ("step_order", "train_gan.py", "GANTrainer.g_step"), False,
    ),
    "gan1d/healthy": (
        "../../../evals/rounds/01/cases/gan1d-step_order", "train_gan.py",
        [("        self.reset_grads()\n        self.opt_g.step()", "        self.opt_g.step()\n        self.reset_grads()")],
        None, False,
    ),
    # a GAN: the generator's loss must be followed too, not only the first loss
    "gan/healthy": ("../../../evals/test/cases/healthy-gan-ring", "toygan/train.py", [], None, False),
    "gan/generator_toward_fake_label": (
        "../../../evals/test/cases/healthy-gan-ring", "toygan/train.py",
        [("binary_cross_entropy_with_logits(D(fake), torch.ones(b))", "binary_cross_entropy_with_logits(D(fake), torch.zeros(b))")],
        ("bad_labels", "toygan/train.py", "main"), False,
    ),
}  # fmt: skip
NEEDS = {"lightning_clf": "lightning"}  # a fixture that needs a package the tests may lack


def _params():
    for case_id, (name, file, edits, root, fast) in CASES.items():
        marks = [] if fast else [pytest.mark.slow]
        yield pytest.param(name, file, edits, root, id=case_id, marks=marks)


@pytest.mark.parametrize(("name", "file", "edits", "root"), list(_params()))
def test_real_shapes(tmp_path, name, file, edits, root):
    if name in NEEDS:
        pytest.importorskip(NEEDS[name])
    report = investigate_copy(tmp_path, name, edits, file)
    said = [
        (f.category, f.status, f.file, f.symbol, f.evidence[-1].text[:200]) for f in report.findings
    ]
    if root is None:
        assert confirmed(report) == [], said
        assert report.root_cause is None, said
        if name == "charlm":  # not even a suspicion: the targets are the next characters
            assert "split_leakage" not in {f.category for f in report.findings}, said
        if name == "gpu_default":
            assert report.command.argv == ["train.py", "--device", "cpu"], report.command
            assert report.conclusion == "no_defect_found", report.conclusion_reason
        return
    cause = report.finding(report.root_cause)
    assert cause is not None, said
    assert (cause.category, cause.file, cause.symbol) == root, said
    assert cause.status == "confirmed"
