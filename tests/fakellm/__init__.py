"""A scripted OpenAI-compatible server for tests: no network, the real `openai` client."""

from fakellm.recorded import RecordedSession
from fakellm.server import Delay, HTTPError, Reply, Request, ScriptedLLM, call
from fakellm.walker import ProtocolWalker

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
