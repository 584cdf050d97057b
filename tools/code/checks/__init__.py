"""Static checks: code patterns behind models that run but do not learn.

`run_static_checks(index)` runs every registered check over the index's shared analysis
and returns `plausible` findings, one per (category, file, line), ordered by protocol
stage. A check that fails on odd code is skipped (and logged), never fatal, unless
`strict` (the tests) asks for the exception.
"""

from __future__ import annotations

import logging

from torch_investigate.tools.code.analysis import analysis
from torch_investigate.tools.code.checks import (  # noqa: F401 - importing registers the checks
    activations,
    bad_labels,
    clipping,
    data_loading,
    detach,
    dims,
    forward_input,
    frozen,
    helper_args,
    labels,
    leaf,
    leakage,
    loss_args,
    modes,
    no_grad,
    optimizer_params,
    preprocessing,
    registration,
    scheduler,
    step_order,
    truncated_pairs,
    walk_orders,
    weight_decay,
    zero_grad,
)
from torch_investigate.tools.code.checks.base import REGISTRY, Check, CheckContext
from torch_investigate.tools.code.index import CodeIndex
from torch_investigate.tools.records import Finding

log = logging.getLogger(__name__)
_RANK = {"high": 0, "medium": 1, "low": 2}


def run_static_checks(
    index: CodeIndex, *, only: list[str] | None = None, strict: bool = False
) -> list[Finding]:
    ctx = CheckContext(index, analysis(index))
    best: dict[tuple[str, str | None, int | None], Finding] = {}
    for c in REGISTRY:
        if only is not None and c.name not in only:
            continue
        try:
            produced = list(c.run(ctx))
        except Exception:
            if strict:
                raise
            log.warning("static check %s failed; skipped", c.name, exc_info=True)
            continue
        for f in produced:
            if f.file is not None and is_test_file(f.file):
                continue  # the repo's own unit tests are not its training path
            key = (f.category, f.file, f.line)
            if key not in best or _RANK[f.confidence] < _RANK[best[key].confidence]:
                best[key] = f
    return sorted(
        best.values(), key=lambda f: (int(f.stage), f.file or "", f.line or 0, f.category)
    )


def is_test_file(file: str) -> bool:
    """`tests/...`, `test_x.py`, `x_test.py`, `conftest.py` (a `test.py` evaluation
    script is not a unit test and still counts)."""
    parts = file.split("/")
    name = parts[-1]
    return (
        any(p in ("tests", "test") for p in parts[:-1])
        or name.startswith("test_")
        or name.endswith("_test.py")
        or name == "conftest.py"
    )


def registered_checks() -> list[Check]:
    return list(REGISTRY)


__all__ = ["Check", "run_static_checks", "registered_checks"]
