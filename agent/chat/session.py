"""`investigate chat PATH`: an interactive session on one repo.

The person sees the current stage and the findings so far, asks questions, reads code,
runs probes, or says "next". Commands (`/next`, `/stage`, ...) work without a model,
driven by the built-in planner; with `--model`, free text goes to the LLM, which
answers using the same tools under the same guardrails, plus one of the chat's own: the
model may call `finish` only when the person's last input asked to finish
(`asks_to_finish`). While the model works a status line says what it is doing, and each
tool call it makes gets one line with its short result. The session's sandbox is
cleaned up however the chat ends (/quit, Ctrl-D, Ctrl-C), and the transcript is saved
after every exchange outside the repo, as JSON and Markdown.
"""

from __future__ import annotations

import contextlib
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from torch_investigate.agent.chat.commands import BY_NAME, help_text
from torch_investigate.agent.chat.llm import ChatAgent
from torch_investigate.agent.chat.status import LiveStatus
from torch_investigate.agent.chat.transcript import TranscriptFile
from torch_investigate.agent.chat.view import brief_args, headline, tool_line, wrap_text
from torch_investigate.agent.core.conclude import conclude
from torch_investigate.agent.core.session import Options, Session
from torch_investigate.agent.core.toolbox import ToolError, ToolResult, dispatch

if TYPE_CHECKING:
    from torch_investigate.agent.core.policy import ToolCaller
    from torch_investigate.agent.llm.options import LLMOptions
    from torch_investigate.agent.llm.policy import LLMPolicy

EXIT_OK, EXIT_INTERRUPTED = 0, 130


def run_chat(
    path: Path,
    model: str | None = None,
    *,
    options: Options | None = None,
    llm: LLMOptions | None = None,
    transcript: Path | None = None,
    console: Console | None = None,
) -> int:
    """Run the session until the person leaves; returns the exit code.

    Bad input (a missing repo, a bad model option) raises InvestigationError before
    anything runs.
    """
    if model is not None and llm is None:
        from torch_investigate.agent.llm.options import LLMOptions

        llm = LLMOptions(model=model)
    policy = llm.policy() if llm is not None else None
    record = TranscriptFile(path, policy.settings.model if policy else None, transcript)
    console = console or Console(highlight=False, soft_wrap=True)
    try:
        with Session(path, options or Options()) as session:
            return ChatSession(session, console, record, policy).loop()
    except KeyboardInterrupt:  # while the session was being prepared
        console.print("\ninterrupted", markup=False)
        return EXIT_INTERRUPTED


FINISH_WORDS = re.compile(r"\b(finish|conclude|wrap (it )?up)\b", re.IGNORECASE)
FINISH_REFUSED = (
    "finish is refused in a chat until the person asks to finish (with /finish, or a message "
    "asking to finish, conclude or wrap up); nothing changed. Answer the person instead."
)


def asks_to_finish(text: str) -> bool:
    """Whether the person's input asks to end the investigation: `/finish`, or words such
    as "finish", "conclude", "wrap up" in a message. The model may call `finish` only
    in the turn that answers such an input."""
    return text.strip().lower().startswith("/finish") or bool(FINISH_WORDS.search(text))


