"""The chat's commands, declared once as data (the /help text comes from here).

They work with or without a model: `/next` closes the current stage through the
built-in planner, the others read the session or call one tool. What a command prints
is recorded as the tool's output, never as the investigator's words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from torch_investigate.agent.chat.pager import page, terminal_lines
from torch_investigate.agent.chat.status import LiveStatus
from torch_investigate.agent.chat.view import evidence_view, findings_view, headline, stage_view
from torch_investigate.agent.core.conclude import conclude
from torch_investigate.agent.core.planner import Planner

if TYPE_CHECKING:
    from torch_investigate.agent.chat.session import ChatSession
    from torch_investigate.agent.core.policy import ToolCaller
    from torch_investigate.agent.core.session import Session


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
        chat.show(headline(chat.session), "/next")
        return
    stage = p.current
    with LiveStatus(chat.console) as status:
        status.running(f"the checks of stage {int(stage)} ({stage.title})")
        next_stage(chat.session, chat.call)
    result = p.stages[stage]
    lines = [f"Stage {int(stage)} ({stage.title}) closed as {result.verdict}: {result.reason}"]
    new = [f for f in p.findings_in(stage)]
    if new:
        lines.append("Findings of this stage:")
        lines.extend(f"  {f.id} [{f.status}] {f.category}" for f in new)
    chat.conclude_if_closed()
    chat.show("\n".join(lines), "/next")
    chat.show_headline()


def _stage(chat: ChatSession, arg: str) -> None:
    chat.show(stage_view(chat.session), "/stage")


def _findings(chat: ChatSession, arg: str) -> None:
    chat.show(findings_view(chat.session), "/findings")


def _evidence(chat: ChatSession, arg: str) -> None:
    fid = arg.strip().upper()
    ledger = chat.session.protocol.ledger
    if not fid:  # the findings with their ids, to pick one
        listed = findings_view(chat.session)
        tail = "\n/evidence F1 shows a finding's evidence." if ledger.all() else ""
        chat.show(listed + tail, "/evidence")
        return
    finding = ledger.get(fid)
    if finding is None:
        known = ", ".join(f.id for f in ledger.all()) or "none yet"
        chat.show(f"no finding {fid} (findings: {known})", "/evidence")
        return
    chat.show(evidence_view(finding), f"/evidence {fid}")


def _read(chat: ChatSession, arg: str) -> None:
    if not arg.strip():
        chat.show("usage: /read file.py, /read file.py:Symbol or /read file.py:10-60", "/read")
        return
    chat.show(
        chat.call("read_code", {"target": arg.strip()}).text, f"/read {arg.strip()}", wrap=False
    )


def _probe(chat: ChatSession, arg: str) -> None:
    code = arg.strip().replace("\\n", "\n")
    if not code:
        chat.show(
            "usage: /probe <python>  (model, inputs, target, loss_fn, optimizer, torch are in scope; \\n for new lines)",
            "/probe",
        )
        return
    with LiveStatus(chat.console) as status:
        status.running("the probe in the sandbox")
        result = chat.call("run_probe", {"code": code})
    chat.show(result.text, "/probe", wrap=False)


def _report(chat: ChatSession, arg: str) -> None:
    from torch_investigate.agent.render import render

    report = chat.session.report(**chat.report_extra())
    if not chat.session.protocol.finished:
        chat.note("the investigation is still open: this is the report so far")
    text = render(report, "md")
    chat.record.add("output", text, command="/report")
    page(chat.console, terminal_lines(text, chat.console.width))


def _finish(chat: ChatSession, arg: str) -> None:
    """With a model: ask it to end the investigation (the one turn in which it may call
    finish). Without one: close the stages still open as inconclusive and conclude."""
    if chat.session.protocol.finished:
        chat.show(headline(chat.session), "/finish")
        return
    if chat.has_model:
        chat.ask(arg.strip() or FINISH_QUESTION)
        return
    stages = chat.session.protocol.stages
    still_open = [s for s, r in stages.items() if r.verdict is None]
    chat.concluded = True
    conclude(chat.session, chat.call)
    # a stage holding a confirmed finding closes as a defect, never as "not examined"
    by_verdict: dict[str, list[str]] = {}
    for s in still_open:
        by_verdict.setdefault(stages[s].verdict or "open", []).append(str(int(s)))
    said = {
        "inconclusive": "Closed as inconclusive, not examined",
        "not_examined": "Not examined (stages 1-7 are not all coherent)",
        "defect": "Closed as defect (it holds a confirmed finding)",
    }
    lines = [
        f"{said.get(v, f'Closed as {v}')}: stage {', '.join(n)}." for v, n in by_verdict.items()
    ]
    if lines:
        chat.show("\n".join(lines), "/finish")
    chat.show_headline()


FINISH_QUESTION = (
    "Please finish the investigation: close each stage still open with advance_stage, naming "
    "it (inconclusive with the reason when its checks did not run; defect when it holds a "
    "confirmed finding), then call finish with the most likely root cause (or none, with "
    "the reason)."
)


def _help(chat: ChatSession, arg: str) -> None:
    chat.show(help_text(chat.has_model), "/help")


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
    Command("evidence", "/evidence [F2]", "one finding's evidence, why and smallest confirming test (no id: the findings)", _evidence),
    Command("read", "/read file.py:Symbol", "read code (a file, a symbol or file.py:10-60)", _read),
    Command("probe", "/probe <code>", "run a Python snippet in the sandbox after the first step", _probe),
    Command("report", "/report", "the report (so far), drawn for the terminal, a page at a time", _report),
    Command("finish", "/finish", "end the investigation (with a model: ask it to conclude)", _finish),
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
