"""One tool call from the model: parse it, run it through the engine's `call` (so the
guardrails apply), classify the outcome, and write the result the model will read.

A malformed call (arguments that are not a JSON object, an unknown tool, arguments the
tool's schema rejects) and a guardrail refusal both come back to the model as an
explanation; the policy counts them to end a run that keeps failing.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel

from torch_investigate.agent.core.toolbox import ToolResult
from torch_investigate.agent.llm.messages import ToolCallRecord
from torch_investigate.agent.llm.quoting import DataFence

if TYPE_CHECKING:
    from torch_investigate.agent.core.policy import ToolCaller

Kind = Literal["ok", "failed", "refused", "malformed"]

# Tools whose result text carries repository text (code, comments, program output, or
# check evidence quoting them): it reaches the model fenced as data.
DATA_TOOLS = frozenset(
    {"read_code", "search_code", "run_stage_checks", "run_probe", "show_evidence"}
)


class ToolOutcome(BaseModel):
    call_id: str
    tool: str
    arguments: dict[str, Any] | None  # None: the arguments did not parse
    kind: Kind
    rule: str | None = None  # the guardrail rule of a refusal
    text: str  # what the model reads


def execute(tc: ToolCallRecord, call: ToolCaller, fence: DataFence) -> ToolOutcome:
    try:
        args = json.loads(tc.arguments) if tc.arguments.strip() else {}
    except json.JSONDecodeError as e:
        return _malformed(
            tc, None, f"the arguments are not valid JSON ({e.msg} at character {e.pos}); "
            "send one JSON object that matches the tool's parameters."
        )  # fmt: skip
    if not isinstance(args, dict):
        return _malformed(tc, None, "the arguments must be a JSON object, not a list or a value.")
    result = call(tc.name, args)  # the engine's call: dispatch, guardrails, on_event
    if result.refused:
        text = (
            f"{tc.name}: REFUSED by the guardrail `{result.refused}`; nothing changed.\n"
            f"{result.text}"
        )
        return ToolOutcome(
            call_id=tc.id, tool=tc.name, arguments=args, kind="refused", rule=result.refused,
            text=text,
        )  # fmt: skip
    if result.error is not None and result.error.malformed:
        return _malformed(tc, args, result.text)
    kind: Kind = "ok" if result.ok else "failed"
    return ToolOutcome(
        call_id=tc.id, tool=tc.name, arguments=args, kind=kind, text=_result_text(tc.name, result, fence)
    )  # fmt: skip


def _malformed(tc: ToolCallRecord, args: dict[str, Any] | None, why: str) -> ToolOutcome:
    text = f"{tc.name}: MALFORMED CALL; nothing ran.\n{why}"
    return ToolOutcome(call_id=tc.id, tool=tc.name, arguments=args, kind="malformed", text=text)


def _result_text(name: str, result: ToolResult, fence: DataFence) -> str:
    head = f"{name}: {'ok' if result.ok else 'error'}"
    if name in DATA_TOOLS:
        return f"{head}\n{fence.quote(result.text, f'{name} output')}"
    return f"{head}\n{result.text}"
