"""What a person watching an LLM run sees besides the stages and runs: every refused or
malformed call, as it happens. The CLI's progress display (agent/cli/progress.py)
prints these lines in its one stream on stderr."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from torch_investigate.agent.core.toolbox import ToolResult


def llm_line(name: str, result: ToolResult) -> tuple[str, str] | None:
    """(text, rich style) of a call worth a line, None for a call that went through."""
    if result.refused:
        return f"[llm] {name} refused ({result.refused})", "yellow"
    if not result.ok:
        first = result.text.strip().splitlines()[0] if result.text.strip() else "error"
        return f"[llm] {name}: {first}", "dim"
    return None
