"""The real-repo suite: public PyTorch repos pinned to a commit, run as a new user would,
healthy and with hand-made seeded bugs.

`manifest.yaml` beside this file lists the entries. Materializing one exports the pinned
commit from a local mirror, writes the entry's synthetic data (our own scripts in data/),
copies the stand-in packages it needs (standins/), applies the environment edits every
run needs on this torch, then the seed's edits. Edits are exact: each `find` must start
on its stated line, else the materialization stops with the file, line and what is there.

    python -m torch_investigate.evals.real.materialize --repos DIR --out OUT [--id ID] [--measure]
"""

from __future__ import annotations

import argparse
import io
import os
import re
import resource
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.yaml"
HEALTHY = "healthy"  # the folder name of an entry's unseeded copy under OUT/<id>/


class Edit(BaseModel):
    """Replace `find`, which starts on 1-based `line` of `file` (relative to the
    investigated folder), with `replace`. Either may span lines. Edits apply in order, each
    to the file as the edits before it left it."""

    model_config = ConfigDict(extra="forbid")

    file: str
    line: int = Field(ge=1)
    find: str = Field(min_length=1)
    replace: str
    why: str | None = None  # required for env_edits: the reason a user would make it too


class Location(BaseModel):
    model_config = ConfigDict(extra="forbid")

    file: str
    symbol: str  # enclosing function, `Class.method`, or `<module>`
    line: int = Field(ge=1)  # in the seeded file


