"""A parameters() generator counted before it reaches the optimizer: the count exhausts it,
so the optimizer gets nothing from it. Spelled as a param group `{"params": gen, ...}` the
optimizer reads from a helper's list too; a list made once is iterated as often as needed."""

from __future__ import annotations

from torch_investigate.tools.code import CodeIndex
from torch_investigate.tools.code.checks import run_static_checks

SRC = """import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 8)
        self.b = nn.Linear(8, 2)


def groups(net, lr):
    g = MAKE
    n = sum(p.numel() for p in g)
    print(n)
    return [{"params": g, "lr": lr}, {"params": net.b.parameters(), "lr": lr * 10}]


def main():
    net = Net()
    opt = torch.optim.SGD(groups(net, 0.1), lr=0.1)
"""


def _found(src: str) -> list:
    index = CodeIndex.from_sources({"m.py": src})
    return [f for f in run_static_checks(index) if f.category == "optimizer_missing_params"]


def test_a_counted_generator_in_a_param_group_reaches_the_optimizer_empty():
    found = _found(SRC.replace("MAKE", "net.a.parameters()"))
    assert [(f.line, f.symbol) for f in found] == [(16, "groups")]


def test_a_list_of_parameters_counted_first_is_no_defect():
    assert _found(SRC.replace("MAKE", "list(net.a.parameters())")) == []
