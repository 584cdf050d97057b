"""The LLM policy: a model walks the protocol through the same tools as the planner.

The loop: send the bounded conversation, run the tool calls the model makes (each
through the engine's `call`, so the guardrails apply), feed the results back, and open
each new stage with its prompt. It stops when `finish` succeeds, a bound is reached
(steps, tokens, cost), the endpoint keeps failing, or the model makes `max_failures`
refused or malformed calls in a row. Whatever it leaves open, the engine's `conclude`
closes as inconclusive.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

from torch_investigate.agent.core.toolbox import TOOLS
from torch_investigate.agent.llm.briefing import (
    briefing,
    open_stage,
    stage_prompt,
    state,
    system_prompt,
)
from torch_investigate.agent.llm.budget import Budget
from torch_investigate.agent.llm.client import ChatClient
from torch_investigate.agent.llm.errors import LLMConfigError, LLMRequestError, LLMUnavailable
from torch_investigate.agent.llm.execute import execute
from torch_investigate.agent.llm.messages import ChatMessage, Conversation
from torch_investigate.agent.llm.quoting import DataFence
from torch_investigate.agent.llm.settings import LLMSettings
from torch_investigate.prompts import Prompt, load_all
from torch_investigate.tools.records import LLMUsage, Stage

if TYPE_CHECKING:
    from torch_investigate.agent.core.policy import ToolCaller
    from torch_investigate.agent.core.session import Session
    from torch_investigate.agent.core.weak_points import WeakPoint

TOOL_SCHEMAS = [t.schema() for t in TOOLS]


class FailureRecord(BaseModel):
    """A call that counted towards the consecutive-failure limit."""

    step: int  # the model step (1-based) that made it
    tool: str
    kind: Literal["refused", "malformed", "no_tool_call"]
    rule: str | None = None
    message: str


class LLMPolicy:
    def __init__(
        self,
        settings: LLMSettings,
        client: ChatClient | None = None,
        prompts: dict[str, Prompt] | None = None,
    ) -> None:
        self.settings = settings
        self.prompts = prompts if prompts is not None else load_all()  # strict: fails here
        self.client = client or ChatClient(settings)
        self.name = f"llm:{settings.model}"
        self.fence = DataFence()
        self.budget = Budget(settings)
        self.conversation = Conversation(keep=settings.keep_results)
        self.failures: list[FailureRecord] = []
        self.stop_reason = ""
        self.endpoint_error: str | None = None  # set when the endpoint gave up mid-run
        self.streak = 0  # consecutive refused/malformed calls
        self._stage_seen: Stage | None = None  # the stage whose prompt the model has had

    @classmethod
    def from_env(cls, model: str, **overrides: object) -> LLMPolicy:
        return cls(LLMSettings.from_env(model, **overrides))

    @property
    def usage(self) -> LLMUsage:
        return self.budget.usage

    # ---- the loop ----------------------------------------------------------------------

    def run(self, session: Session, call: ToolCaller) -> None:
        conv = self.conversation
        conv.system(system_prompt(
            self.prompts, self.fence, self.settings.max_failures, self.settings.keep_results
        ))  # fmt: skip
        conv.user(briefing(self.prompts, session, self.fence))
        conv.user(open_stage(self.prompts, session), topic="stage")
        self._stage_seen = session.protocol.current
        self.stop_reason = self.usage.stop_reason = self._loop(session, call)
        if self.budget.estimated:
            session.notes.append("LLM token counts are estimated: the endpoint reported no usage")
        if not session.protocol.finished:
            session.notes.append(f"the LLM run ended before finish: {self.stop_reason}")

    def review(
        self, session: Session, call: ToolCaller, summary: str, points: list[WeakPoint]
    ) -> None:
        """Review mode: the stages are closed; the model works on the weak points."""
        from torch_investigate.agent.llm.review import render_points

        conv = self.conversation
        conv.system(system_prompt(
            self.prompts, self.fence, self.settings.max_failures, self.settings.keep_results
        ))  # fmt: skip
        command = " ".join(session.command.argv) if session.command else "none found"
        conv.user(self.prompts["review"].render(
            repo=session.repo.name or str(session.repo),
            command=self.fence.quote(f"python {command}", "training command"),
            summary=self.fence.quote(summary, "the planner's walk"),
            weak_points=render_points(points),
            budget=self.settings.max_steps,
        ))  # fmt: skip
        self._stage_seen = None
        self.stop_reason = self.usage.stop_reason = self._loop(session, call, nudge="review_nudge")
        if self.budget.estimated:
            session.notes.append("LLM token counts are estimated: the endpoint reported no usage")
        if not session.protocol.finished:
            session.notes.append(f"the LLM review ended before finish: {self.stop_reason}")

    def _loop(self, session: Session, call: ToolCaller, nudge: str = "nudge") -> str:
        protocol, conv, limit = session.protocol, self.conversation, self.settings.max_failures
        while True:
            if reason := self.budget.exhausted():
                return reason
            message = self.step(call)
            if message is None:
                return f"the endpoint failed: {self.endpoint_error}"
            if protocol.finished:
                return "finished"
            if self.streak >= limit:
                return f"{self.streak} refused or malformed calls in a row (limit {limit})"
            if nudge == "review_nudge" and protocol.current is not None:
                conv.user(_reopened(session, call))  # stage 8 opened: its checks run
            elif not message.tool_calls:
                conv.user(self.prompts[nudge].render(state=state(session)), topic="nudge")
            elif protocol.current is not None and protocol.current != self._stage_seen:
                conv.user(stage_prompt(self.prompts, session, protocol.current), topic="stage")
            self._stage_seen = protocol.current

    def step(self, call: ToolCaller, text_ends_turn: bool = False) -> ChatMessage | None:
        """One model completion and its tool calls; returns the assistant message, or None
        when the endpoint gave up (after a first successful step; before it, the endpoint
        is unusable as configured and the run stops with exit 2).

        A reply without a tool call counts as a failure in an investigation; in a chat
        (`text_ends_turn`) it is the answer."""
        conv, limit = self.conversation, self.settings.max_failures
        try:
            completion = self.client.complete(conv.for_model(), TOOL_SCHEMAS)
        except (LLMUnavailable, LLMRequestError) as e:
            if self.usage.steps == 0:
                raise LLMConfigError(str(e)) from None
            self.endpoint_error = str(e)
            return None
        self.budget.add(completion)
        message = completion.message
        conv.add(message)
        step = self.usage.steps
        if not message.tool_calls and not text_ends_turn:
            self.streak += 1
            self.failures.append(FailureRecord(
                step=step, tool="", kind="no_tool_call", message=(message.content or "")[:300]
            ))  # fmt: skip
        for tc in message.tool_calls:
            if self.streak >= limit:  # every call still gets a result, as the API requires
                conv.tool(
                    tc.id, tc.name, f"not run: the run ended after {limit} failed calls in a row"
                )
                continue
            outcome = execute(tc, call, self.fence)
            conv.tool(tc.id, tc.name, outcome.text)
            if outcome.kind in ("refused", "malformed"):
                self.streak += 1
                if outcome.kind == "refused":
                    self.usage.refusals += 1
                self.failures.append(FailureRecord(
                    step=step, tool=tc.name, kind=outcome.kind, rule=outcome.rule, message=outcome.text[:500]
                ))  # fmt: skip
            elif outcome.kind == "ok":
                self.streak = 0
        return message


def _reopened(session: Session, call: ToolCaller) -> str:
    """Stages 1-7 became coherent during a review: the planner runs stage 8 and the model
    reads what it found."""
    from torch_investigate.agent.core.planner import Planner

    before = {f.id for f in session.protocol.ledger.all()}
    name, session.policy_name = session.policy_name, "planner"
    try:
        Planner().run(session, call)
    finally:
        session.policy_name = name
    s8 = session.protocol.stages[Stage.OPTIMIZATION]
    new = [f for f in session.protocol.ledger.all() if f.id not in before]
    found = "; ".join(f"{f.id} {f.category} ({f.status})" for f in new) or "no finding"
    return (
        "Stages 1-7 are now coherent, so stage 8 (optimization choices) was opened and its "
        f"checks ran: {s8.verdict} ({s8.reason[:200]}); {found}. Every stage is closed again."
    )
