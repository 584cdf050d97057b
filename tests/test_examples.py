"""Run every script in examples/ and check the numbers it prints.

All six run in one subprocess (via runpy) so torch is imported once.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SCRIPTS = sorted(p.name for p in EXAMPLES.glob("[0-9][0-9]_*.py"))
MARK = "=== example "

_DRIVER = f"""
import runpy, sys
for path in sys.argv[1:]:
    print({MARK!r} + path, flush=True)
    runpy.run_path(path, run_name="__main__")
    sys.stdout.flush()
"""


@pytest.fixture(scope="module")
def outputs() -> dict[str, str]:
    proc = subprocess.run(
        [sys.executable, "-c", _DRIVER, *(str(EXAMPLES / s) for s in SCRIPTS)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=EXAMPLES,
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, str] = {}
    for chunk in proc.stdout.split(MARK)[1:]:
        path, _, text = chunk.partition("\n")
        result[Path(path).name] = text
    return result


def number(text: str, pattern: str) -> float:
    match = re.search(pattern, text)
    assert match, f"{pattern!r} not found in:\n{text}"
    return float(match.group(1))


def test_the_six_examples_exist():
    assert SCRIPTS == [
        "01_loss_scale.py",
        "02_broadcast_trap.py",
        "03_miniloop.py",
        "04_grad_accumulation.py",
        "05_large_step.py",
        "06_confusion_counts.py",
    ]
    assert (EXAMPLES / "README.md").is_file()


@pytest.mark.parametrize("script", SCRIPTS)
def test_examples_import_only_torch_and_stdlib(script):
    tree = ast.parse((EXAMPLES / script).read_text())
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            roots.add((node.module or "").split(".")[0])
    outside = {r for r in roots if r != "torch" and r not in sys.stdlib_module_names}
    assert not outside, f"{script} imports {outside}"


def test_loss_scale(outputs):
    out = outputs["01_loss_scale.py"]
    assert number(out, r"BCE at logit 0, target 0: ([\d.]+)") == pytest.approx(0.693147, abs=1e-6)
    assert number(out, r"BCE at logit 0, target 1: ([\d.]+)") == pytest.approx(0.693147, abs=1e-6)
    assert number(out, r"CE with  2 equal logits: ([\d.]+)") == pytest.approx(0.693147, abs=1e-6)
    assert number(out, r"CE with 10 equal logits: ([\d.]+)") == pytest.approx(2.302585, abs=1e-6)


def test_broadcast_trap(outputs):
    out = outputs["02_broadcast_trap.py"]
    assert "-> diff (3, 3)" in out
    assert number(out, r"broadcast MSE: ([\d.]+)") == pytest.approx(4 / 3, abs=1e-6)
    assert number(out, r"F\.mse_loss on the same shapes: ([\d.]+)") == pytest.approx(
        4 / 3, abs=1e-6
    )
    assert number(out, r"intended MSE .*: ([\d.]+)") == 0.0


def test_miniloop(outputs):
    out = outputs["03_miniloop.py"]
    assert number(out, r"weight = ([-\d.]+)") == pytest.approx(2.0, abs=0.05)
    assert number(out, r"bias = ([-\d.]+)") == pytest.approx(1.0, abs=0.1)


def test_grad_accumulation(outputs):
    out = outputs["04_grad_accumulation.py"]
    assert number(out, r"after 1 backward: w\.grad = ([\d.]+)") == 2.0
    assert number(out, r"after 2 backwards without clearing: w\.grad = ([\d.]+)") == 4.0
    assert number(out, r"after clearing and 1 backward: w\.grad = ([\d.]+)") == 2.0


def test_large_step(outputs):
    out = outputs["05_large_step.py"]
    half, big = out.split("lr = 2.2")
    assert [float(v) for v in re.findall(r"\bw = ([-+\d.]+)", half)] == pytest.approx(
        [1.0, 0.5, 0.25, 0.125, 0.0625]
    )
    assert [float(v) for v in re.findall(r"\bw = ([-+\d.]+)", big)] == pytest.approx(
        [1.0, -1.2, 1.44, -1.728, 2.0736]
    )
    assert [float(v) for v in re.findall(r"ratio ([\d.]+)", big)] == pytest.approx([1.44] * 4)
    assert [float(v) for v in re.findall(r"ratio ([\d.]+)", half)] == pytest.approx([0.25] * 4)


def test_confusion_counts(outputs):
    out = outputs["06_confusion_counts.py"]
    assert number(out, r"accuracy = ([\d.]+)") == pytest.approx(0.75)
    assert number(out, r"precision = ([\d.]+)") == pytest.approx(0.75)
    assert number(out, r"recall = ([\d.]+)") == pytest.approx(0.6)
    assert "from logits: TN=60 FP=10 FN=20 TP=30" in out
