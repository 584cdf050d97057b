"""How an LLM run fails: one clear line for the user, never the API key."""

from __future__ import annotations

import re

from torch_investigate.agent.core.session import InvestigationError

# What an API key looks like in provider error messages ("Incorrect API key provided:
# sk-abc***xyz"); redacted even when partly masked.
_KEYLIKE = re.compile(r"\b(sk|key|token)-[A-Za-z0-9_\-*.]{6,}", re.IGNORECASE)


class LLMConfigError(InvestigationError):
    """The endpoint cannot be used as configured (credentials, model name, URL): exit 2."""

    def __init__(self, message: str) -> None:
        super().__init__(message, exit_code=2)


class LLMRequestError(Exception):
    """The endpoint rejected a request for a reason retrying cannot fix (4xx)."""


class LLMUnavailable(Exception):
    """The endpoint kept failing (429, 5xx, timeouts) after every retry."""


def redact(text: str, secret: str | None = None) -> str:
    if secret:
        text = text.replace(secret, "[redacted]")
    return _KEYLIKE.sub("[redacted]", text)


def one_line(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."
