"""Integer code columns and their targets are counted over each loader's first pass:
the same rows seen again in later epochs are no new observations, and counting them
again would shrink the standard errors the recoded-categories test relies on."""

from __future__ import annotations

from pathlib import Path

SCRIPT = """\
import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
codes = torch.randint(0, 5, (300, 4))
y = (codes[:, 0] > 2).long()
dev_codes = torch.randint(0, 5, (120, 4))
dev_y = (dev_codes[:, 0] > 2).long()
train = DataLoader(TensorDataset(codes, y), batch_size=30, shuffle=True)
dev = DataLoader(TensorDataset(dev_codes, dev_y), batch_size=60)
emb = torch.nn.EmbeddingBag(5, 2, mode="sum")
opt = torch.optim.SGD(emb.parameters(), lr=0.1)
for epoch in range(4):
    for xb, yb in train:
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(emb(xb), yb)
        loss.backward()
        opt.step()
    with torch.no_grad():
        acc = sum((emb(xb).argmax(1) == yb).sum().item() for xb, yb in dev) / 120
    print(epoch, loss.item(), acc)
"""


def test_each_loader_s_codes_are_counted_over_one_pass(tmp_path: Path) -> None:
    from torch_investigate.tools.sandbox import Sandbox
    from torch_investigate.tools.tracefile.trace import load_trace

    (tmp_path / "codes.py").write_text(SCRIPT)
    with Sandbox(tmp_path) as sandbox:
        res = sandbox.run(["codes.py"], trace_config={"max_steps": 100}, label="codes")
        assert res.trace_path is not None, res.stderr[-2000:]
        t = load_trace(res.trace_path)
    seen = {
        c.role or "eval": sum(n for n, _s, _ss in c.columns[0].values()) for c in t.code_targets
    }
    # four epochs of each, one pass counted: the 300 training and 120 evaluation rows
    assert seen == {"train": 300, "eval": 120}, seen
