"""The mechanical fixes of stages 2, 3, 5 and 7 as edits, without running anything: the
data, shapes and axes, the graph from the parameters to the loss, and modes and metrics
(the loss and the optimizer's are in tests/test_fix_edits.py, with the helpers)."""

from __future__ import annotations

import pytest
from test_fix_edits import applied, finding, line_of, loop_repo, proposals, write

from torch_investigate.tools.records import Observation

# ---- stages 2, 3, 5, 7 ---------------------------------------------------------------------


def test_a_statement_that_rewrites_the_targets_is_removed(tmp_path):
    root = loop_repo(tmp_path / "r", """
        yb = yb.roll(1, 0)
        loss = F.cross_entropy(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    """)  # fmt: skip
    at_use = line_of(root, "train.py", "loss =")
    (_, diff), *_ = proposals(root, finding("label_misaligned", "train.py", at_use))
    assert "roll" not in applied(root, diff, tmp_path)["train.py"]


def test_a_nan_written_into_the_inputs_is_found_upstream_of_the_forward(tmp_path):
    root = write(tmp_path / "r", {"train.py": """
        import torch
        def main():
            x = torch.ones(5, 1)
            x = x * 2
            x[0] = float("nan")
            model = torch.nn.Linear(1, 1)
            for step in range(3):
                pred = model(x)
        main()
        """})  # fmt: skip
    changes = proposals(
        root, finding("nonfinite_inputs", "train.py", line_of(root, "train.py", "pred ="))
    )
    assert len(changes) == 1 and "nan" in changes[0][0]


def test_detach_and_data_in_the_forward_are_removed(tmp_path):
    root = write(tmp_path / "r", {"model.py": """
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.a, self.b = nn.Linear(4, 4), nn.Linear(4, 2)
            def forward(self, x):
                h = self.a(x).detach()
                return self.b(h.data)
        """})  # fmt: skip
    found = proposals(root, finding("detached_graph", "model.py", 7))
    assert any(
        "self.a(x)\n" in applied(root, d, tmp_path / str(i))["model.py"]
        for i, (_, d) in enumerate(found)
    )


@pytest.mark.parametrize(
    "wrapper", ["with torch.no_grad():", "with torch.set_grad_enabled(False):"]
)
def test_a_no_grad_block_around_the_forward_is_unwrapped(tmp_path, wrapper):
    root = write(tmp_path / "r", {"model.py": f"""
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.a, self.b = nn.Linear(4, 4), nn.Linear(4, 2)
            def forward(self, x):
                {wrapper}
                    x = self.a(x)
                    x = x.relu()
                return self.b(x)
        """})  # fmt: skip
    (_, diff), *_ = proposals(root, finding("no_grad_training", "model.py", 9))
    text = applied(root, diff, tmp_path)["model.py"]
    assert "        x = self.a(x)\n        x = x.relu()\n        return self.b(x)" in text
    assert "no_grad" not in text and "set_grad_enabled" not in text


def test_a_no_grad_decorator_is_removed(tmp_path):
    root = write(tmp_path / "r", {"model.py": """
        import torch
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.a = nn.Linear(4, 2)
            @torch.no_grad()
            def embed(self, x):
                return self.a(x)
        """})  # fmt: skip
    (_, diff), *_ = proposals(root, finding("no_grad_training", "model.py", 9))
    assert "no_grad" not in applied(root, diff, tmp_path)["model.py"]


def test_layers_in_a_plain_list_become_a_module_list(tmp_path):
    root = write(tmp_path / "r", {"model.py": """
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = [nn.Linear(4, 4) for _ in range(3)]
        """})  # fmt: skip
    (_, diff), *_ = proposals(root, finding("unregistered_parameters", "model.py", 5))
    assert "self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])" in applied(root, diff, tmp_path)["model.py"]  # fmt: skip


def test_frozen_parameters_train_again(tmp_path):
    root = write(tmp_path / "r", {"model.py": """
        import torch.nn as nn
        model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 2))
        for p in model[0].parameters():
            p.requires_grad = False
        """})  # fmt: skip
    (_, diff), *_ = proposals(root, finding("frozen_parameters", "model.py", 4))
    assert "requires_grad" not in applied(root, diff, tmp_path)["model.py"]


def test_the_metric_argmax_gets_a_dim_and_the_wrong_dim_is_moved(tmp_path):
    root = write(tmp_path / "r", {"m.py": """
        import torch.nn.functional as F
        def accuracy(logits, y):
            return (logits.argmax() == y).float().mean()
        def embed(x):
            return F.normalize(x, dim=0)
        """})  # fmt: skip
    (_, diff), *_ = proposals(root, finding("metric_bug", "m.py", 3))
    assert "logits.argmax(dim=-1)" in applied(root, diff, tmp_path / "a")["m.py"]
    (_, diff), *_ = proposals(root, finding("wrong_dimension", "m.py", 5))
    assert "F.normalize(x, dim=-1)" in applied(root, diff, tmp_path / "b")["m.py"]


