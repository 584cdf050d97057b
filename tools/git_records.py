"""What git says about the repo: its state and recent commits touching the training path
(gitfacts), and a commit's message and diff stat (commits, bisect)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Commit(BaseModel):
    sha: str
    date: str
    author: str
    summary: str
    files: list[str] = Field(default_factory=list)


class GitFacts(BaseModel):
    is_repo: bool
    head: str | None = None
    branch: str | None = None
    dirty: list[str] = Field(default_factory=list)
    recent_commits: list[Commit] = Field(default_factory=list)  # touching the training path


class FileChange(BaseModel):
    path: str
    insertions: int = 0
    deletions: int = 0


class CommitDetail(BaseModel):
    sha: str
    subject: str
    message: str
    author: str = ""
    date: str = ""
    files: list[FileChange] = Field(default_factory=list)  # the diff stat vs the first parent
    insertions: int = 0
    deletions: int = 0
