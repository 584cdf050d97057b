"""The mechanical fixes as edits, without running anything: for a finding placed where the
checks place it, each fixer proposes the edit its category calls for, the edited code
parses, and the diff applies with `git apply` to a copy of the repo (a few repos per
category, written in different styles). Verification by rerunning is tested in
tests/test_fix.py."""

from __future__ import annotations

import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from torch_investigate.agent.fix.mechanical import REGISTRY, FixContext
from torch_investigate.agent.fix.patcher import candidate_diff
from torch_investigate.evals.seeding.source import Source
from torch_investigate.tools.records import Finding, Observation, Report, Stage
from torch_investigate.tools.taxonomy import taxonomy


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip("\n"))
    return root


def finding(category: str, file: str, line: int, *extra: tuple[str, int]) -> Finding:
    evidence = [Observation(source="runtime", text="seen at run time")]
    evidence += [
        Observation(source="static", text="here", where={"file": f, "line": n}) for f, n in extra
    ]
    return Finding(
        id="F1", category=category, stage=Stage(taxonomy().category(category).stage),
        status="confirmed", confidence="high", file=file, line=line, evidence=evidence,
        why="it breaks learning", confirm="rerun",
    )  # fmt: skip


def report_with(f: Finding) -> Report:
    return Report(repo="r", stages=[], findings=[f], conclusion="defects_found", root_cause=f.id)


def proposals(root: Path, f: Finding) -> list[tuple[str, str]]:
    """(change, diff) of every candidate the category's fixer makes, checked to apply."""
    source = Source.load(root)
    ctx = FixContext(source, report_with(f), None)
    out = []
    for c in REGISTRY[f.category].candidates(ctx, f):
        made = candidate_diff(source, c)
        assert made is not None, f"{c.change}: the edit conflicts or does not parse"
        out.append((c.change, made[0]))
    return out


def applied(root: Path, diff: str, tmp_path: Path) -> dict[str, str]:
    """The repo's files after `git apply` of diff on a copy (the real git, as a user would)."""
    copy = tmp_path / "applied"
    shutil.copytree(root, copy)
    done = subprocess.run(
        ["git", "apply", "-"], input=diff, text=True, cwd=copy, capture_output=True
    )
    assert done.returncode == 0, done.stderr
    return {p.name: p.read_text() for p in copy.rglob("*.py")}


LOOP = """
import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(64, 4)
y = torch.randint(0, 3, (64,))
for epoch in range(5):
    for i in range(0, 64, 16):
        xb, yb = x[i:i + 16], y[i:i + 16]
{body}
"""


def loop_repo(root: Path, body: str) -> Path:
    return write(
        root,
        {"train.py": LOOP.format(body=textwrap.indent(textwrap.dedent(body).strip("\n"), " " * 8))},
    )


def line_of(root: Path, file: str, text: str) -> int:
    lines = (root / file).read_text().splitlines()
    return next(i for i, ln in enumerate(lines, 1) if text in ln)


# ---- stage 4 -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "forward, expect",
    [
        ("return F.softmax(self.fc(x), dim=1)", "return self.fc(x)"),
        ("return self.fc(x).softmax(dim=-1)", "return self.fc(x)"),
        ("return torch.log_softmax(self.fc(x), 1)", "return self.fc(x)"),
    ],
)
def test_the_softmax_before_cross_entropy_is_removed(tmp_path, forward, expect):
    root = write(tmp_path / "r", {"model.py": f"""
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 3)

            def forward(self, x):
                {forward}
        """})  # fmt: skip
    (change, diff), *_ = proposals(
        root, finding("softmax_before_ce", "model.py", line_of(root, "model.py", "return"))
    )
    assert expect in applied(root, diff, tmp_path)["model.py"]


def test_a_softmax_layer_at_the_end_of_a_sequential_is_dropped(tmp_path):
    root = write(tmp_path / "r", {"train.py": """
        import torch.nn as nn
        model = nn.Sequential(nn.Linear(4, 3), nn.Softmax(dim=1))
        """})  # fmt: skip
    (_, diff), *_ = proposals(root, finding("softmax_before_ce", "train.py", 2))
    assert "nn.Sequential(nn.Linear(4, 3))" in applied(root, diff, tmp_path)["train.py"]


