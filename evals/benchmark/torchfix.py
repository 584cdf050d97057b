"""The TorchFix baseline: Meta's PyTorch linter (flake8-style `file:line:col: TORxxx`),
run with its default rule set on each case folder.

Only TOR002 (`require_grad` typo: the flag meant to make a tensor trainable is never
set) corresponds to one of our categories; every other rule (deprecated APIs,
`torch.load` security, vision transforms, DataLoader workers) is counted as a finding
without a category, which scores as "any finding" only.
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import time
from pathlib import Path

from torch_investigate.evals.benchmark.records import Run, ToolFinding
from torch_investigate.tools.code import CodeIndex

RULES = {"TOR002": "frozen_parameters"}
LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<rule>TOR\d+) (?P<message>.*)$")
TIMEOUT_S = 120.0


def version() -> str | None:
    """TorchFix's version when it is installed, else None."""
    try:
        return importlib.metadata.version("torchfix")
    except importlib.metadata.PackageNotFoundError:
        return None


def run_torchfix(cases: dict[str, tuple[Path, str]], jobs: int = 2) -> dict[str, Run]:
    """TorchFix over many case folders in one process (its start-up costs seconds):
    case id -> (folder, content key) in, case id -> Run out. Each case is charged an
    equal share of the wall time."""
    if not cases:
        return {}
    folders = {cid: folder.resolve() for cid, (folder, _) in cases.items()}
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "torchfix", "-j", str(jobs), *map(str, folders.values())],
            capture_output=True, text=True, timeout=TIMEOUT_S * len(cases),
        )  # fmt: skip
        stdout, code, error = done.stdout, done.returncode, ""
        if done.returncode not in (0, 1) and not stdout.strip():
            tail = done.stderr.strip().splitlines()
            error = tail[-1][:300] if tail else f"exit code {done.returncode}"
    except subprocess.TimeoutExpired:
        stdout, code, error = "", None, "timed out"
    share = round((time.perf_counter() - started) / len(cases), 3)
    lines: dict[str, list[str]] = {cid: [] for cid in cases}
    for raw in stdout.splitlines():
        for cid, folder in folders.items():
            prefix = str(folder) + "/"
            if raw.startswith(prefix):
                lines[cid].append(raw[len(prefix) :])
                break
    return {
        cid: Run(
            mode="torchfix",
            case_id=cid,
            key=cases[cid][1],
            exit_code=code,
            seconds=share,
            error=error,
            findings=parse("\n".join(lines[cid]), folders[cid]),
        )  # fmt: skip
        for cid in cases
    }


def parse(stdout: str, folder: Path) -> list[ToolFinding]:
    index: CodeIndex | None = None
    found = []
    for raw in stdout.splitlines():
        match = LINE.match(raw.strip())
        if match is None:
            continue
        if index is None:
            index = CodeIndex.build(folder)
        file = match["file"].removeprefix("./")
        line = int(match["line"])
        rule = match["rule"]
        found.append(
            ToolFinding(
                category=RULES.get(rule, f"unmapped:{rule}"),
                status="plausible",
                file=file,
                symbol=index.enclosing_symbol(file, line),
                line=line,
                title=f"{rule} {match['message']}",
            )
        )
    return found
