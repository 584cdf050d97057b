"""Reading tools: numbered windows, cut notes, helpful misses, search."""

from __future__ import annotations

from pathlib import Path

import pytest

from torch_investigate.tools.code import (
    CodeIndex,
    read_lines,
    read_symbol,
    read_target,
    search_code,
)
from torch_investigate.tools.code.read import WINDOW

FIXTURE = Path(__file__).parent / "fixtures" / "code" / "index_repo"


@pytest.fixture(scope="module")
def index() -> CodeIndex:
    return CodeIndex.build(FIXTURE)


def test_read_symbol_numbers_the_lines(index: CodeIndex) -> None:
    text = read_symbol(index, "model.py:Net.forward")
    assert text.splitlines() == [
        "model.py:Net.forward (method, lines 20-22)",
        "model.py:20-22 (of 47 lines)",
        "  20 |     def forward(self, x):",
        "  21 |         h = F.relu(self.fc(x))",
        "  22 |         return self.head(self.drop(h))",
    ]


def test_a_long_symbol_is_cut_to_a_window_with_a_note(index: CodeIndex) -> None:
    text = read_target(index, "pkg/helpers.py:long_function")
    numbered = [line for line in text.splitlines() if " | " in line]
    assert len(numbered) == WINDOW
    assert numbered[0].startswith("   5 | def long_function")
    assert text.splitlines()[-1] == "[53 more lines cut; read pkg/helpers.py:105-157 to continue]"
    rest = read_target(index, "pkg/helpers.py:105-157")
    assert "cut" not in rest and rest.splitlines()[-1].startswith(" 157 |     return a")


def test_a_long_file_shows_its_outline(index: CodeIndex) -> None:
    text = read_target(index, "pkg/helpers.py")
    assert "[57 more lines cut; read pkg/helpers.py:101-157 to continue]" in text
    assert "long_function (function) 5-157" in text


@pytest.mark.parametrize(
    ("target", "first_numbered"),
    [
        ("train.py:11-12", "  11 | def make_loader(n=64):"),
        ("train.py:11", "  11 | def make_loader(n=64):"),
        ("train.py:Trainer.fit", "  32 |     def fit(self, loader):"),
        ("Trainer.fit", "  32 |     def fit(self, loader):"),
        ("model.py", '   1 | """A small model package for index tests."""'),
        ("model.py:outer.inner", "  38 |     def inner(v):"),
    ],
)
def test_read_target_forms(index: CodeIndex, target: str, first_numbered: str) -> None:
    text = read_target(index, target)
    assert next(line for line in text.splitlines() if " | " in line) == first_numbered


def test_read_lines_clamps_to_the_file(index: CodeIndex) -> None:
    text = read_lines(index, "train.py", 44, 400)
    assert text.splitlines()[0] == "train.py:44-45 (of 45 lines)"
    assert "past the end" in read_lines(index, "train.py", 90, 95)


def test_unknown_targets_give_close_matches_not_errors(index: CodeIndex) -> None:
    miss = read_target(index, "model.py:Net.fwd")
    assert miss.startswith("No symbol 'model.py:Net.fwd'.")
    assert "model.py:Net.forward" in miss
    assert "Close matches: model.py." in read_target(index, "modle.py")
    assert "Close matches: model.py" in read_target(index, "modle.py:Net.forward")
    assert "ambiguous" not in read_target(index, "forward")  # one forward in the repo
    assert read_target(index, "nothing_like_it").startswith("No symbol 'nothing_like_it'")


def test_search_reports_file_line_symbol_and_text(index: CodeIndex) -> None:
    text = search_code(index, r"zero_grad|\.step\(")
    assert text.splitlines() == [
        "3 matches for 'zero_grad|\\.step\\(' (regex):",
        "train.py:19 (train_one_epoch): optimizer.zero_grad()",
        "train.py:22 (train_one_epoch): optimizer.step()",
        "train.py:35 (Trainer.fit): self.sched.step()",
    ]


def test_search_plain_text_that_is_not_a_regex(index: CodeIndex) -> None:
    text = search_code(index, "model(xb")
    assert "(plain text)" in text.splitlines()[0]
    assert "train.py:20 (train_one_epoch)" in text


def test_search_cuts_and_says_so(index: CodeIndex) -> None:
    text = search_code(index, r"a \+= \d+", max_results=3)
    assert len(text.splitlines()) == 5
    assert text.splitlines()[-1].startswith("[showing 3 of 150 matches; 147 cut.")


def test_search_without_matches_says_so(index: CodeIndex) -> None:
    assert (
        search_code(index, "no_such_thing") == "No matches for 'no_such_thing' (regex) in 4 files."
    )