def test_loss_arguments_are_swapped_back(tmp_path):
    root = loop_repo(tmp_path / "r", """
        loss = F.binary_cross_entropy_with_logits(yb.float(), model(xb)[:, 0])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    """)  # fmt: skip
    (_, diff), *_ = proposals(
        root, finding("loss_args_swapped", "train.py", line_of(root, "train.py", "loss ="))
    )
    assert "F.binary_cross_entropy_with_logits(model(xb)[:, 0], yb.float())" in applied(root, diff, tmp_path)["train.py"]  # fmt: skip


def test_ignore_index_on_a_real_class_is_dropped(tmp_path):
    root = loop_repo(tmp_path / "r", """
        loss = F.cross_entropy(model(xb), yb, ignore_index=0)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    """)  # fmt: skip
    (_, diff), *_ = proposals(
        root, finding("loss_mask_error", "train.py", line_of(root, "train.py", "loss ="))
    )
    assert "F.cross_entropy(model(xb), yb)" in applied(root, diff, tmp_path)["train.py"]


def test_a_loss_rebuilt_from_item_is_put_back_in_the_graph(tmp_path):
    root = loop_repo(tmp_path / "r", """
        parts = [F.cross_entropy(model(xb), yb), model[0].weight.pow(2).mean()]
        loss = torch.tensor(sum(p.item() for p in parts), requires_grad=True)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    """)  # fmt: skip
    changes = proposals(
        root, finding("loss_detached_scale", "train.py", line_of(root, "train.py", "torch.tensor("))
    )
    assert any("loss = sum(p for p in parts)" in applied(root, d, tmp_path / str(i))["train.py"] for i, (_, d) in enumerate(changes))  # fmt: skip


def test_a_loss_summed_from_a_dict_of_item_copies_sums_the_tensors(tmp_path):
    """The finding sits where the floats are taken; the re-wrap is a line later."""
    root = write(tmp_path / "r", {"m.py": """
        import torch
        def combine(losses, weights):
            logs = {name: value.item() for name, value in losses.items()}
            total = torch.tensor(sum(weights[n] * logs[n] for n in losses), requires_grad=True)
            logs["total"] = total.item()
            return total, logs
        """})  # fmt: skip
    changes = proposals(root, finding("loss_detached_scale", "m.py", 3))
    texts = [applied(root, d, tmp_path / str(i))["m.py"] for i, (_, d) in enumerate(changes)]
    assert any("total = sum(weights[n] * losses[n] for n in losses)\n" in t for t in texts)


def test_the_target_gets_the_dtype_its_loss_expects(tmp_path):
    root = loop_repo(tmp_path / "r", """
        loss = F.cross_entropy(model(xb), yb.float())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    """)  # fmt: skip
    (_, diff), *_ = proposals(
        root, finding("loss_target_mismatch", "train.py", line_of(root, "train.py", "loss ="))
    )
    assert "F.cross_entropy(model(xb), yb.long())" in applied(root, diff, tmp_path)["train.py"]


# ---- stage 6 -------------------------------------------------------------------------------


def test_a_missing_zero_grad_is_added_after_the_step(tmp_path):
    root = loop_repo(tmp_path / "r", """
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        optimizer.step()
    """)  # fmt: skip
    (change, diff), *_ = proposals(
        root, finding("missing_zero_grad", "train.py", line_of(root, "train.py", "backward"))
    )
    text = applied(root, diff, tmp_path)["train.py"]
    assert "        optimizer.step()\n        optimizer.zero_grad()\n" in text


def test_a_zero_grad_between_backward_and_step_moves_after_the_step(tmp_path):
    root = loop_repo(tmp_path / "r", """
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        optimizer.zero_grad()
        optimizer.step()
    """)  # fmt: skip
    (_, diff), *_ = proposals(
        root, finding("step_order", "train.py", line_of(root, "train.py", "zero_grad"))
    )
    text = applied(root, diff, tmp_path)["train.py"]
    assert text.index("backward()") < text.index("optimizer.step()") < text.index("zero_grad()")


