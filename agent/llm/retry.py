"""When to retry a request, and how long to wait.

Retried: rate limits (429), server errors (5xx), 408/409, timeouts and dropped
connections. Never retried: 401/403 (credentials) and other 4xx (the request itself is
wrong). The wait is the server's Retry-After when it gives one, else exponential backoff
with a little jitter.
"""

from __future__ import annotations

import random
from email.utils import parsedate_to_datetime
from time import time

import openai

RETRY_STATUS = frozenset({408, 409, 429})


def is_auth_error(e: Exception) -> bool:
    return isinstance(e, openai.APIStatusError) and e.status_code in (401, 403)


def is_retryable(e: Exception) -> bool:
    if isinstance(e, openai.APIConnectionError):  # includes APITimeoutError
        return True
    if isinstance(e, openai.APIStatusError):
        return e.status_code in RETRY_STATUS or e.status_code >= 500
    return False


def retry_after(e: Exception) -> float | None:
    """Seconds the server asked us to wait (Retry-After / retry-after-ms), or None."""
    response = getattr(e, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time())
    except (TypeError, ValueError):
        return None


def backoff(attempt: int, base_s: float, cap_s: float, jitter: float | None = None) -> float:
    """base * 2**attempt, capped, plus up to 25% jitter (attempt 0 is the first retry)."""
    j = random.random() if jitter is None else jitter
    return min(cap_s, base_s * 2**attempt) * (1 + 0.25 * j)


def describe(e: Exception) -> str:
    if isinstance(e, openai.APITimeoutError):
        return "timeout"
    if isinstance(e, openai.APIConnectionError):
        return "connection error"
    if isinstance(e, openai.APIStatusError):
        return f"HTTP {e.status_code}"
    return type(e).__name__
