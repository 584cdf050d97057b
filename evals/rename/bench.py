"""`investigate bench SUITE --rename` (or `--restyle`): rewrite the suite, score the
rewrite and the original with the same investigator, and print them side by side with
every case whose verdict moved.

With --json FILE the rewritten suite is kept in `FILE-stem.cache/<variant>-suite/`, the
original's runs are cached in `FILE-stem.cache/original/` and the rewrite's in
`FILE-stem.cache/<variant>/`; runs of an earlier `bench SUITE --json OTHER` in the same
folder are reused for the original when OTHER was made by this very investigator (same
commit, agent/ and tools/ unmodified) and the case is unchanged.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

from rich.console import Console
from rich.table import Table

from torch_investigate.evals.bench import (
    EXIT_OK,
    BenchError,
    _fail,
    cache_dir,
    check_suite,
    investigator_version,
    score_suite,
)
from torch_investigate.evals.benchmark.records import BenchResult, LLMSpec, Run
from torch_investigate.evals.real.bench import is_real_suite
from torch_investigate.evals.rename.compare import VariantResult, changes, rows
from torch_investigate.evals.rename.suite import SuiteRewrite, Variant, rewrite_suite


def run_variant(
    suite: Path,
    variant: Variant,
    *,
    jobs: int = 2,
    json_out: Path | None = None,
    ray: str | None = None,
    ray_cpus_per_case: float = 1.0,
    llm: LLMSpec | None = None,
) -> int:
    suite = suite.expanduser()
    if jobs < 1:
        return _fail("--jobs must be at least 1")
    if is_real_suite(suite):
        return _fail("--rename/--restyle rewrite a suite of case folders, not evals/real")
    try:
        check_suite(suite)
    except BenchError as e:
        return _fail(str(e))
    cache = cache_dir(json_out)
    holder = None
    if cache is not None:
        rewritten = cache / f"{variant}-suite"
    else:
        holder = tempfile.TemporaryDirectory(prefix="ti-bench-rename-")
        rewritten = Path(holder.name) / f"{variant}-suite"
    try:
        print(f"rewriting {suite} ({variant}) into {rewritten}", file=sys.stderr)
        record = rewrite_suite(suite, rewritten, variant=variant, progress=False)
        # the main policy alone: the baselines' name dependence is not the question
        common = dict(
            jobs=jobs, ray=ray, ray_cpus_per_case=ray_cpus_per_case, llm=llm, baselines=False
        )
        # the rewrite first: an interrupted run has made what is new, and the original's
        # runs are the ones an earlier benchmark may already hold
        print(f"the {variant}d suite: {rewritten}", file=sys.stderr)
        renamed, after = score_suite(
            rewritten, cache=cache / variant if cache else None, json_out=json_out,
            fallbacks=_earlier_caches(json_out, variant), **common,
        )  # fmt: skip
        print(f"the original suite: {suite}", file=sys.stderr)
        original, before = score_suite(
            suite, cache=cache / "original" if cache else None, json_out=json_out,
            fallbacks=_earlier_caches(json_out), **common,
        )  # fmt: skip
        result = _result(variant, suite, rewritten, record, (original, before), (renamed, after))
    except BenchError as e:
        return _fail(str(e))
    finally:
        if holder is not None:
            holder.cleanup()
    render_variant(result)
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(result.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return EXIT_OK


def _earlier_caches(json_out: Path | None, variant: str | None = None) -> list[Path]:
    """Caches of earlier benchmarks next to json_out made by this same investigator: their
    runs of the original suites (variant None), or of the `variant`-rewritten suites."""
    if json_out is None or not json_out.parent.is_dir():
        return []
    here = investigator_version()
    if "modified" in here or "not a git" in here:
        return []
    root = here.split(" at ")[0]
    out = []
    for other in sorted(json_out.parent.glob("*.json")):
        cache = cache_dir(other)
        try:
            data = json.loads(other.read_text(encoding="utf-8"))
        except (ValueError, OSError):
            continue
        if other == json_out or not isinstance(data, dict) or cache is None:
            continue
        if "variant" in data:  # a --rename/--restyle result: originals and rewrites apart
            # a rewrite's runs serve either variant: a run is reused only for identical
            # files, and a case --restyle leaves as it is is the --rename rewrite itself
            made_by = (data.get("original") or {}).get("investigator")
            candidate = cache / ("original" if variant is None else data["variant"])
        else:  # a plain benchmark: originals only
            made_by = data.get("investigator")
            candidate = cache if variant is None else None
        if candidate is not None and candidate.is_dir() and _same_investigator(made_by, root):
            out.append(candidate)
    return out


def _same_investigator(recorded: str | None, root: str) -> bool:
    """Whether a benchmark recorded as `<root> at <sha>` ran the investigator this checkout
    runs: same root, and no change to agent/, tools/ or prompts/ since that commit."""
    if not recorded or "modified" in recorded or not recorded.startswith(root + " at "):
        return False
    sha = recorded.split(" at ")[1].split()[0]
    try:
        import git

        repo = git.Repo(root, search_parent_directories=False)
        return not repo.git.diff(sha, "HEAD", "--", "agent", "tools", "prompts", name_only=True)
    except Exception:  # noqa: BLE001 - an unknown commit or no git: not the same
        return False


def _result(
    variant: Variant,
    suite: Path,
    rewritten: Path,
    record: SuiteRewrite,
    scored: tuple[BenchResult, dict[str, Run]],
    scored_rewrite: tuple[BenchResult, dict[str, Run]],
) -> VariantResult:
    original, before = scored
    renamed, after = scored_rewrite
    renamed_counts: Counter = Counter()
    defined: Counter = Counter()
    kept: Counter = Counter()
    restyled: Counter = Counter()
    for case in record.cases:
        if case.table is not None:
            renamed_counts.update(case.table.renamed)
            defined.update(case.table.defined)
            kept.update(case.table.kept_reasons())
        restyled.update({line.split(":")[0]: 1 for line in case.restyle})
    return VariantResult(
        variant=variant,
        suite=str(suite),
        rewritten_suite=str(rewritten),
        original=original,
        rewritten=renamed,
        rows=rows(original.summary, renamed.summary),
        changed=changes(before, after, record, original, renamed),
        rewrite_errors=[f"{c.id}: {c.error}" for c in record.cases if c.error],
        renamed=dict(renamed_counts),
        defined=dict(defined),
        kept=dict(kept.most_common()),
        restyled=dict(restyled),
    )


def render_variant(result: VariantResult, console: Console | None = None) -> None:
    console = console or Console(width=None if sys.stdout.isatty() else 160)
    table = Table(title=f"{result.suite}: original vs --{result.variant}")
    for name in ("score", "original", result.variant):
        table.add_column(name, justify="left" if name == "score" else "right")
    for row in result.rows:
        table.add_row(row.name, _cell(row.original), _cell(row.rewritten))
    console.print(table)
    total = sum(result.defined.get(g, 0) for g in ("module", "module-level", "attribute"))
    done = sum(result.renamed.values())
    console.print(
        f"renamed {done} of {total} module, module-level and attribute spellings "
        f"({', '.join(f'{g} {result.renamed.get(g, 0)}/{result.defined.get(g, 0)}' for g in ('module', 'module-level', 'attribute'))}); "
        f"kept: {', '.join(f'{n} {r}' for r, n in result.kept.items()) or 'none'}",
        highlight=False, soft_wrap=True,
    )  # fmt: skip
    if result.restyled:
        cases = len(result.original.cases)
        parts = ", ".join(f"{what} in {n} of {cases} cases" for what, n in result.restyled.items())
        console.print(f"restyled: {parts}", highlight=False, soft_wrap=True)
    for error in result.rewrite_errors:
        console.print(f"  not rewritten: {error}", highlight=False, soft_wrap=True)
    console.print(f"\nverdict changed ({len(result.changed)}):", highlight=False)
    for c in result.changed:
        console.print(
            f"  {c.id}: {', '.join(c.what)}\n    original: {c.original.said()}\n"
            f"    {result.variant}: {c.rewritten.said()}",
            highlight=False, soft_wrap=True,
        )  # fmt: skip


def _cell(value: float | int | None) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{100 * value:.0f}%"
    return str(value)
