"""A local OpenAI-compatible chat-completions server that answers from a script.

Each request to `/v1/chat/completions` takes the next step of the script:

    Reply(tool_calls=[call("run_stage_checks", stage=1)])   a completion with tool calls
    Reply(content="text")                                   a text answer
    HTTPError(429, headers={"Retry-After": "0"})            an error response
    Delay(2.0, then=Reply(...))                             answer late (client timeouts)
    lambda request: Reply(...)                              decide from the request

The server records every request (body and headers). When the script runs out it
answers from `fallback` if given (a scripted agent such as `ProtocolWalker`), else with
text, counting an overrun, so a test can assert the script was exact.

Usage: unless a reply or the server says otherwise (`prompt_tokens=1000`), the reported
token counts are an estimate of what was sent, about four characters per token of the
request's messages and tool schemas (`estimate_tokens`), so a test can measure and bound
what an investigation costs.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class ToolCallSpec:
    name: str
    arguments: str  # raw JSON text (may be deliberately malformed)


def call(name: str, raw: str | None = None, **arguments: Any) -> ToolCallSpec:
    """A tool call; `raw` sends the arguments text as is (for malformed JSON)."""
    return ToolCallSpec(name, raw if raw is not None else json.dumps(arguments))


@dataclass
class Reply:
    content: str | None = None
    tool_calls: list[ToolCallSpec] = field(default_factory=list)
    prompt_tokens: int | None = None  # None: the server's setting (default: an estimate)
    completion_tokens: int | None = None
    usage: bool = True


@dataclass
class HTTPError:
    status: int
    message: str = "scripted error"
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Delay:
    seconds: float
    then: Any  # a step


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def messages(self) -> list[dict[str, Any]]:
        return self.body.get("messages", [])

    def tool_results(self) -> list[dict[str, Any]]:
        """The tool messages after the last assistant message (this turn's results)."""
        out: list[dict[str, Any]] = []
        for m in reversed(self.messages):
            if m["role"] == "tool":
                out.append(m)
            elif m["role"] == "assistant":
                break
        return list(reversed(out))

    def last_text(self, role: str) -> str:
        for m in reversed(self.messages):
            if m["role"] == role:
                return m.get("content") or ""
        return ""


Step = Reply | HTTPError | Delay | Callable[[Request], Any]
CHARS_PER_TOKEN = 4


def estimate_tokens(body: dict[str, Any]) -> int:
    """About what a tokenizer would count for this request: its messages (text and tool
    calls) and its tool schemas (as compact JSON), four characters to a token."""
    chars = len(json.dumps(body.get("tools") or [], separators=(",", ":")))
    for m in body.get("messages", []):
        chars += len(m.get("content") or "")
        for c in m.get("tool_calls") or []:
            chars += len(c["function"]["name"]) + len(c["function"].get("arguments") or "")
    return chars // CHARS_PER_TOKEN + 1


def _reply_tokens(reply: Reply) -> int:
    chars = len(reply.content or "") + sum(len(c.name) + len(c.arguments) for c in reply.tool_calls)
    return chars // CHARS_PER_TOKEN + 1


class ScriptedLLM:
    def __init__(
        self,
        script: Iterable[Step] = (),
        fallback: Step | None = None,
        prompt_tokens: int | None = None,
        completion_tokens: int | None = None,
    ) -> None:
        self.script: list[Step] = list(script)
        self.fallback = fallback  # answers once the script is used up (e.g. a walker)
        # fixed usage per request; None: the estimate
        self.prompt_tokens, self.completion_tokens = prompt_tokens, completion_tokens
        self.usage: list[tuple[int, int]] = []  # (prompt, completion) reported per completion
        self.requests: list[Request] = []
        self.overruns = 0
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def add(self, *steps: Step) -> None:
        with self._lock:
            self.script.extend(steps)

    def __enter__(self) -> ScriptedLLM:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    # ---- answering -----------------------------------------------------------------

    def _next(self, request: Request) -> Any:
        with self._lock:
            self.requests.append(request)
            if self.script:
                step = self.script.pop(0)
            elif self.fallback is not None:
                step = self.fallback
            else:
                self.overruns += 1
                return Reply(content="(script exhausted)")
        while callable(step) and not isinstance(step, Reply | HTTPError | Delay):
            step = step(request)
        return step

    @property
    def prompt_tokens_sent(self) -> int:
        """The prompt tokens reported over every completion so far."""
        return sum(p for p, _ in self.usage)

    def _completion(self, reply: Reply, body: dict[str, Any]) -> dict[str, Any]:
        n, model = next(self._ids), body.get("model", "")
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if reply.tool_calls:
            message["tool_calls"] = [
                {"id": f"call_{n}_{i}", "type": "function",
                 "function": {"name": c.name, "arguments": c.arguments}}
                for i, c in enumerate(reply.tool_calls)
            ]  # fmt: skip
        out: dict[str, Any] = {
            "id": f"chatcmpl-{n}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [{
                "index": 0, "message": message,
                "finish_reason": "tool_calls" if reply.tool_calls else "stop",
            }],
        }  # fmt: skip
        if reply.usage:
            prompt = _first(reply.prompt_tokens, self.prompt_tokens, estimate_tokens(body))
            done = _first(reply.completion_tokens, self.completion_tokens, _reply_tokens(reply))
            with self._lock:
                self.usage.append((prompt, done))
            out["usage"] = {
                "prompt_tokens": prompt,
                "completion_tokens": done,
                "total_tokens": prompt + done,
            }
        return out

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                if not re.search(r"/chat/completions$", self.path):
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                body = json.loads(raw or b"{}")
                request = Request(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                step = owner._next(request)
                while isinstance(step, Delay):
                    time.sleep(step.seconds)
                    step = step.then
                if isinstance(step, HTTPError):
                    err = {
                        "error": {"message": step.message, "type": "scripted", "code": step.status}
                    }
                    self._send(step.status, err, step.headers)
                else:
                    self._send(200, owner._completion(step, body))

            def _send(self, status: int, payload: dict, headers: dict | None = None) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client timed out and left

        return Handler


def _first(*values: int | None) -> int:
    return next(v for v in values if v is not None)
