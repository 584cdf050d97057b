"""Where the program's own code turns grad mode off (tools/code/grad_switches.py): a
forward that ran without grad mode where none of these is written had it turned off by
a library call (round 03: a reentrant checkpoint), which is a cut graph, not no_grad
training."""

from __future__ import annotations

from torch_investigate.tools.code.grad_switches import turns_grad_off
from torch_investigate.tools.code.index import CodeIndex

MODEL = """import torch
from torch.utils.checkpoint import checkpoint_sequential


class Field(torch.nn.Module):
    def forward(self, xy):
        h = checkpoint_sequential(self.trunk, 4, xy, use_reentrant=True)
        with torch.no_grad():
            f = self.frozen(xy)
        return self.head(h + f)

    @torch.no_grad()
    def encode(self, x):
        return self.enc(x)

    def switched(self, x):
        torch.set_grad_enabled(False)
        return self.enc(x)
"""


def test_only_code_that_says_so_turns_grad_off(tmp_path):
    (tmp_path / "model.py").write_text(MODEL)
    index = CodeIndex.build(tmp_path)
    assert not turns_grad_off(index, "model.py", 7)  # the checkpoint call
    assert turns_grad_off(index, "model.py", 9)  # inside `with torch.no_grad()`
    assert turns_grad_off(index, "model.py", 14)  # a decorated method
    assert turns_grad_off(index, "model.py", 18)  # a switch called in the function
    assert turns_grad_off(index, "elsewhere.py", 3)  # code not read counts as the program's
