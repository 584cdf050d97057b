"""Every LLM run is saved as a trajectory and can be replayed.

A trajectory holds the format version, the model and endpoint (never the key), the
bounds, the conversation as sent and received, every tool call that went through the
toolbox (the policy's and the engine's closing calls, in order), the calls that were
refused or malformed, the retries, the usage, why the run stopped, and the final report.
`investigate replay FILE` re-renders that report.

Trajectories are written under `$XDG_CACHE_HOME/torch-investigate/trajectories/` (or
`--trajectory FILE`), never inside the repo under investigation.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field, ValidationError

from torch_investigate.agent.core.session import TOOL_VERSION, InvestigationError
from torch_investigate.agent.llm.client import RetryRecord
from torch_investigate.agent.llm.messages import ChatMessage
from torch_investigate.agent.llm.policy import FailureRecord
from torch_investigate.tools.records import LLMUsage, Report

if TYPE_CHECKING:
    from torch_investigate.agent.core.toolbox import ToolResult

FORMAT = "torch-investigate-trajectory"
# Major: a field removed or changed meaning (replay refuses); minor: fields added.
FORMAT_VERSION = "1.1"


class TrajectoryError(InvestigationError):
    """A trajectory that cannot be written or read: one line, exit 2."""


class ToolStep(BaseModel):
    index: int
    tool: str
    arguments: dict[str, Any]
    ok: bool
    refused: str | None = None
    text: str  # the toolbox's result text (already bounded)
    at_s: float  # seconds since the run started


class Trajectory(BaseModel):
    format: Literal["torch-investigate-trajectory"] = FORMAT
    format_version: str = FORMAT_VERSION
    tool_version: str = TOOL_VERSION
    created_at: str = Field(
        default_factory=lambda: datetime.now(timezone.utc).isoformat(timespec="seconds")
    )
    repo: str
    policy: str
    model: str | None = None
    endpoint: str | None = None
    settings: dict[str, Any] = Field(default_factory=dict)  # the bounds, never the key
    messages: list[ChatMessage] = Field(default_factory=list)
    tool_calls: list[ToolStep] = Field(default_factory=list)
    failures: list[FailureRecord] = Field(default_factory=list)
    retries: list[RetryRecord] = Field(default_factory=list)
    usage: LLMUsage | None = None
    stop_reason: str = ""
    error: str | None = None  # why the run ended without a report
    report: Report | None = None


class Recorder:
    """Sees every tool call (it is the engine's `on_event`) and builds the trajectory."""

    def __init__(self, repo: Path) -> None:
        self.repo = Path(repo)
        self.started = time.perf_counter()
        self.steps: list[ToolStep] = []

    def __call__(self, name: str, arguments: dict[str, Any], result: ToolResult) -> None:
        self.steps.append(ToolStep(
            index=len(self.steps) + 1, tool=name, arguments=arguments, ok=result.ok,
            refused=result.refused, text=result.text,
            at_s=round(time.perf_counter() - self.started, 3),
        ))  # fmt: skip

    def build(self, policy: object, report: Report | None, error: str | None = None) -> Trajectory:
        settings = getattr(policy, "settings", None)
        client = getattr(policy, "client", None)
        conversation = getattr(policy, "conversation", None)
        return Trajectory(
            repo=str(self.repo),
            policy=getattr(policy, "name", "planner"),
            model=settings.model if settings else None,
            endpoint=settings.endpoint if settings else None,
            settings=settings.model_dump(exclude={"model", "base_url", "api_key"})
            if settings
            else {},
            messages=conversation.messages if conversation else [],
            tool_calls=self.steps,
            failures=getattr(policy, "failures", []),
            retries=client.retries if client else [],
            usage=getattr(policy, "usage", None),
            stop_reason=getattr(policy, "stop_reason", ""),
            error=error,
            report=report,
        )


def cache_dir(kind: str) -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "torch-investigate" / kind


def default_path(repo: Path, label: str | None, kind: str = "trajectories") -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    parts = [stamp, Path(repo).resolve().name or "repo", label or "planner"]
    name = "-".join(re.sub(r"[^A-Za-z0-9_.-]+", "_", p) for p in parts)
    return cache_dir(kind) / f"{name}-{os.getpid()}.json"


def outside_repo(path: Path, repo: Path) -> Path:
    """The path to write, refusing one inside the repo (the investigator never writes there)."""
    target = Path(path).expanduser().resolve()
    root = Path(repo).expanduser().resolve()
    if target == root or root in target.parents:
        raise TrajectoryError(
            f"{path} is inside the repo under investigation; the investigator never writes there"
        )
    return target


def save(model: BaseModel, path: Path, repo: Path) -> Path:
    """Write atomically (a crash never leaves half a file) outside the repo."""
    target = outside_repo(path, repo)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=target.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(model.model_dump_json(indent=1))
        os.replace(tmp, target)
    except OSError as e:
        raise TrajectoryError(f"cannot write {path}: {e.strerror or e}") from None
    return target


def load(path: Path) -> Trajectory:
    try:
        raw = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise TrajectoryError(f"cannot read {path}: {e.strerror or e}") from None
    major = re.search(r'"format_version"\s*:\s*"(\d+)\.', raw)
    if major and major.group(1) != FORMAT_VERSION.split(".")[0]:
        raise TrajectoryError(
            f"{path} has trajectory format {major.group(1)}.x; this build reads {FORMAT_VERSION}"
        )
    try:
        return Trajectory.model_validate_json(raw)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise TrajectoryError(f"{path} is not a trajectory ({where}: {first['msg']})") from None


def replay_report(path: Path, fmt: str = "md") -> str:
    from torch_investigate.agent.render import render

    trajectory = load(path)
    if trajectory.report is None:
        raise TrajectoryError(
            f"{path} holds no report: the run ended early ({trajectory.error or trajectory.stop_reason})"
        )
    text = render(trajectory.report, fmt)  # type: ignore[arg-type]
    return text if text.endswith("\n") else text + "\n"


def write_run(
    recorder: Recorder,
    policy: object,
    report: Report | None,
    path: Path | None = None,
    error: str | None = None,
) -> Path:
    """Save the run's trajectory (at `path`, or in the cache) and return where it went."""
    trajectory = recorder.build(policy, report, error)
    if path is not None:
        return save(trajectory, path, recorder.repo)
    target = default_path(recorder.repo, trajectory.model)
    try:
        outside_repo(target, recorder.repo)
    except TrajectoryError:  # the cache lies inside the repo: use the temp dir instead
        target = Path(tempfile.gettempdir()) / "torch-investigate" / "trajectories" / target.name
    return save(trajectory, target, recorder.repo)
