"""The runtime tracer, injected into the repo's training process.

Imports only the standard library and torch, and only relative imports inside this
package: the sandbox stages a copy of this folder under a private top-level name so it
cannot collide with a `tools` package of the user's repo.

Interface used by the sandbox (stable):
    run_traced(config: dict) -> int
        Runs the user's program described by config["argv"] (["train.py", "--x", "1"] or
        ["-m", "pkg.train", ...]) in the current process, in the current directory, with
        tracing as configured, writes the trace JSON to config["out"] (also when the
        program crashes or is stopped early), and returns the exit code the program
        would have had (0 on success or early stop, 1 on an uncaught exception, the
        SystemExit code otherwise).
"""


def run_traced(config: dict) -> int:
    # imported on use: the host imports this package's config (the typed run config and
    # the interventions) without importing torch; the sandbox's server imports .runner
    # once before it forks
    from .runner import run_traced as run

    return run(config)


__all__ = ["run_traced"]
