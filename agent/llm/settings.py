"""The LLM policy's configuration: the endpoint and the bounds of one run.

`LLMSettings.from_env(model, ...)` reads `OPENAI_API_KEY` and `OPENAI_BASE_URL` (any
OpenAI-compatible endpoint: OpenAI, vLLM, Ollama, llama.cpp). The key is a SecretStr
and is excluded from every dump, so it never reaches a trajectory or a log.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, Field, SecretStr

from torch_investigate.agent.llm.errors import LLMConfigError
from torch_investigate.agent.llm.prices import price_for

# What a local server gets as a key when none is set (they ignore it; the client needs one).
LOCAL_KEY = "not-needed"


class LLMSettings(BaseModel):
    model: str = Field(min_length=1)
    base_url: str | None = None  # None: the openai package's default (api.openai.com)
    api_key: SecretStr = Field(default=SecretStr(LOCAL_KEY), exclude=True, repr=False)

    # bounds of one run (a chat session counts as one run)
    max_steps: int = Field(default=80, ge=1, description="model completions")
    max_tokens: int = Field(default=1_000_000, ge=1, description="prompt + completion tokens")
    max_cost_usd: float | None = Field(default=2.0, ge=0, description="only with a known price")
    price_per_1k: tuple[float, float] | None = None  # (input, output) USD; overrides the table
    max_failures: int = Field(default=4, ge=1, description="consecutive refused/malformed calls")

    # the transport
    timeout_s: float = Field(default=120.0, gt=0)
    max_retries: int = Field(default=4, ge=0)
    backoff_s: float = Field(default=1.0, ge=0)  # first retry delay; doubles each retry
    max_backoff_s: float = Field(default=30.0, ge=0)
    max_wait_s: float = Field(default=120.0, ge=0)  # a longer Retry-After ends the run

    keep_results: int = Field(default=12, ge=1)  # tool results the model sees in full
    temperature: float | None = None

    @property
    def price(self) -> tuple[float, float] | None:
        return self.price_per_1k or price_for(self.model)

    @property
    def endpoint(self) -> str:
        """The base URL without credentials, for trajectories and messages."""
        if not self.base_url:
            return "https://api.openai.com/v1"
        parts = urlsplit(self.base_url)
        host = parts.hostname or ""
        netloc = f"{host}:{parts.port}" if parts.port else host
        return urlunsplit((parts.scheme, netloc, parts.path, "", ""))

    @classmethod
    def from_env(cls, model: str, base_url: str | None = None, **bounds: object) -> LLMSettings:
        base_url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        key = os.environ.get("OPENAI_API_KEY") or None
        if key is None and base_url is None:
            raise LLMConfigError(
                "OPENAI_API_KEY is not set (for a local endpoint such as vLLM, Ollama or "
                "llama.cpp, set OPENAI_BASE_URL or --base-url instead)"
            )
        if not model.strip():
            raise LLMConfigError("--model needs a model name")
        given = {k: v for k, v in bounds.items() if v is not None}
        return cls(
            model=model.strip(),
            base_url=base_url,
            api_key=SecretStr(key or LOCAL_KEY),
            **given,
        )
