"""`investigate chat PATH`: an interactive session on one repo.

The person sees the current stage and the findings so far, asks questions, reads code,
runs probes, or says "next". Commands (`/next`, `/stage`, ...) work without a model,
driven by the built-in planner; with `--model`, free text goes to the LLM, which
answers using the same tools under the same guardrails. The session's sandbox is
cleaned up however the chat ends (/quit, Ctrl-D, Ctrl-C), and the transcript is saved
after every exchange outside the repo.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from torch_investigate.agent.chat_commands import BY_NAME, help_text
from torch_investigate.agent.chat_llm import ChatAgent
from torch_investigate.agent.chat_transcript import TranscriptFile
from torch_investigate.agent.chat_view import headline
from torch_investigate.agent.conclude import conclude
from torch_investigate.agent.session import Options, Session
from torch_investigate.agent.toolbox import ToolResult, dispatch

if TYPE_CHECKING:
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


class ChatSession:
    def __init__(
        self, session: Session, console: Console, record: TranscriptFile, policy: LLMPolicy | None
    ) -> None:
        self.session = session
        self.console = console
        self.record = record
        self.policy = policy
        self.agent = ChatAgent(policy, session) if policy is not None else None
        self.show_tools = False  # tool calls are shown while the model works
        self.concluded = False
        session.policy_name = f"chat+{policy.name}" if policy else "chat"

    @property
    def has_model(self) -> bool:
        return self.agent is not None

    # ---- output -----------------------------------------------------------------------

    def say(self, text: str) -> None:
        """An answer: plain text, never parsed as markup (it may quote the repo)."""
        self.console.print(text, markup=False, highlight=False)
        self.record.add("investigator", text)

    def note(self, text: str) -> None:
        self.console.print(text, style="dim", markup=False, highlight=False)
        self.record.add("note", text)

    def call(self, name: str, arguments: dict[str, Any] | None = None) -> ToolResult:
        """The engine's tool call (guardrails apply), recorded in the transcript."""
        result = dispatch(self.session, name, arguments)
        args = arguments or {}
        self.record.add(
            "tool", result.text, tool=name, arguments=args, ok=result.ok, refused=result.refused
        )
        if self.show_tools:
            brief = ", ".join(f"{k}={_brief(v)}" for k, v in args.items())
            status = (
                f"refused ({result.refused})"
                if result.refused
                else ("ok" if result.ok else "error")
            )
            self.console.print(f"  · {name}({brief}) -> {status}", style="dim", markup=False)
        return result

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
        word, _, rest = text.partition(" ")
        name = word[1:].lower() if word.startswith("/") else None
        if name is None and word.lower() in ("quit", "exit", "help") and not rest:
            name = word.lower()
        if name is None and word.lower() == "next" and not rest and not self.has_model:
            name = "next"
        if name is not None:
            command = BY_NAME.get(name)
            if command is None:
                self.say(f"unknown command /{name}\n{help_text(self.has_model)}")
                return True
            return command.handler(self, rest) is not False
        if self.agent is None:
            self.say(help_text(False, free_text=True))
            return True
        self._ask(text)
        return True

    def _ask(self, question: str) -> None:
        from torch_investigate.agent.llm.errors import LLMConfigError

        assert self.agent is not None
        self.show_tools = True
        try:
            answer = self.agent.ask(question, self.call)
        except LLMConfigError as e:
            self.agent = None
            self.say(f"the model is unavailable: {e.message}\nContinuing with commands only.")
            return
        finally:
            self.show_tools = False
        self.conclude_if_closed()
        self.say(answer)
        self.console.print(headline(self.session), style="bold", markup=False)

    def _banner(self) -> None:
        s = self.session
        cmd = f"python {' '.join(s.command.argv)}" if s.command else f"none ({s.command_note})"
        mode = (
            f"model {self.policy.settings.model}" if self.policy else "commands only (no --model)"
        )
        self.console.print(f"torch-investigate chat on {s.repo}", style="bold", markup=False)
        self.console.print(f"training command: {cmd}\nmode: {mode}", markup=False)
        self.console.print(headline(s), markup=False)
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


def _brief(value: object, limit: int = 48) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
