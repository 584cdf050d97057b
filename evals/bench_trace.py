"""Tracing overhead: the same training path untraced vs traced, on the warm sandbox.

    python evals/bench_trace.py [REPO] [--steps N] [--repeat K]

Prints the median wall time of each mode and the overhead. Untraced runs still stop
after the same number of optimizer steps (only the step counter is installed).
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from torch_investigate.tools.entry import find_command
from torch_investigate.tools.sandbox import Sandbox
from torch_investigate.tools.workspace import Workspace

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("repo", nargs="?", default=str(ROOT / "evals" / "repos" / "rings"))
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    with Workspace.create(Path(a.repo)) as ws:
        cmd = find_command(ws.root)
        assert cmd is not None, "no training command"
        budget = {"max_steps": a.steps, "max_total_steps": a.steps, "fast_forward": False}
        configs = {
            "untraced": {**budget, "trace": False, "map_cuda": False},
            "traced": {**budget, "detail_steps": 25, "probes": True},
        }
        times: dict[str, list[float]] = {k: [] for k in configs}
        with Sandbox(ws.root, parallel=1) as sb:
            sb.run(cmd.argv, trace_config=configs["untraced"], label="warmup")
            for _ in range(a.repeat):
                for name, cfg in configs.items():
                    res = sb.run(cmd.argv, trace_config=cfg, label=name)
                    times[name].append(res.wall_s)
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"repo {a.repo}: {a.steps} optimizer steps, {a.repeat} runs each (warm fork server)")
    for k, v in med.items():
        print(f"  {k:9s} median {v:.3f} s  (runs: {', '.join(f'{x:.3f}' for x in times[k])})")
    print(f"  tracing overhead: {100 * (med['traced'] / med['untraced'] - 1):.0f}%")


if __name__ == "__main__":
    main()