class Metric(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    pattern: str  # one capture group: the number
    direction: Literal["lower", "higher"]
    last: bool = True  # the last match in the output, else the first

    @field_validator("pattern")
    @classmethod
    def _one_group(cls, pattern: str) -> str:
        if re.compile(pattern).groups != 1:
            raise ValueError(f"metric pattern needs exactly one capture group: {pattern!r}")
        return pattern

    def read(self, output: str) -> float | None:
        found = re.findall(self.pattern, output)
        if not found:
            return None
        try:
            return float(found[-1] if self.last else found[0])
        except ValueError:
            return None


class Seed(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    category: str
    stage: int = Field(ge=1, le=8)
    truth: Location
    alternatives: list[Location] = []
    edits: list[Edit] = Field(min_length=1)
    buggy_metric: float | None  # None: the run printed no metric (crash or time limit)
    effect: Literal["degraded", "improved", "crash", "changed"]
    note: str


class RealRepo(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    source: str = Field(pattern=r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
    commit: str = Field(pattern=r"^[0-9a-f]{40}$")
    folder: str  # relative to the repo root; "" = the root
    command: str  # run with cwd = folder
    env: dict[str, str] = {}  # extra environment for the command (paths relative to folder)
    data: str | None = None  # data script, relative to this directory
    standins: list[str] = []  # package folders under standins/
    env_edits: list[Edit] = []
    outside_folder: list[str] = []  # paths outside `folder` the run reads (data, packages)
    timeout: float = 300.0  # seconds a plain run may take before it counts as stuck
    metric: Metric
    healthy_metric: float
    noise: float = Field(ge=0)
    plain_seconds: float  # wall time of one plain run here (see README: the machine's load)
    plain_cpu_seconds: float | None = None  # user + system time of that run, load-independent
    style: str
    note: str = ""  # how the noise was measured, what a healthy run looks like
    seeds: list[Seed] = []

    @field_validator("env_edits")
    @classmethod
    def _env_edits_say_why(cls, edits: list[Edit]) -> list[Edit]:
        for edit in edits:
            if not edit.why:
                raise ValueError(f"env_edit on {edit.file}:{edit.line} needs a `why`")
        return edits


class RealManifest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: Literal[1]
    repos: list[RealRepo]

    @model_validator(mode="after")
    def _unique_ids(self) -> RealManifest:
        ids = [r.id for r in self.repos] + [s.id for r in self.repos for s in r.seeds]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"duplicate ids: {dupes}")
        return self

    @classmethod
    def load(cls, path: str | Path = MANIFEST) -> RealManifest:
        return cls.model_validate(yaml.safe_load(Path(path).read_text(encoding="utf-8")))

    def find(self, ident: str) -> tuple[RealRepo, Seed | None]:
        for repo in self.repos:
            if repo.id == ident:
                return repo, None
            for seed in repo.seeds:
                if seed.id == ident:
                    return repo, seed
        raise KeyError(f"no entry or seed with id {ident!r}")


class MaterializeError(Exception):
    """A materialization that cannot go on; the message names what to fix."""


# ---- the repository ---------------------------------------------------------------------


def _git_dir(path: Path) -> Path | None:
    if (path / ".git").is_dir():
        path = path / ".git"
    if (path / "HEAD").is_file() and (path / "objects").is_dir():
        return path
    return None


def find_git_dir(repos_dir: str | Path, source: str) -> Path | None:
    """The git directory of `source` ("owner/name") under repos_dir, in any of the layouts
    DIR/owner+name/repo (as the fetch tool leaves it), DIR/owner+name, DIR/owner/name,
    DIR/name; each bare or with a work tree."""
    owner, name = source.split("/", 1)
    root = Path(repos_dir)
    for candidate in (
        root / f"{owner}+{name}" / "repo",
        root / f"{owner}+{name}",
        root / owner / name,
        root / name,
    ):
        found = _git_dir(candidate)
        if found is not None:
            return found
    return None


def _git(git_dir: Path, *args: str, stdin: bytes | None = None) -> bytes:
    done = subprocess.run(
        ["git", f"--git-dir={git_dir}", *args], input=stdin, capture_output=True, check=False
    )
    if done.returncode != 0:
        raise MaterializeError(
            f"git {' '.join(args)} failed: {done.stderr.decode(errors='replace').strip()}"
        )
    return done.stdout


def _export(git_dir: Path, commit: str, dest: Path) -> list[str]:
    """Write the commit's files into dest; returns the paths whose blobs the mirror lacks
    (snapshots may leave out their largest files). git archive when every blob is there."""
    try:
        _git(git_dir, "cat-file", "-e", f"{commit}^{{commit}}")
    except MaterializeError as e:
        raise MaterializeError(f"commit {commit} is not in {git_dir}: fetch the repo again") from e
    dest.mkdir(parents=True, exist_ok=True)
    try:
        with tarfile.open(
            fileobj=io.BytesIO(_git(git_dir, "archive", "--format=tar", commit))
        ) as tar:
            tar.extractall(dest, filter="tar")
        return []
    except MaterializeError:
        pass
    listing = _git(git_dir, "ls-tree", "-r", "-z", "--full-tree", commit)
    entries = []
    for record in listing.split(b"\0"):
        if record:
            meta, path = record.split(b"\t", 1)
            mode, kind, sha = meta.decode().split()
            if kind == "blob":
                entries.append((mode, sha, path.decode()))
    batch = subprocess.Popen(
        ["git", f"--git-dir={git_dir}", "cat-file", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert batch.stdin is not None and batch.stdout is not None
    missing = []
    for mode, sha, path in entries:
        batch.stdin.write(sha.encode() + b"\n")
        batch.stdin.flush()
        header = batch.stdout.readline().split()
        if header[-1] == b"missing":
            missing.append(path)
            continue
        data = batch.stdout.read(int(header[2]))
        batch.stdout.read(1)
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if mode == "120000":
            target.unlink(missing_ok=True)
            os.symlink(data.decode(), target)
        else:
            target.write_bytes(data)
            if mode == "100755":
                target.chmod(0o755)
    batch.stdin.close()
    batch.wait()
    return missing


# ---- edits ------------------------------------------------------------------------------


def apply_edit(folder: Path, edit: Edit) -> None:
    path = folder / edit.file
    if not path.is_file():
        raise MaterializeError(f"{edit.file}: no such file in {folder}")
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    if edit.line > len(lines):
        raise MaterializeError(f"{edit.file}:{edit.line}: the file has only {len(lines)} lines")
    start = sum(len(line) for line in lines[: edit.line - 1])
    at = text.find(edit.find, start)
    if at < 0 or at >= start + len(lines[edit.line - 1]):
        raise MaterializeError(
            f"{edit.file}:{edit.line}: {edit.find!r} does not start on this line, which reads "
            f"{lines[edit.line - 1].rstrip()!r}"
        )
    path.write_text(text[:at] + edit.replace + text[at + len(edit.find) :], encoding="utf-8")


def materialize(repo: RealRepo, seed: Seed | None, repos_dir: str | Path, dest: str | Path) -> Path:
    """Export repo's pinned commit into dest, write its data, copy its stand-ins, apply its
    env_edits and then the seed's edits (seed None: the healthy copy). Returns the
    investigated folder."""
    git_dir = find_git_dir(repos_dir, repo.source)
    if git_dir is None:
        raise MaterializeError(
            f"{repo.source} not found under {repos_dir} (fetch github:{repo.source})"
        )
    dest = Path(dest)
    if dest.exists():
        shutil.rmtree(dest)
    missing = _export(git_dir, repo.commit, dest)
    folder = dest / repo.folder if repo.folder else dest
    if not folder.is_dir():
        raise MaterializeError(
            f"{repo.id}: folder {repo.folder!r} is not in {repo.source}@{repo.commit[:12]}"
        )
    prefix = f"{repo.folder.rstrip('/')}/" if repo.folder else ""
    inside = [m for m in missing if m.startswith(prefix)]
    if inside:  # the data script usually writes them; say so in case it does not
        print(
            f"[{repo.id}] the mirror lacks {len(inside)} file(s) of the folder: {', '.join(inside[:5])}",
            file=sys.stderr,
        )
    if repo.data:
        script = HERE / repo.data
        done = subprocess.run(
            [sys.executable, str(script)], cwd=folder, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise MaterializeError(
                f"{repo.id}: data script {repo.data} failed:\n{done.stderr[-2000:]}"
            )
    for name in repo.standins:
        source = HERE / "standins" / name
        if not source.is_dir():
            raise MaterializeError(f"{repo.id}: no stand-in {name!r} under {HERE / 'standins'}")
        shutil.copytree(
            source, folder / name, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__")
        )
    for edit in repo.env_edits + (seed.edits if seed else []):
        apply_edit(folder, edit)
    return folder


# ---- plain runs -------------------------------------------------------------------------


class PlainRun(BaseModel):
    metric: float | None
    seconds: float
    cpu_seconds: float | None = None  # user + system time of the command and its children
    returncode: int | None  # None: stopped at the time limit
    tail: str  # the output's last lines


def run_plain(repo: RealRepo, folder: Path, timeout: float | None = None) -> PlainRun:
    """Run the entry's command in folder as a user would, and read its metric."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.update(repo.env)
    start = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen(
        ["bash", "-c", repo.command],
        cwd=folder,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        output, _ = proc.communicate(timeout=timeout or repo.timeout)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        output, _ = proc.communicate()
        code = None
    seconds = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return PlainRun(
        metric=repo.metric.read(output),
        seconds=round(seconds, 1),
        cpu_seconds=round(cpu, 1),
        returncode=code,
        tail="\n".join(output.splitlines()[-15:]),
    )


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.6g}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m torch_investigate.evals.real.materialize",
        description=__doc__.split("\n\n")[0],
    )
    parser.add_argument("--repos", required=True, help="folder holding the fetched repos")
    parser.add_argument(
        "--out", required=True, help="OUT/<entry id>/{healthy,<seed id>}/ are written"
    )
    parser.add_argument("--id", help="only this entry (healthy and its seeds) or this one seed")
    parser.add_argument("--measure", action="store_true", help="run each copy plainly and compare")
    parser.add_argument("--manifest", default=str(MANIFEST))
    args = parser.parse_args(argv)
    manifest = RealManifest.load(args.manifest)
    jobs: list[tuple[RealRepo, Seed | None]] = []
    if args.id:
        try:
            repo, seed = manifest.find(args.id)
        except KeyError as e:
            print(e.args[0], file=sys.stderr)
            return 2
        jobs = [(repo, seed)] if seed else [(repo, None)] + [(repo, s) for s in repo.seeds]
    else:
        jobs = [(r, s) for r in manifest.repos for s in [None, *r.seeds]]
    failed = 0
    for repo, seed in jobs:
        name = seed.id if seed else HEALTHY
        dest = Path(args.out) / repo.id / name
        try:
            folder = materialize(repo, seed, args.repos, dest)
        except MaterializeError as e:
            print(f"{repo.id}/{name}: {e}", file=sys.stderr)
            failed += 1
            continue
        if not args.measure:
            print(f"{repo.id}/{name}: {folder}")
            continue
        run = run_plain(repo, folder)
        expected = seed.buggy_metric if seed else repo.healthy_metric
        status = "timeout" if run.returncode is None else f"exit {run.returncode}"
        print(
            f"{repo.id}/{name}: {repo.metric.name} {_fmt(run.metric)} (manifest {_fmt(expected)}), "
            f"{run.seconds:.1f} s (manifest {repo.plain_seconds:.1f} s; cpu {run.cpu_seconds:.1f} s), "
            f"{status}",
            flush=True,
        )
        if run.metric is None and (seed is None or seed.effect != "crash"):
            print("    " + run.tail.replace("\n", "\n    "))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