class ChatSession:
    def __init__(
        self, session: Session, console: Console, record: TranscriptFile, policy: LLMPolicy | None
    ) -> None:
        self.session = session
        self.console = console
        self.record = record
        self.policy = policy
        self.agent = ChatAgent(policy, session) if policy is not None else None
        self.concluded = False
        self.finish_asked = False  # the person's last input asked to finish
        self._headline = ""  # the headline last shown, so an unchanged one is not repeated
        session.policy_name = f"chat+{policy.name}" if policy else "chat"

    @property
    def has_model(self) -> bool:
        return self.agent is not None

    # ---- output: the model's words, a command's output, notes ------------------------------

    def answer(self, text: str) -> None:
        """The model's answer, wrapped between words (never parsed as markup: it may
        quote the repo)."""
        self._print(text)
        self.record.add("investigator", text)

    def show(self, text: str, command: str, wrap: bool = True) -> None:
        """A command's output: the tool's words, labelled so in the transcript."""
        self._print(text, wrap=wrap)
        self.record.add("output", text, command=command)

    def note(self, text: str) -> None:
        self._print(text, style="dim")
        self.record.add("note", text)

    def show_headline(self) -> None:
        """Where the session stands, when that changed since it was last shown."""
        text = headline(self.session)
        if text != self._headline:
            self._headline = text
            self._print(text, style="bold")

    def _print(self, text: str, style: str = "", wrap: bool = True) -> None:
        shown = wrap_text(text, max(20, self.console.width - 1)) if wrap else text
        self.console.print(shown, style=style, markup=False, highlight=False)

    # ---- tool calls ------------------------------------------------------------------------

    def call(self, name: str, arguments: dict[str, Any] | None = None) -> ToolResult:
        """The engine's tool call (guardrails apply), recorded in the transcript."""
        result = dispatch(self.session, name, arguments)
        self._record_call(name, arguments or {}, result)
        return result

    def _record_call(self, name: str, arguments: dict[str, Any], result: ToolResult) -> None:
        self.record.add(
            "tool", result.text, tool=name, arguments=arguments, ok=result.ok,
            refused=result.refused, summary=tool_line(self.session, name, arguments, result),
        )  # fmt: skip

    def model_call(self, status: LiveStatus) -> ToolCaller:
        """The model's caller: the status line names each tool while it runs, one line
        shows its short result, and `finish` is refused unless the person asked for it."""

        def call(name: str, arguments: dict[str, Any] | None = None) -> ToolResult:
            args = arguments or {}
            status.running(f"{name}({brief_args(args)})")
            if name == "finish" and not self.finish_asked:
                result = ToolResult(
                    ok=False, text=FINISH_REFUSED, error=ToolError.refused, rule="finish_not_asked"
                )
                self._record_call(name, args, result)
            else:
                result = self.call(name, args)
            style = "yellow" if result.refused else "dim"
            line = "  · " + tool_line(self.session, name, args, result)
            status.line(wrap_text(line, max(20, self.console.width - 1)), style)
            status.thinking()
            return result

        return call

    def conclude_if_closed(self) -> None:
        """Once every stage is closed (by /next or by the model), conclude once: root
        cause, experiments and the changes not to attempt yet, as an investigation does."""
        if self.session.protocol.current is None and not self.concluded:
            self.concluded = True
            conclude(self.session, self.call)

    def report_extra(self) -> dict:
        return {"llm": self.policy.usage} if self.policy is not None else {}

    # ---- the loop -----------------------------------------------------------------------

    def loop(self) -> int:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401 - line editing and history for input()
        self._banner()
        code = EXIT_OK
        try:
            while True:
                try:
                    line = input(self._prompt())
                except EOFError:
                    self.console.print("", markup=False)
                    break
                if not self.handle(line):
                    break
                self._save()
        except KeyboardInterrupt:
            self.console.print("\ninterrupted", markup=False)
            code = EXIT_INTERRUPTED
        self.record.add("note", "session ended")
        saved = self._save()
        self.console.print(f"transcript: {saved}" if saved else "", markup=False)
        return code

    def handle(self, line: str) -> bool:
        """Act on one line; False ends the session."""
        text = line.strip()
        if not text:
            return True
        self.record.add("person", text)
        self.finish_asked = asks_to_finish(text)
        word, _, rest = text.partition(" ")
        name = word[1:].lower() if word.startswith("/") else None
        if name is None and word.lower() in ("quit", "exit", "help") and not rest:
            name = word.lower()
        if name is None and word.lower() == "next" and not rest and not self.has_model:
            name = "next"
        if name is not None:
            command = BY_NAME.get(name)
            if command is None:
                self.show(f"unknown command /{name}\n{help_text(self.has_model)}", "/help")
                return True
            return command.handler(self, rest) is not False
        if self.agent is None:
            self.show(help_text(False, free_text=True), "/help")
            return True
        self.ask(text)
        return True

    def ask(self, question: str) -> None:
        """A question for the model; it may call tools, shown one line each as they run."""
        from torch_investigate.agent.llm.errors import LLMConfigError

        assert self.agent is not None
        unavailable = None
        with LiveStatus(self.console) as status:  # cleared before anything else prints
            try:
                answer = self.agent.ask(question, self.model_call(status))
            except LLMConfigError as e:
                unavailable = e.message
        if unavailable is not None:
            self.agent = None
            self.note(f"the model is unavailable: {unavailable}\nContinuing with commands only.")
            return
        self.conclude_if_closed()
        self.answer(answer)
        self.show_headline()

    def _banner(self) -> None:
        s = self.session
        cmd = f"python {' '.join(s.command.argv)}" if s.command else f"none ({s.command_note})"
        mode = (
            f"model {self.policy.settings.model}" if self.policy else "commands only (no --model)"
        )
        self.console.print(f"torch-investigate chat on {s.repo}", style="bold", markup=False)
        self.console.print(f"training command: {cmd}\nmode: {mode}", markup=False)
        self.console.print(f"transcript: {self.record.markdown_path}", markup=False)
        self.show_headline()
        self.console.print("/help lists the commands; /next works the current stage.", markup=False)

    def _prompt(self) -> str:
        current = self.session.protocol.current
        return f"stage {int(current)}> " if current is not None else "done> "

    def _save(self) -> Path | None:
        from torch_investigate.agent.llm.trajectory import TrajectoryError

        if self.policy is not None:
            self.record.transcript.messages = self.policy.conversation.messages
            self.record.transcript.usage = self.policy.usage
        try:
            return self.record.save()
        except TrajectoryError as e:
            print(f"investigate: transcript not saved: {e.message}", file=sys.stderr)
            return None
