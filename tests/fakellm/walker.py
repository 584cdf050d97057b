"""A scripted agent that walks the protocol the way the built-in planner does, reading
only what the LLM policy sends it (the tool results in the conversation).

Per stage: run_stage_checks, record every candidate finding (a refused `confirmed`
becomes `plausible`, as the planner does), close the stage with the verdict the evidence
supports, and at the end finish with the earliest-stage confirmed finding.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from fakellm.server import Reply, Request, ToolCallSpec, call

_ITEM = re.compile(r"^- (\w+): (passed|failed|skipped|not_applicable|pending)\b", re.MULTILINE)
_CANDIDATE = re.compile(r"^- (C\d+) \[(\w+)/", re.MULTILINE)
_RECORDED = re.compile(r"recorded (F\d+): \S+ \((\w+)\)")


@dataclass
class ProtocolWalker:
    stage: int = 1
    phase: str = "checks"
    items: dict[str, str] = field(default_factory=dict)
    sent: list[dict[str, Any]] = field(default_factory=list)  # record_finding args in flight
    recorded: list[tuple[str, str, int]] = field(default_factory=list)  # (id, status, stage)

    def __call__(self, request: Request) -> Reply:
        results = [m["content"] for m in request.tool_results()]
        if self.phase == "checks":
            return self._reply(call("run_stage_checks", stage=self.stage), "record")
        if self.phase == "record":
            checks = next((r for r in results if r.startswith("run_stage_checks")), "")
            self.items = dict(_ITEM.findall(checks))
            candidates = [
                {"candidate": cid, "status": status} for cid, status in _CANDIDATE.findall(checks)
            ]
            return self._record(candidates)
        if self.phase == "recorded":
            retry = []
            for args, text in zip(self.sent, results, strict=False):
                m = _RECORDED.search(text)
                if m:
                    self.recorded.append((m.group(1), m.group(2), self.stage))
                elif "REFUSED" in text and args["status"] == "confirmed":
                    retry.append({**args, "status": "plausible"})
            if retry:
                return self._record(retry)
            return self._advance()
        if self.phase == "advanced":
            text = results[-1] if results else ""
            m = re.search(r"now at stage (\d)", text)
            if m:
                self.stage = int(m.group(1))
                return self._reply(call("run_stage_checks", stage=self.stage), "record")
            if "every stage is closed" in text:
                root = min(
                    (r for r in self.recorded if r[1] == "confirmed"),
                    key=lambda r: r[2],
                    default=None,
                )
                return self._reply(
                    call("finish", root_cause=root[0] if root else None, explanation="walked"),
                    "finished",
                )
            return self._reply(
                call(
                    "advance_stage",
                    stage=self.stage,
                    verdict="inconclusive",
                    reason="the walker could not close it",
                ),
                "advanced",
            )
        return Reply(content="The investigation is finished.")

    def _reply(self, spec: ToolCallSpec | list[ToolCallSpec], phase: str) -> Reply:
        self.phase = phase
        return Reply(tool_calls=spec if isinstance(spec, list) else [spec])

    def _record(self, findings: list[dict[str, Any]]) -> Reply:
        if not findings:
            return self._advance()
        self.sent = findings
        return self._reply([call("record_finding", **f) for f in findings], "recorded")

    def _advance(self) -> Reply:
        confirmed = [r for r in self.recorded if r[1] == "confirmed" and r[2] == self.stage]
        if confirmed:
            verdict, reason = "defect", "confirmed: " + ", ".join(r[0] for r in confirmed)
        elif self.items and all(o in ("passed", "not_applicable") for o in self.items.values()):
            verdict, reason = "coherent", "all checks passed"
        else:
            open_items = [k for k, o in self.items.items() if o not in ("passed", "not_applicable")]
            verdict, reason = "inconclusive", "open: " + ", ".join(open_items or ["no checks"])
        return self._reply(
            call("advance_stage", stage=self.stage, verdict=verdict, reason=reason), "advanced"
        )
