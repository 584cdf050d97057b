"""The code index: symbols, imports, calls, assignments, lookups and skipped files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from torch_investigate.tools.code import CodeIndex
from torch_investigate.tools.code.index import UNKNOWN_SYMBOL
from torch_investigate.tools.code.loops import find_training_loops

FIXTURE = Path(__file__).parent / "fixtures" / "code" / "index_repo"


@pytest.fixture(scope="module")
def index() -> CodeIndex:
    return CodeIndex.build(FIXTURE)


def test_indexes_every_python_file_with_relative_posix_names(index: CodeIndex) -> None:
    assert index.files == ["model.py", "pkg/__init__.py", "pkg/helpers.py", "train.py"]
    assert not index.skipped
    assert not index.parse_issues


def test_qualified_names_and_inclusive_line_ranges(index: CodeIndex) -> None:
    forward = index.symbol("model.py:Net.forward")
    assert forward is not None
    assert (forward.kind, forward.line_start, forward.line_end) == ("method", 20, 22)
    assert forward.params == ["self", "x"]
    predict = index.symbol("model.py:Net.predict")
    assert predict is not None
    assert predict.line_start == 24 and predict.def_line == 25  # the decorator starts it
    assert predict.decorators == ["torch.no_grad()"]
    assert index.symbol("model.py:Net.Config.scaled") is not None
    assert index.symbol("model.py:outer.inner").kind == "function"  # type: ignore[union-attr]
    assert index.symbol("train.py:Trainer.fit").kind == "method"  # type: ignore[union-attr]
    assert index.symbol("Trainer.fit") is not None  # unique without the file
    assert index.symbol("model.py:Nope") is None


@pytest.mark.parametrize(
    ("file", "line", "expected"),
    [
        ("model.py", 21, "Net.forward"),
        ("model.py", 24, "Net.predict"),  # the decorator line
        ("model.py", 39, "outer.inner"),
        ("model.py", 42, "outer"),
        ("model.py", 31, "Net.Config.scaled"),
        ("model.py", 29, "Net.Config"),
        ("model.py", 3, "<module>"),
        ("train.py", 44, "<module>"),
        ("train.py", 29, "Trainer.__init__"),
        ("./train.py", 20, "train_one_epoch"),
    ],
)
def test_enclosing_symbol(index: CodeIndex, file: str, line: int, expected: str) -> None:
    assert index.enclosing_symbol(file, line) == expected


def test_enclosing_symbol_accepts_absolute_paths_inside_the_root(index: CodeIndex) -> None:
    assert index.enclosing_symbol(FIXTURE / "model.py", 21) == "Net.forward"
    assert index.enclosing_symbol(str((FIXTURE / "train.py").resolve()), 34) == "Trainer.fit"
    assert (
        index.enclosing_symbol("/usr/lib/python3/torch/nn/modules/module.py", 10) == UNKNOWN_SYMBOL
    )


def test_imports_resolve_aliases(index: CodeIndex) -> None:
    unit = index.unit("model.py")
    assert unit is not None
    assert unit.imports["F"] == "torch.nn.functional"
    assert unit.imports["nn"] == "torch.nn"
    train = index.unit("train.py")
    assert train is not None
    assert train.imports["optim"] == "torch.optim"
    assert train.imports["Net"] == "model.Net"
    pkg = index.unit("pkg/__init__.py")
    assert pkg is not None and pkg.imports["count_parameters"] == ".helpers.count_parameters"


def test_call_sites_carry_resolved_callee_arguments_and_symbol(index: CodeIndex) -> None:
    relu = [c for c in index.calls if c.resolved == "torch.nn.functional.relu"]
    assert len(relu) == 1
    assert relu[0].callee == "F.relu" and relu[0].symbol == "Net.forward" and relu[0].line == 21
    sgd = index.call_sites("SGD")
    assert sgd[0].resolved == "torch.optim.SGD"
    assert sgd[0].args == ["model.parameters()"]
    assert sgd[0].kwargs == {"lr": "lr", "momentum": "0.9"}


def test_assignments_are_classified(index: CodeIndex) -> None:
    kinds = {(a.file, a.target): a.kind for a in index.assignments}
    assert kinds[("model.py", "self.fc")] == "module_attribute"
    assert kinds[("train.py", "self.opt")] == "optimizer"
    assert kinds[("train.py", "self.sched")] == "scheduler"
    assert kinds[("train.py", "self.crit")] == "loss"
    assert kinds[("train.py", "model")] == "model"
    assert kinds[("train.py", "loss")] == "other"


def test_nn_module_subclasses_through_a_repo_base(index: CodeIndex) -> None:
    names = {s.qualname for s in index.module_classes()}
    assert names == {"Base", "Net"}


def test_construct_lookups(index: CodeIndex) -> None:
    assert [(s.name, s.line, s.target) for s in index.optimizer_sites()] == [
        ("SGD", 28, "self.opt")
    ]
    assert [(s.name, s.line) for s in index.scheduler_sites()] == [("StepLR", 29)]
    assert [(s.name, s.line) for s in index.loss_sites()] == [("CrossEntropyLoss", 30)]
    assert [(s.name, s.line) for s in index.data_loader_sites()] == [("DataLoader", 13)]
    assert [(s.name, s.line) for s in index.model_sites()] == [("Net", 39)]


def test_training_loop_reached_through_a_method_and_a_helper(index: CodeIndex) -> None:
    loops = find_training_loops(index)
    assert len(loops) == 1
    loop = loops[0]
    assert (loop.file, loop.symbol, loop.kind) == ("train.py", "train_one_epoch", "loop")
    assert (loop.line_start, loop.line_end) == (18, 22)
    assert loop.header == "for xb, yb in loader:"
    assert [e.kind for e in loop.events] == ["zero_grad", "backward", "step"]


def test_bad_files_are_skipped_with_a_reason(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    (root / "latin1.py").write_bytes("x = 'caf\xe9'\n".encode("latin-1"))
    (root / "blob.py").write_bytes(b"\x00\x01\x02binary")
    (root / "huge.py").write_text("x = 1\n" * 400_000)  # 2.4 MB
    (root / "broken.py").write_text("def f(:\n    return 1\n\ndef ok():\n    return 2\n")
    for ignored in (".venv/lib", "__pycache__", "node_modules/pkg", "site-packages/x"):
        (root / ignored).mkdir(parents=True)
        (root / ignored / "mod.py").write_text("def hidden():\n    pass\n")
    (root / "myenv").mkdir()
    (root / "myenv" / "pyvenv.cfg").write_text("home = /usr\n")
    (root / "myenv" / "mod.py").write_text("x = 1\n")

    index = CodeIndex.build(root)

    reasons = {s.file: s.reason for s in index.skipped}
    assert reasons["latin1.py"].startswith("not UTF-8")
    assert reasons["blob.py"].startswith("binary")
    assert reasons["huge.py"].startswith("larger than 2 MB")
    assert "broken.py" in index.files  # indexed as far as it parses, and noted
    assert [i.file for i in index.parse_issues] == ["broken.py"]
    assert index.symbol("broken.py:ok") is not None
    assert not any(
        f.startswith((".venv", "__pycache__", "node_modules", "site-packages", "myenv"))
        for f in index.files
    )


def test_from_sources_indexes_in_memory_files() -> None:
    index = CodeIndex.from_sources({"a/b.py": "def f():\n    return 1\n", "c.py": b"\xff\xfe"})
    assert index.files == ["a/b.py"]
    assert index.enclosing_symbol("a/b.py", 2) == "f"
    assert index.skipped[0].file == "c.py"


def test_relative_accepts_paths_relative_to_the_working_directory(
    index: CodeIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(FIXTURE.parent)
    assert index.relative("index_repo/model.py") == "model.py"
    assert index.enclosing_symbol("index_repo/model.py", 21) == "Net.forward"
    assert index.relative("elsewhere/model.py") is None
