"""`warm=False`: one fresh sandbox process per run, same limits and classifications."""

from __future__ import annotations

from pathlib import Path

import pytest

from torch_investigate.tools.sandbox import Limits, Sandbox
from torch_investigate.tools.workspace import Workspace

FIXTURES = Path(__file__).parent / "fixtures" / "sandbox"
STUB_TRACER = FIXTURES / "stub_trace"
LIMITS = Limits(wall_s=20, memory_mb=512)


def _kinds(
    repo: str, jobs: list[tuple[list[str], dict, str]], warm: bool, limits: Limits = LIMITS
) -> list[str | None]:
    with Workspace.create(FIXTURES / repo) as ws:
        with Sandbox(ws.root, tracer=STUB_TRACER, limits=limits, warm=warm) as sandbox:
            results = sandbox.run_many(jobs)
    assert all(r.warm is warm for r in results)
    return [r.failure.kind if r.failure else None for r in results]


def test_cold_runs_classify_like_warm_ones() -> None:
    jobs = [(["train.py", "--mode", m], {}, m) for m in ("urllib", "crash")]
    assert _kinds("flat", jobs, warm=False) == ["network_blocked", "user_exception"]


@pytest.mark.slow
@pytest.mark.parametrize("repo", ["flat", "pkgrepo"])
def test_cold_and_warm_agree_on_every_kind(repo: str) -> None:
    modes = ["ok", "socket", "crash", "memlist", "memtorch", "sleep"]
    if repo == "flat":
        jobs = [(["train.py", "--mode", m], {}, m) for m in modes]
    else:
        jobs = [(["-m", "trainer.main", m], {}, m) for m in modes]
    expected = [
        None,
        "network_blocked",
        "user_exception",
        "out_of_memory",
        "out_of_memory",
        "timeout",
    ]
    limits = Limits(wall_s=3, memory_mb=512)
    assert _kinds(repo, jobs, warm=True, limits=limits) == expected
    assert _kinds(repo, jobs, warm=False, limits=limits) == expected
