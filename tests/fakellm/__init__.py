"""A scripted OpenAI-compatible server for tests: no network, the real `openai` client."""

from .recorded import RecordedSession
from .server import Delay, HTTPError, Reply, Request, ScriptedLLM, call
from .walker import ProtocolWalker

__all__ = [
    "ProtocolWalker",
    "RecordedSession",
    "Delay",
    "HTTPError",
    "Reply",
    "Request",
    "ScriptedLLM",
    "call",
]
