"""What the model is told: the system prompt, the opening brief, each stage's prompt
and a one-paragraph state of the session, rendered from the files in `prompts/`.

Repo-derived values (file names, the training command found in a README) are quoted
as data like every other piece of repo text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.core.toolbox import TOOLS
from torch_investigate.agent.llm.quoting import DataFence
from torch_investigate.prompts import STAGE_FILES, Prompt
from torch_investigate.tools.records import Stage
from torch_investigate.tools.taxonomy import taxonomy

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session

MAX_FILES = 60


def system_prompt(
    prompts: dict[str, Prompt], fence: DataFence, max_failures: int, keep: int = 12
) -> str:
    tools = ", ".join(t.name for t in TOOLS)  # their descriptions travel in the schemas
    return prompts["system"].render(
        tools=tools, max_failures=max_failures, data_open=fence.open, data_close=fence.close,
        keep=keep,
    )  # fmt: skip


def stage_prompt(prompts: dict[str, Prompt], session: Session, stage: Stage) -> str:
    result = session.protocol.stages[stage]
    checklist = "\n".join(
        f"- {i.id} ({'runtime' if i.dynamic else 'static'}): {i.description}"
        + ("" if i.outcome == "pending" else f" [{i.outcome}]")
        for i in result.checklist
    )
    ids = [c.id for c in taxonomy().by_stage(int(stage))] + ["other (with a title)"]
    return prompts[STAGE_FILES[stage]].render(
        stage=int(stage), title=stage.title, checklist=checklist, categories=", ".join(ids)
    )


def briefing(prompts: dict[str, Prompt], session: Session, fence: DataFence) -> str:
    files = sorted(session.index.files)
    listed = "\n".join(files[:MAX_FILES])
    if len(files) > MAX_FILES:
        listed += f"\n[... {len(files) - MAX_FILES} more files]"
    if session.command is not None:
        command = fence.quote(
            f"python {' '.join(session.command.argv)}  (from {session.command.source})",
            "training command",
        )
    else:
        command = f"none found: {session.command_note}"
    if session.runner is None:
        command += "\nThe training path cannot run here, so runtime checks will be skipped."
    return prompts["briefing"].render(
        repo=session.repo.name or str(session.repo),
        command=command,
        files=fence.quote(listed, "file list"),
    )


def open_stage(prompts: dict[str, Prompt], session: Session) -> str:
    """The open stage's prompt (sent as its own message: it is elided once the stage
    closes and the next one's prompt follows)."""
    current = session.protocol.current
    return stage_prompt(prompts, session, current) if current else "Every stage is closed."


def state(session: Session) -> str:
    """The protocol's state in a few lines (for nudges and chat turns)."""
    p = session.protocol
    if p.finished:
        head = "The investigation is finished."
    elif p.current is None:
        head = "Every stage is closed; finish has not been called."
    else:
        head = f"Current stage: {int(p.current)} ({p.current.title}), open."
    closed = [f"{int(s)} {r.verdict}" for s, r in p.stages.items() if r.verdict is not None]
    lines = [head, "Closed stages: " + (", ".join(closed) if closed else "none")]
    findings = p.ledger.all()
    if findings:
        lines.append("Findings:")
        for f in findings:
            where = f"{f.file}:{f.line}" if f.file else "no location"
            lines.append(
                f"- {f.id} {f.category} ({f.status}, {f.confidence}, stage {int(f.stage)}) at {where}"
            )
    else:
        lines.append("Findings: none yet")
    return "\n".join(lines)
