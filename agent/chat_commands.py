"""The chat's commands, declared once as data (the /help text comes from here).

They work with or without a model: `/next` closes the current stage through the
built-in planner, the others read the session or call one tool.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from torch_investigate.agent.chat_view import evidence_view, findings_view, headline, stage_view
from torch_investigate.agent.planner import Planner

if TYPE_CHECKING:
    from torch_investigate.agent.chat import ChatSession
    from torch_investigate.agent.policy import ToolCaller
    from torch_investigate.agent.session import Session


class _StageClosed(Exception):
    """Stops the planner after the one stage `/next` asked for."""


def next_stage(session: Session, call: ToolCaller) -> None:
    """Run the current stage's checks through the built-in planner and close it.

    The planner walks every stage; a wrapped `call` stops it after its first successful
    `advance_stage`, so /next reuses the planner exactly instead of copying it.
    """

    def one_stage(name: str, arguments: dict | None = None):
        result = call(name, arguments)
        if name == "advance_stage" and result.ok:
            raise _StageClosed
        return result

    try:
        Planner().run(session, one_stage)
    except _StageClosed:
        pass


def _next(chat: ChatSession, arg: str) -> None:
    p = chat.session.protocol
    if p.current is None:
        chat.say(headline(chat.session))
        return
    stage = p.current
    chat.note(f"running the checks of stage {int(stage)} ({stage.title})...")
    next_stage(chat.session, chat.call)
    result = p.stages[stage]
    chat.say(f"Stage {int(stage)} ({stage.title}) closed as {result.verdict}: {result.reason}")
    new = [f for f in p.findings_in(stage)]
    if new:
        chat.say(
            "Findings of this stage:\n"
            + "\n".join(f"  {f.id} [{f.status}] {f.category}" for f in new)
        )
    chat.conclude_if_closed()
    chat.say(headline(chat.session))


def _stage(chat: ChatSession, arg: str) -> None:
    chat.say(stage_view(chat.session))


def _findings(chat: ChatSession, arg: str) -> None:
    chat.say(findings_view(chat.session))


def _evidence(chat: ChatSession, arg: str) -> None:
    fid = arg.strip().upper()
    if not fid:
        chat.say("usage: /evidence F1")
        return
    finding = chat.session.protocol.ledger.get(fid)
    if finding is None:
        known = ", ".join(f.id for f in chat.session.protocol.ledger.all()) or "none yet"
        chat.say(f"no finding {fid} (findings: {known})")
        return
    chat.say(evidence_view(finding))


def _read(chat: ChatSession, arg: str) -> None:
    if not arg.strip():
        chat.say("usage: /read file.py, /read file.py:Symbol or /read file.py:10-60")
        return
    chat.say(chat.call("read_code", {"target": arg.strip()}).text)


def _probe(chat: ChatSession, arg: str) -> None:
    code = arg.strip().replace("\\n", "\n")
    if not code:
        chat.say(
            "usage: /probe <python>  (model, inputs, target, loss_fn, optimizer, torch are in scope; \\n for new lines)"
        )
        return
    chat.note("running the probe in the sandbox...")
    result = chat.call("run_probe", {"code": code})
    chat.say(result.text)


def _report(chat: ChatSession, arg: str) -> None:
    from torch_investigate.agent.render import render

    report = chat.session.report(**chat.report_extra())
    if not chat.session.protocol.finished:
        chat.note("the investigation is still open: this is the report so far")
    chat.say(render(report, "md"))


def _help(chat: ChatSession, arg: str) -> None:
    chat.say(help_text(chat.has_model))


def _quit(chat: ChatSession, arg: str) -> bool:
    return False


@dataclass(frozen=True)
class Command:
    name: str
    usage: str
    help: str
    handler: Callable[[ChatSession, str], bool | None]


COMMANDS: tuple[Command, ...] = (
    Command("next", "/next", "run the current stage's checks (built-in planner) and close the stage", _next),
    Command("stage", "/stage", "the current stage, its checklist and the closed stages", _stage),
    Command("findings", "/findings", "the findings so far", _findings),
    Command("evidence", "/evidence F2", "one finding's evidence, why, and the smallest confirming test", _evidence),
    Command("read", "/read file.py:Symbol", "read code (a file, a symbol or file.py:10-60)", _read),
    Command("probe", "/probe <code>", "run a Python snippet in the sandbox after the first step", _probe),
    Command("report", "/report", "the report (so far)", _report),
    Command("help", "/help", "this list", _help),
    Command("quit", "/quit", "leave (Ctrl-D and Ctrl-C too)", _quit),
)  # fmt: skip
BY_NAME = {c.name: c for c in COMMANDS} | {"exit": COMMANDS[-1], "q": COMMANDS[-1]}


def help_text(has_model: bool, free_text: bool = False) -> str:
    width = max(len(c.usage) for c in COMMANDS)
    lines = "\n".join(f"  {c.usage.ljust(width)}  {c.help}" for c in COMMANDS)
    if free_text and not has_model:
        return f"No model is configured (--model), so I can only follow commands:\n{lines}"
    if has_model:
        tail = "Anything else is a question for the model, which answers using the tools."
    else:
        tail = "Without a model (--model), free text is not answered; `next` works like /next."
    return f"Commands:\n{lines}\n{tail}"
