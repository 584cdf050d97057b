"""The conversation with the model, typed: what is sent, what comes back, what is saved.

`Conversation.for_model()` is the bounded view sent on each request: only the latest
`keep` tool results are shown in full; older ones become a one-line note, and so does a
message with a `topic` (a stage's prompt, a nudge) once a newer one of the same topic
follows it (the full text stays in the conversation and the trajectory). Elision never
removes a message, so every tool call keeps its matching tool result, as the chat API
requires.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class ToolCallRecord(BaseModel):
    id: str
    name: str
    arguments: str  # the raw JSON text the model sent; may be malformed


class ChatMessage(BaseModel):
    role: Literal["system", "user", "assistant", "tool"]
    content: str | None = None
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    tool_call_id: str | None = None  # tool messages: the call they answer
    name: str | None = None  # tool messages: the tool that produced them
    topic: str | None = None  # "stage", "nudge": only the latest of a topic is sent in full

    def to_openai(self, content: str | None = None) -> dict[str, Any]:
        text = self.content if content is None else content
        if self.role == "tool":
            return {"role": "tool", "tool_call_id": self.tool_call_id, "content": text or ""}
        out: dict[str, Any] = {"role": self.role, "content": text}
        if self.tool_calls:
            out["tool_calls"] = [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {"name": c.name, "arguments": c.arguments},
                }
                for c in self.tool_calls
            ]
        elif text is None:
            out["content"] = ""
        return out


class Conversation:
    def __init__(self, keep: int = 12) -> None:
        self.keep = keep
        self.messages: list[ChatMessage] = []

    def add(self, message: ChatMessage) -> None:
        self.messages.append(message)

    def system(self, text: str) -> None:
        self.add(ChatMessage(role="system", content=text))

    def user(self, text: str, topic: str | None = None) -> None:
        self.add(ChatMessage(role="user", content=text, topic=topic))

    def tool(self, call_id: str, name: str, text: str) -> None:
        self.add(ChatMessage(role="tool", tool_call_id=call_id, name=name, content=text))

    def for_model(self) -> list[dict[str, Any]]:
        tool_positions = [i for i, m in enumerate(self.messages) if m.role == "tool"]
        elide = set(tool_positions[: max(0, len(tool_positions) - self.keep)])
        latest = {m.topic: i for i, m in enumerate(self.messages) if m.topic}
        out = []
        for i, m in enumerate(self.messages):
            if i in elide:
                note = f"[elided: an earlier {m.name} result, {len(m.content or '')} characters]"
                out.append(m.to_openai(note))
            elif m.topic and latest[m.topic] != i:
                out.append(m.to_openai(f"[elided: an earlier {m.topic} message, superseded]"))
            else:
                out.append(m.to_openai())
        return out
