"""The committed suite in evals/suite: its manifest, its folders, and that applying the
operators again (without the verification runs) reproduces it byte for byte."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from torch_investigate.evals.seeding.generate import CI_SUITE, NOT_IN_CASE, SUITE, check
from torch_investigate.evals.seeding.records import Manifest
from torch_investigate.tools.taxonomy import taxonomy


@pytest.fixture(scope="module")
def manifest() -> Manifest:
    return Manifest.load(SUITE)


def test_suite_size(manifest):
    assert len(manifest.cases) >= 60
    assert len(manifest.controls) >= 7
    assert len(manifest.categories) >= 30


def test_ids_are_unique_and_named_after_template_and_category(manifest):
    ids = [c.id for c in manifest.cases] + [c.id for c in manifest.controls]
    assert len(ids) == len(set(ids))
    for c in manifest.cases:
        assert c.id == f"{c.template}-{c.category}"
        assert c.stage == c.truth.stage == taxonomy().category(c.category).stage
        assert c.loud == taxonomy().category(c.category).loud


def test_every_case_changed_its_run(manifest):
    for c in manifest.cases:
        assert c.healthy_metric is not None, c.id
        if c.effect == "crash":
            assert c.loud, f"{c.id}: a silent category must not crash"
        else:
            assert c.effect in ("degraded", "changed", "improved"), c.id
            assert c.buggy_metric is not None


def test_the_truth_points_into_the_seeded_copy(manifest):
    for c in manifest.cases:
        folder = SUITE / c.path
        lines = (folder / c.truth.file).read_text().splitlines()
        assert 1 <= c.truth.line <= len(lines), c.id
        assert c.truth.symbol, c.id


def test_missing_categories_are_explained(manifest):
    ids = {c.id for c in taxonomy().categories}
    assert set(manifest.categories) | set(manifest.not_seeded) == ids
    assert all(manifest.not_seeded.values())


def test_most_categories_have_two_templates(manifest):
    per = Counter(c.category for c in manifest.cases)
    assert sum(n >= 2 for n in per.values()) >= 0.75 * len(per), per


def test_cases_hold_no_answer_key_and_no_bytecode(manifest):
    for entry in [*manifest.cases, *manifest.controls]:
        folder = SUITE / entry.path
        assert folder.is_dir(), entry.id
        assert not any((folder / n).exists() for n in NOT_IN_CASE), entry.id
        assert not list(folder.rglob("__pycache__")), entry.id


def test_ci_subset_resolves(manifest):
    ci = Manifest.load(SUITE / CI_SUITE)
    assert len(ci.cases) >= 3 and len(ci.controls) == 1
    ids = {c.id for c in manifest.cases}
    for entry in [*ci.cases, *ci.controls]:
        assert (SUITE / CI_SUITE / entry.path).resolve().is_dir(), entry.id
    assert {c.id for c in ci.cases} <= ids


def test_regenerating_the_transforms_reproduces_the_committed_suite():
    assert check(SUITE) == []


def test_check_notices_an_edited_case(tmp_path: Path, manifest):
    import shutil

    suite = tmp_path / "suite"
    shutil.copytree(SUITE, suite, ignore=shutil.ignore_patterns("__pycache__"))
    case = manifest.cases[0]
    target = suite / case.path / case.truth.file
    target.write_text(target.read_text() + "\n# edited\n")
    problems = check(suite)
    assert problems == [f"{case.id}: {case.truth.file} differs"]
