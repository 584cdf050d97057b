"""What one LLM investigation of the bundled example sends, in prompt tokens as the
scripted server estimates them (about four characters per token of the messages and the
tool schemas of every request).

    .venv/bin/python tests/fakellm/measure.py [REPO]

prints the walk (the ProtocolWalker drives all eight stages) and a short review (the
planner walks, then four requests: the root cause's evidence, its code, a search, finish).
tests/test_llm_tokens.py pins both under the budgets of the README.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: import the package like the tests do
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    __package__ = "fakellm"

from fakellm.helpers import ROOT, run_policy, run_review
from fakellm.server import Reply, Request, ScriptedLLM, call
from fakellm.walker import ProtocolWalker

EXAMPLE = ROOT / "examples" / "not_learning"
_FINDING = re.compile(
    r"^(F\d+) \[confirmed/\w+\] \S+ at (\S+):\d+ \(([^)]*)\).*\(evidence ([^)]*)\)"
)


@dataclass
class Measured:
    mode: str
    requests: int
    prompt_tokens: int
    largest_request: int  # prompt tokens of the largest single request
    stop_reason: str
    root_cause: str | None

    def line(self) -> str:
        return (
            f"{self.mode}: {self.prompt_tokens} prompt tokens in {self.requests} requests "
            f"(largest {self.largest_request}), stop: {self.stop_reason}, root cause {self.root_cause}"
        )


def short_review() -> list:
    """A review that looks at the planner's root cause once and finishes with it."""
    state: dict[str, str] = {}

    def evidence(request: Request) -> Reply:
        brief = request.messages[1]["content"]
        m = next(filter(None, map(_FINDING.match, brief.splitlines())), None)
        if m is None:
            return Reply(
                tool_calls=[call("finish", root_cause=None, explanation="none stands out")]
            )
        state.update(id=m.group(1), target=f"{m.group(2)}:{m.group(3)}")
        ids = [i.strip() for i in m.group(4).split(",") if i.strip()]
        return Reply(tool_calls=[call("show_evidence", ids=ids[:4])])

    def code(request: Request) -> Reply:
        return Reply(tool_calls=[call("read_code", target=state["target"])])

    def search(request: Request) -> Reply:
        symbol = state["target"].rpartition(":")[2].rpartition(".")[2]
        return Reply(tool_calls=[call("search_code", pattern=symbol or "backward")])

    def finish(request: Request) -> Reply:
        return Reply(tool_calls=[call(
            "finish", root_cause=state.get("id"), explanation="the evidence and code agree"
        )])  # fmt: skip

    return [evidence, code, search, finish]


def _measured(mode: str, report, policy, server: ScriptedLLM) -> Measured:
    return Measured(
        mode=mode,
        requests=len(server.requests),
        prompt_tokens=report.llm.prompt_tokens,
        largest_request=max((p for p, _ in server.usage), default=0),
        stop_reason=policy.stop_reason,
        root_cause=report.root_cause,
    )


def measure_walk(repo: Path = EXAMPLE, steps: int = 60) -> Measured:
    with ScriptedLLM(fallback=ProtocolWalker()) as server:
        report, policy, _ = run_policy(repo, server, steps=steps)
    return _measured("walk", report, policy, server)


def measure_review(repo: Path = EXAMPLE, steps: int = 60) -> Measured:
    with ScriptedLLM(short_review()) as server:
        report, policy, _ = run_review(repo, server, steps=steps)
    return _measured("review", report, policy, server)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else EXAMPLE
    for measured in (measure_review(target), measure_walk(target)):
        print(measured.line())
