"""The command line's LLM options, shared by `investigate PATH --model` and `chat`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from torch_investigate.agent.llm.errors import LLMConfigError
from torch_investigate.agent.llm.policy import LLMPolicy
from torch_investigate.agent.llm.prices import parse_price


class LLMOptions(BaseModel):
    model: str
    base_url: str | None = None
    max_steps: int | None = None
    max_tokens: int | None = None
    max_cost: float | None = None
    price_per_1k: str | None = None  # "IN,OUT" USD per 1k tokens
    max_failures: int | None = None
    llm_timeout: float | None = None
    mode: Literal["review", "walk"] = "review"

    # A review works on a few weak points of a finished walk; it needs fewer requests.
    REVIEW_STEPS: int = 30

    def investigator(self):
        """The policy of `investigate --model`: a review of the planner's walk, or a full walk."""
        llm = self.policy()
        if self.mode == "walk":
            return llm
        from torch_investigate.agent.llm.review import ReviewPolicy

        return ReviewPolicy(llm)

    def policy(self) -> LLMPolicy:
        """The policy these options describe; LLMConfigError (exit 2) on a bad value."""
        try:
            price = parse_price(self.price_per_1k) if self.price_per_1k else None
        except ValueError as e:
            raise LLMConfigError(str(e)) from None
        for flag, value in (
            ("--max-steps", self.max_steps),
            ("--max-tokens", self.max_tokens),
            ("--max-failures", self.max_failures),
        ):
            if value is not None and value < 1:
                raise LLMConfigError(f"{flag} must be at least 1")
        for flag, value in (("--max-cost", self.max_cost), ("--llm-timeout", self.llm_timeout)):
            if value is not None and value <= 0:
                raise LLMConfigError(f"{flag} must be positive")
        steps = self.max_steps
        if steps is None and self.mode == "review":
            steps = self.REVIEW_STEPS
        return LLMPolicy.from_env(
            self.model,
            base_url=self.base_url,
            max_steps=steps,
            max_tokens=self.max_tokens,
            max_cost_usd=self.max_cost,
            price_per_1k=price,
            max_failures=self.max_failures,
            timeout_s=self.llm_timeout,
        )
