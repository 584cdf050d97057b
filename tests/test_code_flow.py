"""The analysis under the checks: objects, value provenance, event order, constants, ranks."""

from __future__ import annotations

from pathlib import Path

from tree_sitter import Node

from torch_investigate.tools.code import CodeIndex
from torch_investigate.tools.code import syntax as sx
from torch_investigate.tools.code.analysis import Analysis, analysis
from torch_investigate.tools.code.consts import number_value
from torch_investigate.tools.code.flow import Value
from torch_investigate.tools.code.loops import find_training_loops
from torch_investigate.tools.code.shapes import rank

MODEL = """
import torch.nn as nn
import torch.nn.functional as F

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3), nn.Softmax(dim=1))

    def forward(self, x):
        return self.body(x)
"""

TRAIN = """
import argparse
import torch
from torch import nn
from model import Net
from config import CLIP

parser = argparse.ArgumentParser()
parser.add_argument("--weight-decay", type=float, default=0.05)
args = parser.parse_args()

class Trainer:
    def __init__(self, model: Net, criterion, opt):
        self.model = model
        self.criterion = criterion
        self.opt = opt

    def step(self, x, y):
        self.opt.zero_grad()
        out = self.model(x).view(-1, 3)
        loss = self.criterion(out, y.detach())
        loss.backward()
        self.opt.step()

def main(loader):
    model = Net()
    trainer = Trainer(model, nn.CrossEntropyLoss(), torch.optim.SGD(model.parameters(), lr=0.1))
    for epoch in range(3):
        for x, y in loader:
            trainer.step(x, y)
        torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
    wd = args.weight_decay
    col = torch.randn(10, 3)[:, 0]
    mat = torch.randn(10, 3) @ torch.randn(3)
    up = torch.arange(5).view(-1, 1)
"""


def _analysis() -> Analysis:
    index = CodeIndex.from_sources(
        {"model.py": MODEL, "train.py": TRAIN, "config.py": "CLIP = 0.5\n"}
    )
    return analysis(index)


def _node(a: Analysis, file: str, text: str) -> Value:
    """The last expression with this text (so a name is found at its use, not its import)."""
    unit = a.index.units[file]
    found: Node | None = None
    for node in sx.descendants(unit.tree.root_node, into_scopes=True):
        if sx.flat(node) == text and node.type != "dotted_name":
            found = node
    assert found is not None, text
    return a.flow.value(unit, found)


def test_objects_follow_attributes_through_constructor_arguments() -> None:
    a = _analysis()
    objs = a.flow.objects(_node(a, "train.py", "self.criterion"))
    assert [(o.kind, o.resolved) for o in objs] == [("external", "torch.nn.CrossEntropyLoss")]
    opt = a.flow.objects(_node(a, "train.py", "self.opt"))
    assert [o.resolved for o in opt] == ["torch.optim.SGD"]
    model = a.flow.objects(_node(a, "train.py", "self.model"))
    assert [(o.kind, o.name) for o in model] == [("instance", "Net")]


def test_identity_trace_enters_the_model_and_its_sequential() -> None:
    a = _analysis()
    origins = a.flow.trace(_node(a, "train.py", "out"))
    assert [a.flow.describe_call(o) for o in origins] == ["Softmax"]
    assert [p.text for p in origins[0].path][:4] == [
        "out",
        "self.model(x).view(-1, 3)",
        "self.model(x)",
        "self.body(x)",
    ]


def test_dataflow_trace_records_cuts_on_the_path() -> None:
    a = _analysis()
    target = _node(a, "train.py", "y.detach()")
    origins = a.flow.trace(target, dataflow=True, enter_models=False)
    assert origins and all(o.path[0].text == "y.detach()" for o in origins)
    # `y` is a parameter of Trainer.step: its caller passes the loop's batch element
    assert {o.kind for o in origins} == {"element"}


def test_training_loop_events_in_order_through_a_method() -> None:
    a = _analysis()
    (loop,) = a.training_loops
    assert loop.region.qualname == "main" and loop.loop is not None
    assert loop.loop.header == "for x, y in loader:"
    kinds = [o.kind for o in loop.occurrences]
    assert kinds == ["zero_grad", "forward", "backward", "step"]
    assert all(o.via and o.via[0].value.text == "trainer.step(x, y)" for o in loop.occurrences)


def test_number_values_from_constants_imports_and_argparse() -> None:
    a = _analysis()
    assert number_value(a, _node(a, "train.py", "CLIP")) == 0.5
    assert number_value(a, _node(a, "train.py", "args.weight_decay")) == 0.05


def test_rough_ranks() -> None:
    a = _analysis()
    assert rank(a, _node(a, "train.py", "torch.randn(10, 3)[:, 0]")) == 1
    assert rank(a, _node(a, "train.py", "torch.randn(10, 3) @ torch.randn(3)")) == 1
    assert rank(a, _node(a, "train.py", "torch.arange(5).view(-1, 1)")) == 2


def test_an_lbfgs_closure_is_part_of_the_training_loop() -> None:
    source = (
        Path(__file__).parent / "fixtures/code/checks/step_order/ok_lbfgs_closure.py"
    ).read_text()
    (loop,) = find_training_loops(CodeIndex.from_sources({"fit.py": source}))
    assert loop.symbol == "fit"
    assert [e.kind for e in loop.events] == ["zero_grad", "backward", "step"]
