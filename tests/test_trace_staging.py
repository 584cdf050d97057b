"""The tracer as the sandbox stages it: every module of tools/trace, subpackages included,
under the private package name, importable with only the standard library and torch."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from torch_investigate.tools.sandbox.staging import TRACE_PACKAGE, stage_runtime

TRACER = Path(__file__).resolve().parent.parent / "tools" / "trace"

IMPORT_CHECK = f"""
import sys
import torch
before = set(sys.modules)
import {TRACE_PACKAGE}, {TRACE_PACKAGE}.hooks, {TRACE_PACKAGE}.interventions.batch
new = {{m.split(".")[0] for m in set(sys.modules) - before}}
print(sorted(m for m in new if m not in sys.stdlib_module_names and m != "{TRACE_PACKAGE}"))
"""


def _modules(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*.py")}


def test_every_tracer_module_is_staged(tmp_path):
    stage_runtime(tmp_path / "runtime")
    staged = tmp_path / "runtime" / TRACE_PACKAGE
    assert _modules(staged) == _modules(TRACER)
    assert {"hooks/__init__.py", "interventions/__init__.py"} <= _modules(staged)


def test_the_staged_tracer_imports_only_the_standard_library_and_torch(tmp_path):
    stage_runtime(tmp_path / "runtime")
    out = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(tmp_path / 'runtime')!r})\n" + IMPORT_CHECK],
        capture_output=True, text=True, cwd=tmp_path, check=True,
    )  # fmt: skip
    assert out.stdout.strip() == "[]", out.stderr[-2000:]
