"""The one seam to the model: a chat-completions call through the `openai` package,
with bounded retries. Tests point it at a scripted local server; nothing else in the
project talks to the network.

Prompt tokens count everything a request sends, the tool schemas included: the
endpoint's own count, but never less than an estimate of the request (four characters
a token of the messages, the calls and the schemas as compact JSON), so an endpoint
that leaves the schemas out of its usage (a file bridge, some local servers) is still
counted for them; without usage from the endpoint the estimate is the count.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable
from typing import Any

import openai
from pydantic import BaseModel

from torch_investigate.agent.llm import retry
from torch_investigate.agent.llm.errors import (
    LLMConfigError,
    LLMRequestError,
    LLMUnavailable,
    one_line,
    redact,
)
from torch_investigate.agent.llm.messages import ChatMessage, ToolCallRecord
from torch_investigate.agent.llm.settings import LLMSettings

_CALL_IDS = itertools.count(1)


CHARS_PER_TOKEN = 4


def schema_tokens(tools: list[dict[str, Any]]) -> int:
    """About how many prompt tokens the tool schemas take in every request."""
    return len(json.dumps(tools, separators=(",", ":"))) // CHARS_PER_TOKEN if tools else 0


def estimate_prompt_tokens(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> int:
    """About what a tokenizer counts for a request: its messages (text and tool calls)
    and its tool schemas, four characters a token."""
    chars = 0
    for m in messages:
        chars += len(str(m.get("content") or ""))
        for c in m.get("tool_calls") or []:
            fn = c.get("function") or {}
            chars += len(fn.get("name") or "") + len(fn.get("arguments") or "")
    return chars // CHARS_PER_TOKEN + schema_tokens(tools)


class Completion(BaseModel):
    message: ChatMessage  # role "assistant"
    prompt_tokens: int = 0  # the tool schemas included
    completion_tokens: int = 0
    usage_reported: bool = True  # False: the endpoint sent no usage; tokens are estimated
    finish_reason: str | None = None
    schema_tokens: int = 0  # about this many of the prompt tokens are the tool schemas


class RetryRecord(BaseModel):
    attempt: int  # 1 = the first retry
    reason: str  # "HTTP 429", "timeout", ...
    wait_s: float


class ChatClient:
    def __init__(
        self,
        settings: LLMSettings,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.settings = settings
        self.sleep = sleep
        self.retries: list[RetryRecord] = []
        # The package's own retries are off: this class owns retrying, so it can honour
        # Retry-After, refuse to retry 401/403 and record every wait.
        self._openai = openai.OpenAI(
            api_key=settings.api_key.get_secret_value(),
            base_url=settings.base_url,
            max_retries=0,
            timeout=settings.timeout_s,
        )

    def complete(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], tool_choice: str = "auto"
    ) -> Completion:
        s = self.settings
        params: dict[str, Any] = {"model": s.model, "messages": messages}
        if tools:
            params.update(tools=tools, tool_choice=tool_choice)
        if s.temperature is not None:
            params["temperature"] = s.temperature
        attempt = 0
        while True:
            try:
                response = self._openai.chat.completions.create(**params)
                return self._completion(response, messages, tools)
            except openai.OpenAIError as e:
                if retry.is_auth_error(e):
                    raise LLMConfigError(
                        f"{s.endpoint} refused the credentials ({retry.describe(e)}): "
                        f"{self._message(e)}; check OPENAI_API_KEY"
                    ) from None
                if not retry.is_retryable(e):
                    raise LLMRequestError(
                        f"{s.endpoint} rejected the request ({retry.describe(e)}): {self._message(e)}"
                    ) from None
                if attempt >= s.max_retries:
                    raise LLMUnavailable(
                        f"{s.endpoint} failed after {s.max_retries} retries: "
                        f"{retry.describe(e)}: {self._message(e)}"
                    ) from None
                asked = retry.retry_after(e)
                if asked is not None and asked > s.max_wait_s:
                    raise LLMUnavailable(
                        f"{s.endpoint} asked to wait {asked:.0f} s (more than {s.max_wait_s:.0f} s): "
                        f"{retry.describe(e)}"
                    ) from None
                wait = (
                    asked
                    if asked is not None
                    else retry.backoff(attempt, s.backoff_s, s.max_backoff_s)
                )
                attempt += 1
                self.retries.append(
                    RetryRecord(attempt=attempt, reason=retry.describe(e), wait_s=round(wait, 3))
                )
                self.sleep(wait)

    def _message(self, e: Exception) -> str:
        text = getattr(e, "message", None) or str(e)
        return one_line(redact(text, self.settings.api_key.get_secret_value()))

    @staticmethod
    def _completion(
        response: Any, messages: list[dict[str, Any]], tools: list[dict[str, Any]] = ()
    ) -> Completion:
        choices = getattr(response, "choices", None) or []
        if not choices:
            raise LLMRequestError("the endpoint answered without a choice")
        choice = choices[0]
        msg = choice.message
        calls = []
        for i, c in enumerate(msg.tool_calls or []):
            fn = getattr(c, "function", None)
            calls.append(
                ToolCallRecord(
                    id=c.id or f"call_{next(_CALL_IDS)}_{i}",  # some local servers send none
                    name=(fn.name if fn else getattr(c, "type", "")) or "",
                    arguments=(fn.arguments if fn else "") or "",
                )
            )
        message = ChatMessage(role="assistant", content=msg.content, tool_calls=calls)
        estimate = estimate_prompt_tokens(messages, list(tools))
        schemas = schema_tokens(list(tools))
        usage = getattr(response, "usage", None)
        if usage is not None and usage.prompt_tokens is not None:
            return Completion(
                message=message,
                prompt_tokens=max(usage.prompt_tokens or 0, estimate),
                completion_tokens=usage.completion_tokens or 0,
                finish_reason=choice.finish_reason,
                schema_tokens=schemas,
            )
        # No usage from the endpoint: about four characters per token, so bounds still hold.
        got = len(msg.content or "") + sum(len(c.arguments) for c in calls)
        return Completion(
            message=message,
            prompt_tokens=estimate,
            completion_tokens=got // CHARS_PER_TOKEN + 1,
            usage_reported=False,
            finish_reason=choice.finish_reason,
            schema_tokens=schemas,
        )