def test_a_step_left_after_the_loop_moves_in_after_the_backward(tmp_path):
    root = write(tmp_path / "r", {"train.py": """
        import torch
        w = torch.zeros(3, requires_grad=True)
        opt = torch.optim.SGD([w], lr=0.1)
        for i in range(10):
            opt.zero_grad()
            loss = (w - 1).pow(2).sum()
            loss.backward()
        opt.step()
        """})  # fmt: skip
    f = finding("step_not_called", "train.py", 8, ("train.py", 7))
    (_, diff), *_ = proposals(root, f)
    assert "    loss.backward()\n    opt.step()\n" in applied(root, diff, tmp_path)["train.py"]


def test_a_per_batch_scheduler_step_moves_to_the_epoch(tmp_path):
    root = loop_repo(tmp_path / "r", """
        loss = F.cross_entropy(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()
    """)  # fmt: skip
    text = (
        (root / "train.py")
        .read_text()
        .replace(
            "x = torch",
            "scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, 0.9)\nx = torch",
            1,
        )
    )
    (root / "train.py").write_text(text)
    (_, diff), *_ = proposals(
        root, finding("scheduler_misuse", "train.py", line_of(root, "train.py", "scheduler.step"))
    )
    text = applied(root, diff, tmp_path)["train.py"]
    assert "        optimizer.step()\n    scheduler.step()\n" in text


def test_weight_decay_is_turned_off_and_a_tiny_clip_removed(tmp_path):
    root = loop_repo(tmp_path / "r", """
        loss = F.cross_entropy(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1e-4)
        optimizer.step()
    """)  # fmt: skip
    text = (root / "train.py").read_text().replace("lr=0.1)", "lr=0.1, weight_decay=10.0)")
    (root / "train.py").write_text(text)
    (_, diff), *_ = proposals(
        root, finding("excessive_weight_decay", "train.py", line_of(root, "train.py", "SGD("))
    )
    assert "weight_decay=0.0" in applied(root, diff, tmp_path / "a")["train.py"]
    (_, limit), (_, removed), *_ = proposals(
        root, finding("tiny_grad_clip", "train.py", line_of(root, "train.py", "clip_grad"))
    )
    assert 'max_norm=float("inf")' in applied(root, limit, tmp_path / "b")["train.py"]
    assert "clip_grad_norm_" not in applied(root, removed, tmp_path / "c")["train.py"]


def test_a_tiny_clip_whose_norm_the_program_keeps_is_given_no_limit_not_removed(tmp_path):
    """`norms.append(float(clip_grad_norm_(...)))`: removing the statement would leave the
    program averaging an empty list (round 05's cellsoh crashed so); an infinite limit
    clips nothing and keeps the norm it logs."""
    root = loop_repo(tmp_path / "r", """
        loss = F.cross_entropy(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        norms.append(float(torch.nn.utils.clip_grad_norm_(model.parameters(), 1e-4)))
        optimizer.step()
    """)  # fmt: skip
    found = proposals(
        root, finding("tiny_grad_clip", "train.py", line_of(root, "train.py", "clip_grad"))
    )
    texts = [
        applied(root, diff, tmp_path / f"a{i}")["train.py"] for i, (_, diff) in enumerate(found)
    ]
    assert texts and all("norms.append(float(" in t for t in texts)
    assert 'clip_grad_norm_(model.parameters(), float("inf"))' in texts[0]


@pytest.mark.parametrize(
    "params, expect",
    [("model[0].parameters()", "model.parameters()"), ("[model[2].weight]", "model.parameters()")],
)
def test_the_optimizer_gets_every_parameter_of_the_model(tmp_path, params, expect):
    root = loop_repo(tmp_path / "r", """
        loss = F.cross_entropy(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    """)  # fmt: skip
    text = (root / "train.py").read_text().replace("SGD(model.parameters()", f"SGD({params}")
    (root / "train.py").write_text(text)
    (_, diff), *_ = proposals(
        root, finding("optimizer_missing_params", "train.py", line_of(root, "train.py", "SGD("))
    )
    assert f"torch.optim.SGD({expect}, lr=0.1)" in applied(root, diff, tmp_path)["train.py"]


