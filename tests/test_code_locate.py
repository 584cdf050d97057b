"""locate(): where the planner finds the model, loss, optimizer and training loop."""

from __future__ import annotations

from pathlib import Path

from torch_investigate.tools.code import CodeIndex, locate

FIXTURES = Path(__file__).parent / "fixtures" / "code"


def test_constructs_of_a_multi_file_repo() -> None:
    code_map = locate(CodeIndex.build(FIXTURES / "healthy_repo"))
    assert [(s.file, s.name) for s in code_map.model_classes] == [
        ("lm.py", "CharLM"),
        ("models/blocks.py", "ResidualBlock"),
        ("models/net.py", "ConvNet"),
    ]
    assert [(s.file, s.line, s.name) for s in code_map.optimizers] == [
        ("lm.py", 26, "Adam"),
        ("train.py", 27, "AdamW"),
    ]
    assert [(s.file, s.line, s.symbol) for s in code_map.training_loops] == [
        ("engine.py", 12, "train_one_epoch"),
        ("lm.py", 32, "train_lm"),
    ]
    assert [(s.file, s.line) for s in code_map.backward_calls] == [("engine.py", 16), ("lm.py", 40)]
    assert [(s.file, s.line) for s in code_map.optimizer_steps] == [
        ("engine.py", 18),
        ("lm.py", 42),
    ]
    assert [(s.file, s.symbol) for s in code_map.evaluations] == [("engine.py", "evaluate")]
    assert [(s.file, s.line) for s in code_map.entry_points] == [("train.py", 41)]
    assert code_map.first("scheduler").name == "OneCycleLR"  # type: ignore[union-attr]


def test_constructs_held_as_attributes_of_a_trainer_class() -> None:
    code_map = locate(CodeIndex.build(FIXTURES / "index_repo"))
    assert [(s.target, s.symbol) for s in code_map.losses] == [("self.crit", "Trainer.__init__")]
    assert [(s.target, s.name) for s in code_map.schedulers] == [("self.sched", "StepLR")]
    assert [(s.file, s.symbol) for s in code_map.models] == [("train.py", "main")]
    assert [s.text for s in code_map.zero_grads] == ["optimizer.zero_grad()"]


def test_describe_lists_every_kind_and_says_when_none() -> None:
    text = locate(CodeIndex.from_sources({"a.py": "x = 1\n"})).describe()
    assert "training loops: none found" in text
    assert "optimizers: none found" in text
    full = locate(CodeIndex.build(FIXTURES / "index_repo")).describe()
    assert "train.py:18 (train_one_epoch) for xb, yb in loader:" in full
