"""The `investigate` command end to end: bad input, exit codes, formats, and the
original repo left byte-identical. Every test runs the real CLI in a subprocess."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from conftest import tree_hash

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "not_learning"
INVESTIGATE = [sys.executable, "-m", "torch_investigate.agent.cli"]


def investigate(*args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TI_DEBUG"}
    return subprocess.run(
        [*INVESTIGATE, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=ROOT,
    )


def one_line_error(proc: subprocess.CompletedProcess) -> str:
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    return lines[0]


def write_repo(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root


TRAIN = """
import torch
torch.manual_seed(0)
x = torch.randn(64, 3); y = (x.sum(1, keepdim=True) > 0).float()
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
{body}
for step in range(30):
    opt.zero_grad()
    loss = torch.nn.functional.binary_cross_entropy_with_logits(model(x), y)
    loss.backward()
    opt.step()
"""


# ---- bad input ------------------------------------------------------------------------


def test_missing_path(tmp_path):
    p = investigate(tmp_path / "nope")
    assert p.returncode == 2
    assert "does not exist" in one_line_error(p)


def test_file_instead_of_folder(tmp_path):
    f = tmp_path / "train.py"
    f.write_text("print(1)\n")
    p = investigate(f)
    assert p.returncode == 2
    assert "is a file, not a folder" in one_line_error(p)


def test_folder_without_python_files(tmp_path):
    write_repo(tmp_path, {"README.md": "# nothing here\n", "data.csv": "a,b\n1,2\n"})
    p = investigate(tmp_path)
    assert p.returncode == 2
    assert "no Python files" in one_line_error(p)


def test_bad_cmd_is_one_line(tmp_path):
    write_repo(tmp_path, {"train.py": TRAIN.format(body="")})
    p = investigate(tmp_path, "--cmd", "bash run.sh")
    assert p.returncode == 2
    assert "--cmd" in one_line_error(p)


def test_binary_non_utf8_and_huge_files_are_skipped_not_fatal(tmp_path):
    write_repo(tmp_path, {"train.py": TRAIN.format(body=""), "broken.py": "def f(:\n"})
    (tmp_path / "latin1.py").write_bytes("s = 'caf\xe9'\n".encode("latin-1"))
    (tmp_path / "blob.py").write_bytes(b"\x00\x01\x02" * 100)
    (tmp_path / "huge.py").write_text("x = 1\n" * 500_000)
    p = investigate(tmp_path, "--static-only", "-f", "json")
    assert p.returncode == 0, p.stderr
    report = json.loads(p.stdout)
    notes = " ".join(report["notes"])
    for name in ("latin1.py", "blob.py", "huge.py"):
        assert name in notes


def test_no_training_command_is_inconclusive(tmp_path):
    write_repo(tmp_path, {"utils.py": "def add(a, b):\n    return a + b\n"})
    p = investigate(tmp_path, "-f", "json", "-q")  # -q: the error is the only stderr line
    assert p.returncode == 3
    assert "no training command" in one_line_error(p)
    report = json.loads(p.stdout)
    assert report["conclusion"] == "inconclusive"


# ---- a training command that cannot run -------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expect"),
    [
        ("import urllib.request\nurllib.request.urlopen('http://example.com/data.csv')", "network"),
        ("import time\nwhile True:\n    time.sleep(1)", "--timeout S"),
        ("import not_a_real_package_xyz", "not_a_real_package_xyz"),
        ("torch.cuda.get_device_name(0)", "GPU"),
    ],
    ids=["network", "hang", "missing-module", "gpu"],
)
def test_environment_failures_exit_3_with_one_line(tmp_path, body, expect):
    write_repo(tmp_path, {"train.py": TRAIN.format(body=body)})
    p = investigate(tmp_path, "--timeout", "8", "-q")
    assert p.returncode == 3, p.stderr
    line = one_line_error(p)
    assert expect.lower() in line.lower()
    assert "# torch-investigate" in p.stdout  # the report is still printed


def test_crash_in_training_code_is_a_located_finding(tmp_path):
    repo = write_repo(
        tmp_path,
        {"train.py": TRAIN.format(body="").replace("model(x), y)", "model(x), y.squeeze(1))")},
    )
    p = investigate(repo, "-f", "json", "-q")
    assert p.returncode == 0, p.stderr
    assert "crashed" in one_line_error(p)
    report = json.loads(p.stdout)
    root = next(f for f in report["findings"] if f["id"] == report["root_cause"])
    assert root["category"] == "loss_target_mismatch" and root["status"] == "confirmed"
    line = next(
        i
        for i, text in enumerate((repo / "train.py").read_text().splitlines(), 1)
        if "with_logits" in text
    )
    assert root["file"] == "train.py" and root["symbol"] == "<module>" and root["line"] == line


# ---- formats, exit codes and the original repo ----------------------------------------------


@pytest.fixture(scope="module")
def example_json(tmp_path_factory):
    repo = tmp_path_factory.mktemp("ex") / "not_learning"
    shutil.copytree(EXAMPLE, repo)
    before = tree_hash(repo)
    p = investigate(repo, "-f", "json", "-q", "--fail-on", "confirmed")
    return repo, before, p


def test_example_json_validates_against_the_schema(example_json):
    _, _, p = example_json
    schema = json.loads(investigate("schema").stdout)
    report = json.loads(p.stdout)
    jsonschema.validate(report, schema)
    assert report["schema_version"] == "1.5"
    assert report["summary"]["verdict"] == "root_cause"
    jsonschema.validate(report["summary"], {**schema, **schema["$defs"]["Summary"]})


def test_example_report_says_the_answer_first(example_json):
    from torch_investigate.agent.render import render
    from torch_investigate.tools.records import Report

    report = Report.model_validate_json(example_json[2].stdout)
    s = report.summary
    assert s is not None and s.root_cause is not None
    assert (s.root_cause.category, s.root_cause.file, s.root_cause.symbol) == (
        "softmax_before_ce", "model.py", "SpiralNet.forward",
    )  # fmt: skip
    head = "\n".join(render(report, "md").splitlines()[:12])
    at = f"`{s.root_cause.file}:{s.root_cause.line}`"
    assert f"**Root cause:** `softmax_before_ce` at {at} in `SpiralNet.forward`" in head
    assert "**Why it breaks learning:**" in head
    # stripping the softmax changes the loss itself: the proof is what reached the loss
    assert (
        f"**Confirmed by ({s.confirming_id}):** cross_entropy at train.py:24 receives softmax output"
        in head
    )
    assert "100% of rows sum to 1" in head


def test_example_runs_table_states_the_findings_numbers(example_json):
    report = json.loads(example_json[2].stdout)
    root = next(f for f in report["findings"] if f["id"] == report["root_cause"])
    effect = next(o for o in root["evidence"] if o["source"] == "intervention")["values"]
    base = next(r for r in report["runs"] if not r["interventions"])
    strip = next(r for r in report["runs"] if r["interventions"] == ["strip_prob"])
    assert strip["settled_loss"] == effect["loss_with_change"]
    assert strip["baseline_settled_loss"] == effect["loss_as_written"]
    assert strip["compared_steps"] == min(len(base["losses"]), len(strip["losses"]))
    assert base["first_loss"] == base["losses"][0]
    symptom = report["symptom_evidence"]
    assert f"first loss {base['first_loss']:.4g}, settled {base['settled_loss']:.4g}" in symptom


def test_example_finds_the_softmax_and_fails_on_confirmed(example_json):
    _, _, p = example_json
    assert p.returncode == 1  # --fail-on confirmed
    report = json.loads(p.stdout)
    root = next(f for f in report["findings"] if f["id"] == report["root_cause"])
    assert root["category"] == "softmax_before_ce"
    assert (root["file"], root["symbol"]) == ("model.py", "SpiralNet.forward")
    assert any(o["source"] == "intervention" for o in root["evidence"])
    assert [s["verdict"] for s in report["stages"]][7] == "not_examined"
    assert {n["kind"] for n in report["not_yet"]} >= {
        "lr",
        "architecture",
        "optimizer",
        "model_size",
        "training_length",
    }


def test_original_repo_is_byte_identical(example_json, tmp_path):
    repo, before, _ = example_json
    assert tree_hash(repo) == before
    # a training script that writes checkpoints and logs into its own folder and beyond
    writer = write_repo(
        tmp_path / "writer",
        {"train.py": TRAIN.format(body="open('log.txt', 'w').write('x')\nopen('../escape.txt', 'w').write('x')")
         + "\ntorch.save(model.state_dict(), 'ckpt.pt')\n"},
    )  # fmt: skip
    h = tree_hash(writer)
    p = investigate(writer, "-q")
    assert p.returncode == 0, p.stderr
    assert tree_hash(writer) == h
    assert not (tmp_path / "escape.txt").exists()


def test_sarif_output(tmp_path):
    out = tmp_path / "report.sarif"
    p = investigate(EXAMPLE, "--static-only", "-f", "sarif", "-o", out)
    assert p.returncode == 0, p.stderr
    sarif = json.loads(out.read_text())
    assert sarif["version"] == "2.1.0"
    results = sarif["runs"][0]["results"]
    assert any(r["ruleId"] == "softmax_before_ce" for r in results)
    loc = results[0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "model.py"


def test_static_only_reports_plausible_findings_only():
    p = investigate(EXAMPLE, "--static-only", "-f", "json")
    assert p.returncode == 0, p.stderr
    report = json.loads(p.stdout)
    assert report["findings"] and all(f["status"] == "plausible" for f in report["findings"])
    assert report["conclusion"] == "inconclusive" and report["isolation"] == "none"


def test_html_output_is_written(tmp_path):
    out = tmp_path / "r.html"
    p = investigate(EXAMPLE, "--static-only", "-f", "html", "-o", out)
    assert p.returncode == 0, p.stderr
    assert out.read_text().lstrip().lower().startswith("<!doctype html")
    assert [ln for ln in p.stderr.splitlines() if ln.startswith("investigate:")] == [
        f"investigate: wrote {out} (inconclusive)"
    ]
    quiet = investigate(EXAMPLE, "--static-only", "-f", "html", "-o", out, "-q")
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_markdown_on_a_terminal_is_drawn_not_printed_as_source():
    import pexpect

    env = {k: v for k, v in os.environ.items() if k != "TI_DEBUG"}
    argv = ["-m", "torch_investigate.agent.cli", str(EXAMPLE), "--static-only"]
    child = pexpect.spawn(sys.executable, argv, cwd=str(ROOT), env=env, dimensions=(40, 80),
                          encoding="utf-8", timeout=120)  # fmt: skip
    drawn = child.read()
    child.close()
    assert child.exitstatus == 0, drawn
    assert "\\<" not in drawn and "**" not in drawn and "| --- |" not in drawn
    assert "(<module>)" in drawn  # escaped in the Markdown text, plain on the terminal
    plain = re.sub(r"\x1b\[[0-9;]*m", "", drawn)
    lines = [ln for ln in plain.splitlines() if ln.strip()]
    title = next(i for i, ln in enumerate(lines) if "torch-investigate" in ln)
    assert lines[title + 1].strip().startswith("Inconclusive: static-only")
    # the answer again at the end, once the drawn report has scrolled it away
    assert lines[-1].startswith("investigate: Inconclusive: static-only"), lines[-3:]
    piped = investigate(EXAMPLE, "--static-only", "-q")  # a pipe keeps the Markdown text
    assert "(`<module>`)" in piped.stdout and piped.stdout.startswith("# torch-investigate")


def test_healthy_repo_has_no_confirmed_finding(tmp_path):
    repo = tmp_path / "rings"
    shutil.copytree(ROOT / "evals" / "repos" / "rings", repo)
    p = investigate(repo, "-f", "json", "-q", "--fail-on", "confirmed")
    assert p.returncode == 0, p.stderr
    report = json.loads(p.stdout)
    assert report["conclusion"] == "no_defect_found"
    assert report["summary"]["headline"].startswith("No defect found: every runtime check passed.")
    assert report["summary"]["root_cause"] is None
    assert not [f for f in report["findings"] if f["status"] == "confirmed"]
    passed = [i for s in report["stages"] for i in s["checklist"] if i["outcome"] == "passed"]
    assert len(passed) >= 30 and all(i["detail"] for i in passed)


@pytest.mark.parametrize("extra", [[], ["-q"], ["-o", "{tmp}/r.md"]])
def test_on_a_terminal_the_answer_ends_the_output(monkeypatch, capsys, tmp_path, extra):
    """The drawn report is hundreds of lines; its answer is said again as the last line,
    on stderr. With -o the `wrote FILE (answer)` line says it; --quiet says nothing."""
    from torch_investigate.agent.cli import main as cli_main

    args = [a.format(tmp=tmp_path) for a in extra]
    monkeypatch.setattr(sys, "argv", ["investigate", str(EXAMPLE), "--static-only", *args])
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(cli_main, "install", lambda **_: None)  # keep pytest's own Ctrl-C
    with pytest.raises(SystemExit) as done:
        cli_main.main()
    assert done.value.code == 0
    out, err = capsys.readouterr()
    last = err.strip().splitlines()[-1] if err.strip() else ""
    if not extra:
        assert "Inconclusive" in out
        assert last.startswith("investigate: Inconclusive: static-only: the training path")
    elif extra == ["-q"]:
        assert err == ""
    else:
        assert last.startswith("investigate: wrote ") and last.count("investigate:") == 1
