"""The installed layout: one namespace (`torch_investigate`), every package folder listed,
and no import of the bare folder names that would shadow a user's own packages."""

import re
import subprocess
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the tomli backport, a dependency there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
MAPPED = {"agent", "tools", "evals", "prompts"}
USER_REPOS = (
    "evals/suite",
    "evals/repos",
    "evals/test",
    "evals/rounds",
    "evals/practice",
    "evals/real/standins",
    "tests/fixtures",
    "examples",
)


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_package_folder_is_found_under_the_namespace():
    """The wheel's packages come from the links in torch_investigate/: every code folder
    (and no user repo of the suites) is one of them."""
    from setuptools import find_packages

    find = _pyproject()["tool"]["setuptools"]["packages"]["find"]
    listed = set(find_packages(str(ROOT), include=find["include"], exclude=find["exclude"]))
    found = {"torch_investigate"}
    for top in MAPPED:
        for init in (ROOT / top).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT).as_posix()
            if not rel.startswith(USER_REPOS):
                found.add("torch_investigate." + rel.replace("/", "."))
    assert listed == found


def test_a_checkout_resolves_its_own_imports_through_the_links():
    """An editor or type checker opened on a fresh clone finds our modules on disk, under
    torch_investigate/, without the editable install's import hook."""
    for top in MAPPED:
        link = ROOT / "torch_investigate" / top
        assert link.is_symlink() and link.resolve() == (ROOT / top).resolve()
    code = (
        "import sys, importlib.util; sys.meta_path = [f for f in sys.meta_path"
        " if 'editable' not in type(f).__name__.lower() and 'editable' not in str(f)];"
        "print(importlib.util.find_spec('torch_investigate.agent.core.session').origin)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == str(ROOT / "torch_investigate" / "agent" / "core" / "session.py")


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
        "import importlib.util, torch_investigate.agent.cli.main as c;"
        "print(importlib.util.find_spec('tools'), importlib.util.find_spec('agent'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "None None"
