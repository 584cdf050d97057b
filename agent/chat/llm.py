"""The model's side of a chat: each question becomes a turn in which the model may call
tools (through the same `call`, so the guardrails apply) and ends with a text answer.

A turn is bounded by `MAX_ROUNDS` model requests and by the run's budget; a streak of
refused or malformed calls ends the turn, not the session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from torch_investigate.agent.llm.briefing import briefing, open_stage, state, system_prompt

if TYPE_CHECKING:
    from torch_investigate.agent.core.policy import ToolCaller
    from torch_investigate.agent.core.session import Session
    from torch_investigate.agent.llm.policy import LLMPolicy

MAX_ROUNDS = 12  # model requests per question


class ChatAgent:
    def __init__(self, policy: LLMPolicy, session: Session) -> None:
        self.policy = policy
        self.session = session
        prompts, conv = policy.prompts, policy.conversation
        system = system_prompt(
            prompts, policy.fence, policy.settings.max_failures, policy.settings.keep_results
        )
        conv.system(system + "\n" + prompts["chat"].render())
        conv.user(briefing(prompts, session, policy.fence))
        conv.user(open_stage(prompts, session), topic="stage")

    def ask(self, question: str, call: ToolCaller) -> str:
        policy = self.policy
        policy.conversation.user(
            policy.prompts["chat_turn"].render(state=state(self.session), question=question)
        )
        policy.streak = 0  # a new question starts a new count
        for _ in range(MAX_ROUNDS):
            if reason := policy.budget.exhausted():
                return f"(the model cannot answer: {reason})"
            message = policy.step(call, text_ends_turn=True)
            if message is None:
                return f"(the model cannot answer: the endpoint failed: {policy.endpoint_error})"
            if not message.tool_calls:
                return message.content or "(the model gave an empty answer)"
            if policy.streak >= policy.settings.max_failures:
                return (
                    f"(the model made {policy.streak} refused or malformed calls in a row; "
                    "ask again, or use the commands)"
                )
        return f"(the model used its {MAX_ROUNDS} requests for this question without answering)"
