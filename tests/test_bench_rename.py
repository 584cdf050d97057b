"""`investigate bench SUITE --rename` end to end on a suite of one seeded case and one
clean control: both suites scored, side by side, the verdicts compared, the rewritten
suite's ground truth in the new names, and the original's runs reused from an earlier
benchmark by the same investigator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from torch_investigate.evals.rename.bench import run_variant
from torch_investigate.evals.rename.compare import VariantResult
from torch_investigate.evals.seeding.generate import SUITE

pytestmark = pytest.mark.slow  # four investigations and their static-only runs


def tiny_suite(root: Path) -> Path:
    manifest = json.loads((SUITE / "manifest.json").read_text())
    keep = {"miniloop-step_order", "clean-miniloop"}
    for kind in ("cases", "controls"):
        manifest[kind] = [
            {**e, "path": str((SUITE / e["path"]).resolve())}
            for e in manifest[kind]
            if e["id"] in keep
        ]
    root.mkdir(parents=True)
    (root / "manifest.json").write_text(json.dumps(manifest))
    return root


def test_bench_rename_scores_both_suites_side_by_side(tmp_path, capsys):
    suite = tiny_suite(tmp_path / "tiny")
    out = tmp_path / "results" / "rename.json"
    assert run_variant(suite, "rename", jobs=2, json_out=out) == 0
    result = VariantResult.model_validate_json(out.read_text())
    assert result.variant == "rename"
    assert len(result.original.cases) == len(result.rewritten.cases) == 2
    assert {r.name for r in result.rows} >= {"top-1", "detection", "confirmed", "symbol"}
    # the seeded defect is found under either spelling: nothing moved
    assert result.original.summary.top1 == result.rewritten.summary.top1 == 1.0
    assert result.changed == []
    assert result.renamed["module"] >= 1 and not result.rewrite_errors
    rewritten = json.loads((Path(result.rewritten_suite) / "manifest.json").read_text())
    truth = rewritten["cases"][0]["truth"]
    assert truth["file"].startswith("m") and truth["symbol"] != "main"
    printed = capsys.readouterr().out
    assert "original" in printed and "verdict changed (0)" in printed
    # a second benchmark in the same folder reuses the original's runs
    again = tmp_path / "results" / "again.json"
    assert run_variant(suite, "rename", jobs=2, json_out=again) == 0
    assert "cached" in capsys.readouterr().err
