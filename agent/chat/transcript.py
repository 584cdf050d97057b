"""A chat session's transcript: what the person typed, what the investigator (the model)
answered, what each command printed, every tool call, and (with a model) the LLM
conversation and usage.

It is saved after every exchange, atomically, under
`$XDG_CACHE_HOME/torch-investigate/chats/` (or `--transcript FILE`), never in the repo,
as JSON and as readable Markdown beside it (`.md`); so Ctrl-C or a crash loses at most
the exchange in progress. A command's output is labelled as the tool's output, never as
the investigator's words.
"""

from __future__ import annotations

import os
import re
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from torch_investigate.agent.chat.view import brief_args
from torch_investigate.agent.llm.messages import ChatMessage
from torch_investigate.agent.llm.trajectory import TrajectoryError, default_path, outside_repo, save
from torch_investigate.tools.records import LLMUsage

# 1.1: the `output` role (a command's output, with `command`) and the Markdown copy
FORMAT_VERSION = "1.1"

Role = Literal["person", "investigator", "output", "tool", "note"]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class TranscriptEntry(BaseModel):
    at: str = Field(default_factory=_now)
    role: Role  # investigator: the model's answer; output: a command's output
    text: str
    command: str | None = None  # output: the command that printed it (`/stage`)
    summary: str | None = None  # tool: the call and its short result, as the chat showed it
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
    """The transcript and where it is saved (`path`, and `markdown_path` beside it)."""

    def __init__(self, repo: Path, model: str | None, path: Path | None = None) -> None:
        self.repo = Path(repo)
        self.transcript = Transcript(repo=str(self.repo), model=model)
        if path is not None and Path(path).suffix == ".md":  # the Markdown is named: JSON beside
            path = Path(path).with_suffix(".json")
        self.path = outside_repo(path, repo) if path is not None else self._default(model)

    @property
    def markdown_path(self) -> Path:
        return self.path.with_suffix(".md")

    def _default(self, model: str | None) -> Path:
        target = default_path(self.repo, model or "commands", kind="chats")
        try:
            return outside_repo(target, self.repo)
        except TrajectoryError:  # the cache lies inside the repo
            return Path(tempfile.gettempdir()) / "torch-investigate" / "chats" / target.name

    def add(self, role: Role, text: str, **extra: Any) -> None:
        self.transcript.entries.append(TranscriptEntry(role=role, text=text, **extra))

    def save(self) -> Path:
        """Write the JSON and the Markdown; returns the Markdown's path."""
        save(self.transcript, self.path, self.repo)
        target = outside_repo(self.markdown_path, self.repo)
        try:
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".md", dir=target.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(markdown(self.transcript, self.path.name))
            os.replace(tmp, target)
        except OSError as e:
            raise TrajectoryError(f"cannot write {target}: {e.strerror or e}") from None
        return target


# ---- Markdown ------------------------------------------------------------------------------


def markdown(t: Transcript, json_name: str = "") -> str:
    """The transcript for people: who said what, each command's output labelled as the
    tool's output, each tool call as one line."""
    who = f"model {t.model}" if t.model else "commands only (no model)"
    lines = [
        f"# Chat on {t.repo}",
        "",
        f"Started {t.started_at}, {who}."
        + (f" The complete record (the model's conversation too) is {json_name}." if json_name else ""),
        "",
    ]  # fmt: skip
    for i, e in enumerate(t.entries):
        lines.extend(_entry(e, t.model))
        following = t.entries[i + 1] if i + 1 < len(t.entries) else None
        if not (e.role == "tool" and following is not None and following.role == "tool"):
            lines.append("")  # tool calls in a row make one list
    if t.usage is not None:
        u = t.usage
        cost = f", ${u.cost_usd:.4f}" if u.cost_usd is not None else ""
        lines += ["---", "", f"Model usage: {u.steps} requests, {u.prompt_tokens} prompt + "
                  f"{u.completion_tokens} completion tokens{cost}.", ""]  # fmt: skip
    return "\n".join(lines)


def _entry(e: TranscriptEntry, model: str | None) -> list[str]:
    if e.role == "person":
        return [f"**You:** {_inline(e.text)}"]
    if e.role == "investigator":
        return [f"**Investigator ({model or 'model'}):**", "", e.text]
    if e.role == "output":
        head = f"**Output of `{e.command}`** (the tool's output, not the investigator's words):"
        return [head, "", *_fenced(e.text)]
    if e.role == "tool":
        call = f"{e.tool}({brief_args(e.arguments or {})})"
        return [f"- tool: {_inline(e.summary or call)}"]
    return [f"*{_inline(e.text)}*"]


def _fenced(text: str) -> list[str]:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}text", text, fence]


def _inline(text: str) -> str:
    return " ".join(text.split())
