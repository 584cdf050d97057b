"""What a person watching an LLM run sees on stderr besides the stage progress: every
refused or malformed call, as it happens (only on a terminal, never with --quiet)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from torch_investigate.agent.toolbox import ToolResult


def llm_progress(quiet: bool):
    if quiet or not sys.stderr.isatty():
        return None
    from rich.console import Console

    console = Console(stderr=True, highlight=False)

    def on_event(name: str, arguments: dict[str, Any], result: ToolResult) -> None:
        if result.refused:
            console.print(
                f"  [llm] {name} refused ({result.refused})", style="yellow", markup=False
            )
        elif not result.ok:
            first = result.text.splitlines()[0][:70] if result.text else "error"
            console.print(f"  [llm] {name}: {first}", style="dim", markup=False, soft_wrap=True)

    return on_event
