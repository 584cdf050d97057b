"""Cold process vs warm fork server: seconds per run of a tiny torch training script.

    python evals/bench_sandbox.py [--runs 5] [--isolation auto] [--tracer stub|real]

Times are measured by the host around `Sandbox.run` (copying the workspace, the
sandbox process, the run, classification). The cold mode starts a fresh sandbox
process per run, which imports torch every time; the warm server imports it once
and forks per run (its start-up is reported on its own line).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from torch_investigate.tools.sandbox import Limits, Sandbox

TINY = """import torch
model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x, y = torch.randn(64, 8), torch.randn(64, 1)
for step in range(20):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
print(f"loss {loss.item():.4f}")
"""
STUB_TRACER = (
    Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "sandbox" / "stub_trace"
)


def _time_runs(sandbox: Sandbox, runs: int) -> list[float]:
    times = []
    for i in range(runs):
        start = time.perf_counter()
        result = sandbox.run(["train.py"], trace_config={}, label=f"bench{i}")
        times.append(time.perf_counter() - start)
        if result.failure is not None:
            raise SystemExit(f"bench run failed: {result.failure.message}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--isolation", default="auto")
    parser.add_argument("--tracer", choices=["stub", "real"], default="stub")
    args = parser.parse_args()
    tracer = STUB_TRACER if args.tracer == "stub" else None
    limits = Limits(wall_s=120)
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "tiny"
        repo.mkdir()
        (repo / "train.py").write_text(TINY)

        with Sandbox(
            repo, warm=False, limits=limits, isolation=args.isolation, tracer=tracer
        ) as cold:
            isolation = cold.isolation
            cold_times = _time_runs(cold, args.runs)

        start = time.perf_counter()
        with Sandbox(
            repo, warm=True, limits=limits, isolation=args.isolation, tracer=tracer
        ) as warm:
            first = _time_runs(warm, 1)[0]
            startup = time.perf_counter() - start
            warm_times = _time_runs(warm, args.runs)

    print(f"isolation: {isolation}   tracer: {args.tracer}   runs: {args.runs}")
    print(f"{'mode':<32}{'mean s':>8}{'min s':>8}{'max s':>8}")
    for name, times in (
        ("cold (fresh process per run)", cold_times),
        ("warm (fork server)", warm_times),
    ):
        print(f"{name:<32}{statistics.mean(times):>8.3f}{min(times):>8.3f}{max(times):>8.3f}")
    print(f"warm server start + first run: {startup:.3f} s (first run alone {first:.3f} s)")
    print(f"speed-up per run: {statistics.mean(cold_times) / statistics.mean(warm_times):.1f}x")


if __name__ == "__main__":
    main()
