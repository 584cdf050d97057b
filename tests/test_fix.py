"""`investigate fix` end to end: a patch per confirmed finding, verified by rerunning the
training path on a patched copy; the user's repo untouched without --apply (byte for
byte), written with --apply only on a clean git tree; every produced diff applied with
`git apply` to a clean copy and investigated again; nothing for a healthy repo; a model's
diff through `propose_patch` under the same guardrails; `bench --patch`.

Every run is the real CLI in a subprocess (the LLM test drives a scripted server)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from test_cli import EXAMPLE, investigate, one_line_error, tree_hash, write_repo

from torch_investigate.agent.render import render
from torch_investigate.tools.records import Report

ROOT = Path(__file__).resolve().parents[1]

# softmax fed to cross-entropy: small enough to investigate in a few seconds when idle
SOFTMAX = """
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(512, 8)
y = (x[:, :4].sum(1) > x[:, 4:].sum(1)).long() + 2 * (x[:, 0] > 0).long()
model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(10):
    for i in range(0, 512, 32):
        xb, yb = x[i : i + 32], y[i : i + 32]
        probs = F.softmax(model(xb), dim=1)
        loss = F.cross_entropy(probs, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
torch.save(model.state_dict(), "ckpt.pt")  # every run writes into its folder and beyond
open("../escape.txt", "w").write("x")
"""


def git_repo(root: Path, files: dict[str, str]) -> Path:
    write_repo(root, files)
    for argv in (["init", "-q"], ["add", "-A"], ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init"]):  # fmt: skip
        subprocess.run(["git", *argv], cwd=root, check=True)
    return root


def git_apply(repo: Path, diff: str, into: Path) -> Path:
    """A clean copy of repo with diff applied by the real `git apply`, as a user would."""
    shutil.copytree(repo, into, ignore=shutil.ignore_patterns(".git"))
    done = subprocess.run(
        ["git", "apply", "-"], input=diff, text=True, cwd=into, capture_output=True
    )
    assert done.returncode == 0, done.stderr
    return into


def confirmed(report: dict) -> set[str]:
    return {f["category"] for f in report["findings"] if f["status"] == "confirmed"}


@pytest.fixture(scope="module")
def softmax_fix(tmp_path_factory):
    repo = git_repo(tmp_path_factory.mktemp("fix") / "softmax", {"train.py": SOFTMAX})
    before = tree_hash(repo)
    p = investigate("fix", repo, "-f", "json", "-q", timeout=900)
    return repo, before, p


def test_a_confirmed_defect_gets_a_verified_patch_and_the_repo_is_untouched(softmax_fix, tmp_path):
    repo, before, p = softmax_fix
    assert p.returncode == 0, p.stderr
    assert tree_hash(repo) == before  # without --apply the user's files never change
    assert not (repo.parent / "escape.txt").exists()
    report = json.loads(p.stdout)
    assert report["schema_version"] == "1.5"
    (patch,) = report["patches"]
    root = next(f for f in report["findings"] if f["id"] == report["root_cause"])
    assert patch["finding"] == root["id"] and patch["category"] == "softmax_before_ce"
    assert patch["status"] == "verified" and patch["verified"] and patch["origin"] == "mechanical"
    assert patch["after"]["settled_loss"] < patch["before"]["settled_loss"]
    assert patch["files"] == ["train.py"] and "softmax_before_ce" not in patch["still_confirmed"]
    patched = git_apply(repo, patch["diff"], tmp_path / "patched")
    assert "F.cross_entropy(probs, yb)" in (patched / "train.py").read_text()
    assert "F.softmax" not in (patched / "train.py").read_text()


def test_the_patch_reaches_every_format(softmax_fix):
    _, _, p = softmax_fix
    report = Report.model_validate_json(p.stdout)
    md = render(report, "md")
    assert "## Patches" in md and "### P1 (verified)" in md and "```diff" in md
    sarif = json.loads(render(report, "sarif"))
    result = next(r for r in sarif["runs"][0]["results"] if r["ruleId"] == "softmax_before_ce")
    (fix,) = result["fixes"]
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "train.py"
    line = next(i for i, ln in enumerate(SOFTMAX.splitlines(), 1) if "F.softmax" in ln)
    assert change["replacements"][0]["deletedRegion"]["startLine"] == line
    html = render(report, "html")
    assert 'id="patch-P1"' in html and 'id="plot-patch-P1"' in html


def test_apply_is_refused_on_a_dirty_or_non_git_tree_before_anything_runs(tmp_path):
    plain = write_repo(tmp_path / "plain", {"train.py": SOFTMAX})
    p = investigate("fix", plain, "--apply")
    assert p.returncode == 2 and "not a git work tree" in one_line_error(p)
    repo = git_repo(tmp_path / "dirty", {"train.py": SOFTMAX})
    (repo / "train.py").write_text(SOFTMAX + "\n# edited\n")
    p = investigate("fix", repo, "--apply")
    assert p.returncode == 2 and "uncommitted changes (train.py)" in one_line_error(p)
    p = investigate("fix", repo, "--force")
    assert p.returncode == 2 and "--force goes with --apply" in one_line_error(p)


@pytest.mark.slow
def test_apply_writes_the_verified_patch_into_a_clean_git_tree(tmp_path):
    repo = git_repo(tmp_path / "softmax", {"train.py": SOFTMAX})
    p = investigate("fix", repo, "--apply", "-f", "json", "-q", timeout=900)
    assert p.returncode == 0, p.stderr
    report = json.loads(p.stdout)
    (patch,) = report["patches"]
    assert patch["applied"]
    assert any("P1 (softmax_before_ce) written to train.py" in n for n in report["notes"])
    status = subprocess.run(
        ["git", "status", "--porcelain"], cwd=repo, capture_output=True, text=True
    )
    assert status.stdout.split() == ["M", "train.py"]
    assert "F.softmax" not in (repo / "train.py").read_text()


@pytest.mark.slow
@pytest.mark.parametrize(
    "case",
    [EXAMPLE, ROOT / "evals/suite/cases/rings-loss_args_swapped", ROOT / "evals/suite/cases/miniloop-step_order"],
    ids=["example", "rings-loss_args_swapped", "miniloop-step_order"],
)  # fmt: skip
def test_each_produced_diff_applies_with_git_and_its_defect_is_gone(case, tmp_path):
    """Every patch `fix` produces, applied by `git apply` to a clean copy and investigated
    again: its defect is no longer confirmed, and a verified one brings no new defect."""
    repo = tmp_path / case.name
    shutil.copytree(case, repo)
    p = investigate("fix", repo, "-f", "json", "-q", timeout=1500)
    assert p.returncode == 0, p.stderr
    report = json.loads(p.stdout)
    assert report["patches"] and report["patches"][0]["finding"] == report["root_cause"]
    assert report["patches"][0]["verified"]
    for patch in report["patches"]:
        patched = git_apply(repo, patch["diff"], tmp_path / f"patched-{patch['id']}")
        again = investigate(patched, "-f", "json", "-q", timeout=600)
        assert again.returncode == 0, again.stderr
        after = confirmed(json.loads(again.stdout))
        if patch["verified"]:
            assert patch["category"] not in after
            assert after <= confirmed(report) - {patch["category"]}


@pytest.mark.slow
def test_a_healthy_repo_gets_no_patch(tmp_path):
    repo = tmp_path / "rings"
    shutil.copytree(ROOT / "evals/repos/rings", repo)
    p = investigate("fix", repo, "-f", "json", "-q", timeout=900)
    assert p.returncode == 0, p.stderr
    report = json.loads(p.stdout)
    assert not confirmed(report) and report["patches"] == []
    assert "## Patches" not in render(Report.model_validate(report), "md")


@pytest.mark.slow
def test_a_models_diff_goes_through_propose_patch_and_is_verified(tmp_path):
    """With the planner's edits switched off, the model reads code, meets the guardrail
    (a finding that is not confirmed), sends a diff that does not apply, then one that is
    verified by rerunning, as the planner's are."""
    from fakellm import Reply, ScriptedLLM, call
    from fakellm.helpers import settings

    from torch_investigate.agent.core.planner import Planner
    from torch_investigate.agent.core.policy import investigate as walk
    from torch_investigate.agent.core.session import Options, Session
    from torch_investigate.agent.fix.patcher import patch_findings
    from torch_investigate.agent.fix.propose import ModelProposer
    from torch_investigate.agent.llm import LLMPolicy

    repo = write_repo(tmp_path / "softmax", {"train.py": SOFTMAX})
    good = (
        "--- a/train.py\n+++ b/train.py\n@@ -12,3 +12,3 @@\n"
        "         xb, yb = x[i : i + 32], y[i : i + 32]\n"
        "-        probs = F.softmax(model(xb), dim=1)\n"
        "+        probs = model(xb)\n"
        "         loss = F.cross_entropy(probs, yb)\n"
    )
    stale = good.replace("probs = F.softmax", "probs = torch.softmax")
    with Session(repo, Options()) as session:
        walk(session, Planner())
        report = session.report()
        root = report.root_cause
        plausible = next(f.id for f in report.findings if f.status != "confirmed")
        script = [
            Reply(tool_calls=[call("read_code", target="train.py:10-16")]),
            Reply(tool_calls=[call("propose_patch", finding=plausible, diff=good, explanation="x")]),
            Reply(tool_calls=[call("propose_patch", finding=root, diff=stale, explanation="x")]),
            Reply(tool_calls=[call("propose_patch", finding=root, diff=good, explanation="logits to the loss")]),
        ]  # fmt: skip
        with ScriptedLLM(script) as server:
            proposer = ModelProposer(LLMPolicy(settings(server)))
            patches = patch_findings(session, report, proposer=proposer, max_candidates=0)
    (patch,) = patches
    assert patch.origin == "model" and patch.proposed_by == "scripted" and patch.verified
    assert patch.change == "logits to the loss" and patch.tried == 1
    results = [m["content"] for r in server.requests[1:] for m in r.tool_results()]
    assert "REFUSED by the guardrail `patch_needs_confirmed`" in results[1]
    assert "the diff was not run" in results[2]
    assert proposer.policy.usage.steps == 4 and proposer.policy.usage.refusals == 1


@pytest.mark.slow
def test_bench_patch_scores_the_ci_subset(tmp_path):
    out = tmp_path / "ci.json"
    p = investigate(
        "bench", ROOT / "evals/suite/ci", "--patch", "--jobs", "2", "--json", out, timeout=3000
    )
    assert p.returncode == 0, p.stderr
    result = json.loads(out.read_text())
    s = result["patches"]
    assert s["confirmed_root_causes"] == 3 and s["verified"] == 3 and s["clean_patched"] == 0
    assert s["matches"] == s["measured"] == 3
    assert "patches: 3 confirmed root causes" in p.stdout
    assert s["confirmed_findings"] == sum(s["outcomes"].values()) >= 3
    assert s["outcomes"]["verified"] >= 3 and "confirmed findings: " in p.stdout
