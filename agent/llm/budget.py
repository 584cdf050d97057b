"""The bounds of one run: model steps, tokens and, when the price is known, dollars.

The usage record is the report's `llm` field; `exhausted()` says why the run must stop
before the next request (None while it may go on).
"""

from __future__ import annotations

from torch_investigate.agent.llm.client import Completion
from torch_investigate.agent.llm.prices import cost_usd
from torch_investigate.agent.llm.settings import LLMSettings
from torch_investigate.tools.records import LLMUsage


class Budget:
    def __init__(self, settings: LLMSettings) -> None:
        self.settings = settings
        self.usage = LLMUsage(model=settings.model, cost_usd=0.0 if settings.price else None)
        self.estimated = False  # some token counts were estimated (no usage from the endpoint)

    def add(self, completion: Completion) -> None:
        u = self.usage
        u.steps += 1
        u.prompt_tokens += completion.prompt_tokens
        u.completion_tokens += completion.completion_tokens
        u.schema_tokens = max(u.schema_tokens, completion.schema_tokens)
        u.cost_usd = cost_usd(self.settings.price, u.prompt_tokens, u.completion_tokens)
        self.estimated = self.estimated or not completion.usage_reported

    def exhausted(self) -> str | None:
        s, u = self.settings, self.usage
        if u.steps >= s.max_steps:
            return f"step limit reached ({u.steps} model steps, --max-steps {s.max_steps})"
        tokens = u.prompt_tokens + u.completion_tokens
        if tokens >= s.max_tokens:
            return f"token limit reached ({tokens} tokens, --max-tokens {s.max_tokens})"
        if u.cost_usd is not None and s.max_cost_usd is not None and u.cost_usd >= s.max_cost_usd:
            return f"cost limit reached (${u.cost_usd:.4f}, --max-cost {s.max_cost_usd})"
        return None
