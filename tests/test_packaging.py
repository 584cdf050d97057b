"""The installed layout: one namespace (`torch_investigate`), every package folder listed,
and no import of the bare folder names that would shadow a user's own packages."""

import re
import subprocess
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent
MAPPED = {"agent", "tools", "evals", "prompts"}
USER_REPOS = ("evals/suite", "evals/repos", "evals/test", "tests/fixtures", "examples")


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_package_folder_is_listed_under_the_namespace():
    listed = set(_pyproject()["tool"]["setuptools"]["packages"])
    found = {"torch_investigate"}
    for top in MAPPED:
        for init in (ROOT / top).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT).as_posix()
            if not rel.startswith(USER_REPOS):
                found.add("torch_investigate." + rel.replace("/", "."))
    assert listed == found


def test_no_module_imports_the_bare_folder_names():
    bare = re.compile(r"^\s*(from|import)\s+(agent|tools|evals|prompts)(\.|\s|$)", re.M)
    offenders = []
    for top in (*MAPPED, "tests", "torch_investigate"):
        for path in (ROOT / top).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            if not rel.startswith(USER_REPOS) and bare.search(path.read_text(encoding="utf-8")):
                offenders.append(rel)
    assert offenders == []


def test_the_bare_names_do_not_resolve_outside_the_repo(tmp_path):
    code = (
        "import importlib.util, torch_investigate.agent.cli as c;"
        "print(importlib.util.find_spec('tools'), importlib.util.find_spec('agent'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "None None"