def test_a_train_call_in_evaluation_becomes_eval(tmp_path):
    root = write(tmp_path / "r", {"ev.py": """
        def evaluate(model, x):
            model.train()
            return model(x)
        """})  # fmt: skip
    (_, diff), *_ = proposals(root, finding("train_mode_in_eval", "ev.py", 2))
    assert "model.eval()" in applied(root, diff, tmp_path)["ev.py"]


def test_a_layer_made_in_every_forward_is_made_once(tmp_path):
    root = write(tmp_path / "r", {"nets.py": """
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self, hidden=8):
                super().__init__()
                self.hidden = hidden
                self.head = nn.Linear(hidden, 2)
            def forward(self, x):
                self.stem = nn.Linear(x.shape[-1], self.hidden)
                return self.head(self.stem(x))
        """})  # fmt: skip
    (_, diff), *_ = proposals(root, finding("params_created_in_forward", "nets.py", 8))
    text = applied(root, diff, tmp_path)["nets.py"]
    assert (
        "        self.head = nn.Linear(hidden, 2)\n        self.stem = nn.LazyLinear(self.hidden)\n"
        in text
    )
    assert "x.shape[-1]" not in text


def test_a_reset_outside_the_accumulation_branch_moves_in_after_the_step(tmp_path):
    root = loop_repo(tmp_path / "r", """
        loss = F.cross_entropy(model(xb), yb) / 4
        loss.backward()
        if (i + 1) % 4 == 0:
            optimizer.step()
        optimizer.zero_grad()
    """)  # fmt: skip
    (_, diff), *_ = proposals(
        root, finding("step_order", "train.py", line_of(root, "train.py", "zero_grad"))
    )
    text = applied(root, diff, tmp_path)["train.py"]
    assert "            optimizer.step()\n            optimizer.zero_grad()\n" in text


def test_an_initialization_that_overwrites_the_defaults_is_removed(tmp_path):
    root = write(tmp_path / "r", {"model.py": """
        import torch.nn as nn
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.gru = nn.GRU(4, 8)
                self.fc1 = nn.Linear(8, 2)
                nn.init.constant_(self.fc1.bias, -10.0)
                for name, p in self.named_parameters():
                    if "weight_hh" in name:
                        nn.init.orthogonal_(p)
                    else:
                        nn.init.zeros_(p)
        """})  # fmt: skip
    changes = [c for c, _ in proposals(root, finding("bad_initialization", "model.py", 3))]
    assert any("nn.init.constant_(self.fc1.bias, -10.0)" in c for c in changes)
    assert any(c.startswith("removed `for name, p in self.named_parameters()") for c in changes)


def test_a_unit_axis_added_in_a_hand_written_loss_is_taken_away(tmp_path):
    root = write(tmp_path / "r", {"q.py": """
        import torch
        def pinball(pred, target, q):
            err = target.unsqueeze(-1) - pred
            return torch.maximum(q * err, (q - 1) * err).mean()
        def l1(pred, y):
            return (pred - y[:, None]).abs().mean()
        """})  # fmt: skip
    (change, diff), *_ = proposals(root, finding("broadcast_mismatch", "q.py", 3))
    assert "no unit axis" in change
    assert "err = target - pred" in applied(root, diff, tmp_path)["q.py"]
    (_, diff), *_ = proposals(root, finding("broadcast_mismatch", "q.py", 6))
    assert "return (pred - y).abs().mean()" in applied(root, diff, tmp_path / "2")["q.py"]


def test_a_reshape_that_reorders_the_sizes_becomes_the_permute_the_run_tried(tmp_path):
    root = write(tmp_path / "r", {"m.py": """
        import torch.nn as nn
        class Net(nn.Module):
            def forward(self, pts):
                b, n, _ = pts.shape
                x = self.mlp(pts.reshape(b, 3, n))
                return x.max(dim=2).values
        """})  # fmt: skip
    f = finding("reshape_scramble", "m.py", 5)
    f.evidence.append(
        Observation(source="runtime", text="a reshape that reorders", where={"file": "m.py", "line": 5},
                    values={"shapes": [[32, 96, 3], [32, 3, 96]]})
    )  # fmt: skip
    (change, diff), *_ = proposals(root, f)
    assert "permute" in change
    assert "x = self.mlp(pts.permute(0, 2, 1))" in applied(root, diff, tmp_path)["m.py"]


