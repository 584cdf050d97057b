"""Static checks on fixture snippets.

Layout: `tests/fixtures/code/checks/<category>/fire_*.py` must produce exactly the
findings marked in it with `# expect: <category>` on the finding's line (a fixture may
also be a folder of files); `ok_*.py` look-alikes must produce no finding at all. Each
category has at least two of each, written differently.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from torch_investigate.tools.code import CodeIndex
from torch_investigate.tools.code.checks import registered_checks, run_static_checks
from torch_investigate.tools.code.loops import find_training_loops
from torch_investigate.tools.taxonomy import taxonomy

CHECKS_DIR = Path(__file__).parent / "fixtures" / "code" / "checks"
HEALTHY = Path(__file__).parent / "fixtures" / "code" / "healthy_repo"
MARK = re.compile(r"#\s*expect:\s*([a-z_, ]+)")


def _cases(prefix: str) -> list[Path]:
    return sorted(p for p in CHECKS_DIR.glob(f"*/{prefix}_*") if p.suffix == ".py" or p.is_dir())


def _sources(case: Path) -> dict[str, str]:
    if case.is_dir():
        return {p.relative_to(case).as_posix(): p.read_text() for p in sorted(case.rglob("*.py"))}
    return {case.name: case.read_text()}


def _expected(sources: dict[str, str]) -> set[tuple[str, str, int]]:
    expected = set()
    for file, text in sources.items():
        for n, line in enumerate(text.splitlines(), 1):
            match = MARK.search(line)
            if match:
                for category in match.group(1).replace(",", " ").split():
                    expected.add((category, file, n))
    return expected


def _found(sources: dict[str, str]) -> set[tuple[str, str, int]]:
    findings = run_static_checks(CodeIndex.from_sources(sources), strict=True)
    return {(f.category, f.file or "", f.line or 0) for f in findings}


def _id(case: Path) -> str:
    return f"{case.parent.name}/{case.stem}"


@pytest.mark.parametrize("case", _cases("fire"), ids=_id)
def test_fires_where_marked(case: Path) -> None:
    sources = _sources(case)
    expected = _expected(sources)
    assert expected, f"{case} has no `# expect:` marker"
    assert any(c == case.parent.name for c, _, _ in expected)
    assert _found(sources) == expected


@pytest.mark.parametrize("case", _cases("ok"), ids=_id)
def test_look_alike_stays_silent(case: Path) -> None:
    assert _found(_sources(case)) == set()


def test_every_category_folder_has_two_of_each_kind() -> None:
    for folder in sorted(p for p in CHECKS_DIR.iterdir() if p.is_dir()):
        assert taxonomy().has_category(folder.name), folder.name
        fires = [p for p in folder.iterdir() if p.name.startswith("fire_")]
        oks = [p for p in folder.iterdir() if p.name.startswith("ok_")]
        assert len(fires) >= 2 and len(oks) >= 2, folder.name


def test_every_registered_category_has_fixtures() -> None:
    covered = {p.name for p in CHECKS_DIR.iterdir() if p.is_dir()}
    registered = {c for check in registered_checks() for c in check.categories}
    assert registered <= covered, sorted(registered - covered)


def test_findings_are_plausible_with_static_evidence_and_locations() -> None:
    for case in _cases("fire"):
        for f in run_static_checks(CodeIndex.from_sources(_sources(case)), strict=True):
            assert f.status == "plausible" and f.id == ""
            assert f.detector == f"static.{f.category}"
            assert f.file and f.line and f.symbol
            assert f.evidence and all(o.source == "static" and o.where for o in f.evidence)
            assert f"{f.file}:{f.line}" in " ".join(o.text for o in f.evidence)
            assert f.why and f.confirm


def test_a_healthy_multi_file_repo_has_no_findings() -> None:
    index = CodeIndex.build(HEALTHY)
    assert len(index.files) >= 5
    assert find_training_loops(index)
    assert run_static_checks(index, strict=True) == []


def test_findings_in_the_repos_unit_tests_are_left_out() -> None:
    source = (CHECKS_DIR / "missing_zero_grad" / "fire_flat_script.py").read_text()
    index = CodeIndex.from_sources({"tests/test_train.py": source, "test.py": source})
    assert {f.file for f in run_static_checks(index, strict=True)} == {"test.py"}
