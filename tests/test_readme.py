"""The README's two commands stay true: CI runs exactly its test command."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def fenced_commands(text: str) -> list[str]:
    return [b.strip() for b in re.findall(r"```\n(.*?)```", text, re.S)]


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    blocks = fenced_commands(readme)
    test_cmd = next(b for b in blocks if "pytest" in b)
    assert test_cmd in ci


def test_readme_quick_start_installs_and_investigates_the_bundled_example():
    blocks = fenced_commands((ROOT / "README.md").read_text())
    install = next(b for b in blocks if "pip install" in b)
    assert "investigate examples/not_learning" in install
    assert (ROOT / "examples" / "not_learning" / "train.py").is_file()