def test_a_freeze_in_another_function_that_is_never_undone_is_removed(tmp_path):
    """The finding sits where the optimizer is built; the switch-off is in a warm-up phase
    elsewhere, whose `else` only sets the train mode."""
    root = write(tmp_path / "r", {"run.py": """
        import torch
        def set_phase(model, epoch):
            if epoch < 2:
                model.trunk.requires_grad_(False)
            else:
                model.trunk.train()
        def main(model):
            opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
            for epoch in range(5):
                set_phase(model, epoch)
        """})  # fmt: skip
    changes = proposals(root, finding("frozen_parameters", "run.py", 8))
    assert len(changes) == 1
    text = applied(root, changes[0][1], tmp_path)["run.py"]
    assert "requires_grad_" not in text and "if epoch < 2:\n        pass\n" in text


def test_a_forward_that_returns_from_the_value_its_result_was_computed_from(tmp_path):
    root = write(tmp_path / "r", {"m.py": """
        import torch
        import torch.nn as nn
        class SetClassifier(nn.Module):
            def forward(self, points):
                tokens = self.embed(points)
                cls = self.cls_token.expand(points.size(0), -1, -1)
                tokens = torch.cat([cls, tokens], dim=1)
                encoded = self.encoder(tokens)
                return self.head(self.norm(cls[:, 0]))
        """})  # fmt: skip
    changes = proposals(root, finding("output_ignores_input", "m.py", 5))
    change, diff = next((c, d) for c, d in changes if "never used" in c)
    assert "returns from `cls` where it computed `encoded`" in change
    assert "return self.head(self.norm(encoded[:, 0]))" in applied(root, diff, tmp_path)["m.py"]


def test_a_thaw_that_matches_nothing_is_kept_and_the_freeze_removed(tmp_path):
    """The run places the finding at the unfreeze that never applies; removing it would
    change nothing: the candidates remove the freeze."""
    root = write(tmp_path / "r", {"freezing.py": """
        def freeze_backbone(model):
            for name, param in model.named_parameters():
                if name.split(".")[0] in ("stem", "blocks"):
                    param.requires_grad = False
        def unfreeze_backbone(model):
            for name, param in model.named_parameters():
                if name.startswith("backbone."):
                    param.requires_grad = True
        """})  # fmt: skip
    changes = proposals(root, finding("frozen_parameters", "freezing.py", 8))
    assert [c for c, _ in changes] == [
        "removed `param.requires_grad = False` (freezing.py:4): the parameters train again"
    ]


def test_the_evaluation_data_gets_the_state_fitted_on_the_training_data(tmp_path):
    root = write(tmp_path / "r", {"data.py": """
        class Table:
            def __init__(self, rows, codes=None, stats=None, scale=1.0):
                self.codes = codes or {v: i for i, v in enumerate(sorted(set(rows)))}
                self.stats = fit(rows) if stats is None else stats
                self.scale = scale
        """, "train.py": """
        from data import Table
        train = Table(["a", "b"])
        valid = Table(["b", "c"], stats=train.stats)
        """})  # fmt: skip
    (change, diff), *rest = proposals(root, finding("preprocessing_mismatch", "train.py", 3))
    assert not rest and "given codes=train.codes" in change
    assert 'valid = Table(["b", "c"], stats=train.stats, codes=train.codes)' in applied(root, diff, tmp_path)["train.py"]  # fmt: skip


def test_the_model_of_an_evaluation_is_the_named_callee_not_a_method_of_its_result(tmp_path):
    """`hits += (net(x).argmax(-1) == y).sum().item()`: the model is `net`; round 05's
    patch called `.eval()` on `(net(x).argmax(-1) == y).sum().item` and crashed."""
    from torch_investigate.agent.fix.mechanical.base import FixContext
    from torch_investigate.agent.fix.mechanical.modes import _model_call
    from torch_investigate.agent.fix.patcher import Source
    from torch_investigate.tools.tracefile.trace import Forward, Frame

    (tmp_path / "ev.py").write_text(
        "def accuracy(net, loader):\n"
        "    hits = 0\n"
        "    for x, y in loader:\n"
        "        hits += (net(x).argmax(-1) == y).sum().item()\n"
        "    return hits\n"
    )
    ctx = FixContext(Source.load(tmp_path), None, None)  # type: ignore[arg-type]
    fwd = Forward(
        index=0, model="Net", training=True, grad_enabled=False,
        frame=Frame(file="ev.py", line=4, function="accuracy"),
    )  # fmt: skip
    found = _model_call(ctx, fwd)
    assert found is not None and found[2] == "net"