def test_an_optimizer_line_copied_from_another_trains_the_part_none_held(tmp_path):
    root = write(tmp_path / "r", {"agent.py": """
        import torch
        import torch.nn as nn
        class Agent(nn.Module):
            def __init__(self):
                super().__init__()
                self.policy = nn.Linear(4, 2)
                self.critic = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
                self.scale = 2.0
        agent = Agent()
        policy_opt = torch.optim.Adam(agent.policy.parameters(), lr=1e-3)
        critic_opt = torch.optim.Adam(agent.policy.parameters(), lr=1e-2)
        """})  # fmt: skip
    (change, diff), *rest = proposals(root, finding("optimizer_missing_params", "agent.py", 11))
    assert "copied from another optimizer" in change
    text = applied(root, diff, tmp_path)["agent.py"]
    assert "critic_opt = torch.optim.Adam(agent.critic.parameters(), lr=1e-2)" in text
    assert "policy_opt = torch.optim.Adam(agent.policy.parameters(), lr=1e-3)" in text
    assert any("agent.parameters()" in c for c, _ in rest)  # the whole model, next


def test_a_step_behind_a_counter_only_its_own_branch_advances_reads_the_loop_index(tmp_path):
    root = write(tmp_path / "r", {"train.py": """
        import torch
        model = torch.nn.Linear(4, 1)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(16)]
        global_step = 0
        for epoch in range(3):
            for micro_step, (x, y) in enumerate(data):
                loss = ((model(x) - y) ** 2).mean() / 4
                loss.backward()
                if (global_step + 1) % 4 == 0:
                    optimizer.step()
                    optimizer.zero_grad()
                    global_step += 1
        """})  # fmt: skip
    changes = proposals(root, finding("step_not_called", "train.py", 9))
    change, diff = next((c, d) for c, d in changes if "instead of" in c)
    assert "reads `micro_step` instead of `global_step`" in change
    assert "if (micro_step + 1) % 4 == 0:" in applied(root, diff, tmp_path)["train.py"]
    assert "added `optimizer.step()`" in changes[-1][0]  # still tried, last


def test_a_callback_that_steps_the_scheduler_per_batch_by_default_is_built_per_epoch(tmp_path):
    root = write(tmp_path / "r", {"callbacks.py": """
        class LRCallback:
            def __init__(self, scheduler, interval="step"):
                self.scheduler = scheduler
                self.interval = interval
            def on_batch_end(self):
                if self.interval == "step":
                    self.scheduler.step()
            def on_epoch_end(self):
                if self.interval == "epoch":
                    self.scheduler.step()
        """, "fit.py": """
        import torch
        from callbacks import LRCallback
        opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
        callbacks = [LRCallback(torch.optim.lr_scheduler.StepLR(opt, 8))]
        """})  # fmt: skip
    (change, diff), *_ = proposals(root, finding("scheduler_misuse", "callbacks.py", 7))
    assert "built with interval='epoch'" in change
    text = applied(root, diff, tmp_path)["fit.py"]
    assert (
        "callbacks = [LRCallback(torch.optim.lr_scheduler.StepLR(opt, 8), interval='epoch')]"
        in text
    )


def test_a_mask_built_a_line_after_the_loss_it_weights_is_inverted(tmp_path):
    root = write(tmp_path / "r", {"lm.py": """
        import torch.nn.functional as F
        PAD = 0
        def sequence_loss(logits, targets):
            nll = F.cross_entropy(logits.transpose(1, 2), targets, reduction="none")
            mask = (targets == PAD).float()
            return (nll * mask).sum() / mask.sum().clamp(min=1.0)
        """})  # fmt: skip
    (change, diff), *_ = proposals(root, finding("loss_mask_error", "lm.py", 4))
    assert "inverted" in change
    assert "mask = (targets != PAD).float()" in applied(root, diff, tmp_path)["lm.py"]


def test_a_parameter_group_built_and_never_passed_is_given_to_the_optimizer(tmp_path):
    root = write(tmp_path / "r", {"t.py": """
        import torch
        def configure(model, lr):
            decay = [p for p in model.body.parameters() if p.ndim > 1]
            groups = [{"params": decay, "weight_decay": 0.01}]
            head_group = {"params": list(model.head.parameters()), "lr": 10 * lr}
            return torch.optim.AdamW(groups, lr=lr)
        """})  # fmt: skip
    changes = proposals(root, finding("optimizer_missing_params", "t.py", 6))
    assert [c for c, _ in changes] == [
        "optimizer params `groups` -> `[*groups, head_group]` (t.py:6): the group built for it and never passed"
    ]
    assert "return torch.optim.AdamW([*groups, head_group], lr=lr)" in applied(root, changes[0][1], tmp_path)["t.py"]  # fmt: skip
