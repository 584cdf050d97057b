"""A real model's session, recorded through `llm_bridge.py` (one `resp-NNNN.json` per
request, the digests `req-NNNN.txt` it answered beside them), replayed as a script.

The recorded answers are the model's own; only the evidence ids it cites are remapped:
an id a tool issued during the recording (`recorded as observation E46`) is replaced by
the id the same call issued in this run (the same tool result, counted in order), so the
replay does not depend on how many observations the planner's walk happened to log
before it, nor on a call that issued nothing then (a probe the run's wall stopped) and
issues an id now.

Recordings made before `advance_stage` named its stage get the stage that was open when
the model made the call (the latest stage prompt or "now at stage N" it had read)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fakellm.server import Reply, Request, call

ISSUED = re.compile(r"recorded as observation (E\d+)")
MESSAGE = re.compile(r"^--- \[(\d+)\] (\w+)", re.MULTILINE)  # a message's head in a digest
OPEN_STAGE = re.compile(r"^Stage (\d+)\b|now at stage (\d+)", re.MULTILINE)


class RecordedSession:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.answers = [json.loads(p.read_text()) for p in sorted(folder.glob("resp-*.json"))]
        results: dict[int, list[str]] = {}  # message index -> the ids that tool result issued
        for p in sorted(folder.glob("req-*.txt")):
            text = p.read_text()
            heads = list(MESSAGE.finditer(text))
            for head, nxt in zip(heads, [*heads[1:], None], strict=True):
                if head.group(2) == "tool":
                    body = text[head.end() : nxt.start() if nxt else len(text)]
                    results[int(head.group(1))] = ISSUED.findall(body)
        # what each tool result issued during the recording, in order (digests overlap by
        # one message: the index keeps each result once)
        self.recorded = [results[i] for i in sorted(results)]
        self.ids: dict[str, str] = {}  # recorded id -> the id the same call issued now

    def script(self) -> list:
        self.ids = {}
        return [self._step(answer) for answer in self.answers]

    def _step(self, answer: dict):
        def reply(request: Request) -> Reply:
            now_issued = [
                ISSUED.findall(m.get("content") or "") for m in request.messages
                if m["role"] == "tool"
            ]  # fmt: skip
            ids = self.ids  # kept across requests: an older result's text is elided later
            for then, now in zip(self.recorded, now_issued, strict=False):
                ids.update(zip(then, now, strict=False))
            text = json.dumps(answer)
            text = re.sub(r"\bE\d+\b", lambda m: ids.get(m.group(0), m.group(0)), text)
            now = json.loads(text)
            calls = []
            for c in now.get("tool_calls") or []:
                args = c["arguments"]
                if c["name"] == "advance_stage" and "stage" not in args:
                    args = {"stage": _open_stage(request), **args}
                calls.append(call(c["name"], **args))
            return Reply(content=now.get("content"), tool_calls=calls)

        return reply


def _open_stage(request: Request) -> int:
    stage = 1
    for m in request.messages:
        if m["role"] in ("user", "tool"):
            for a, b in OPEN_STAGE.findall(m.get("content") or ""):
                stage = int(a or b)
    return stage
