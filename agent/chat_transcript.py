"""A chat session's transcript: what the person typed, what the investigator answered,
every tool call, and (with a model) the LLM conversation and usage.

It is saved after every exchange, atomically, under
`$XDG_CACHE_HOME/torch-investigate/chats/` (or `--transcript FILE`), never in the repo;
so Ctrl-C or a crash loses at most the exchange in progress.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field
from torch_investigate.agent.llm.messages import ChatMessage
from torch_investigate.agent.llm.trajectory import TrajectoryError, default_path, outside_repo, save
from torch_investigate.tools.records import LLMUsage

FORMAT_VERSION = "1.0"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class TranscriptEntry(BaseModel):
    at: str = Field(default_factory=_now)
    role: Literal["person", "investigator", "tool", "note"]
    text: str
    tool: str | None = None
    arguments: dict[str, Any] | None = None
    ok: bool | None = None
    refused: str | None = None


class Transcript(BaseModel):
    format: Literal["torch-investigate-chat"] = "torch-investigate-chat"
    format_version: str = FORMAT_VERSION
    repo: str
    model: str | None = None
    started_at: str = Field(default_factory=_now)
    entries: list[TranscriptEntry] = Field(default_factory=list)
    messages: list[ChatMessage] = Field(default_factory=list)  # the LLM conversation
    usage: LLMUsage | None = None


class TranscriptFile:
    """The transcript and where it is saved."""

    def __init__(self, repo: Path, model: str | None, path: Path | None = None) -> None:
        self.repo = Path(repo)
        self.transcript = Transcript(repo=str(self.repo), model=model)
        self.path = outside_repo(path, repo) if path is not None else self._default(model)

    def _default(self, model: str | None) -> Path:
        target = default_path(self.repo, model or "commands", kind="chats")
        try:
            return outside_repo(target, self.repo)
        except TrajectoryError:  # the cache lies inside the repo
            import tempfile

            return Path(tempfile.gettempdir()) / "torch-investigate" / "chats" / target.name

    def add(self, role: str, text: str, **extra: Any) -> None:
        self.transcript.entries.append(TranscriptEntry(role=role, text=text, **extra))  # type: ignore[arg-type]

    def save(self) -> Path:
        return save(self.transcript, self.path, self.repo)
