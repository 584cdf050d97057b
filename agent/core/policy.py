"""The seams: a Policy drives an investigation by calling tools; the loop is the same
for the built-in planner and the LLM agent.

    session = Session(repo, options)
    investigate(session, Planner())    # or LLMPolicy(...)
    report = session.report()
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from torch_investigate.agent.core.conclude import conclude

if TYPE_CHECKING:
    from torch_investigate.agent.core.session import Session
    from torch_investigate.agent.core.toolbox import ToolResult


class Policy(Protocol):
    name: str

    def run(self, session: Session, call: ToolCaller) -> None:
        """Walk the protocol by calling tools until `finish` succeeds or the policy gives up."""


class ToolCaller(Protocol):
    def __call__(self, name: str, arguments: dict[str, Any] | None = None) -> ToolResult: ...


def investigate(session: Session, policy: Policy, on_event=None, on_start=None) -> None:
    """Run a policy on a session; every tool call goes through the toolbox (and its guardrails).

    `on_event(name, arguments, result)` sees each call once it returned (progress display,
    trajectories); `on_start(name, arguments)` sees it before it runs (progress display).
    Whatever the policy leaves open, `conclude` closes honestly: remaining stages become
    inconclusive and the report gets its root cause, experiments and deferred changes.
    """
    from torch_investigate.agent.core.toolbox import dispatch

    def call(name: str, arguments: dict[str, Any] | None = None) -> ToolResult:
        if on_start is not None:
            on_start(name, arguments or {})
        result = dispatch(session, name, arguments)
        if on_event is not None:
            on_event(name, arguments or {}, result)
        return result

    session.policy_name = policy.name
    policy.run(session, call)
    conclude(session, call)
