"""A model's patch, for a confirmed finding the planner could not patch mechanically.

The model gets the finding, its evidence and the code around it, and three tools
declared as the investigation's are (`Tool`, `compact_schema`): `read_code`,
`search_code` and `propose_patch`. A proposed diff meets the same guardrails and the
same verification as a mechanical one:

- only a confirmed finding of this investigation gets a patch (`patch_needs_confirmed`);
- no stage-8 patch while stages 1-7 are not coherent (`optimization_before_correctness`);
- the diff must stay inside the repo and apply to the files as they are;
- it is then run (agent/fix/verify.py) and comes back verified, unverified or dropped,
  with the numbers, so the model can correct it.

At most `MAX_PROPOSALS` diffs and `MAX_REQUESTS` model requests per finding, within the
run's own bounds (steps, tokens, cost).
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import Field

from torch_investigate.agent.core.guardrails import Refused, correctness_open
from torch_investigate.agent.core.tool_args import (
    Args,
    ReadCodeArgs,
    SearchCodeArgs,
    ToolError,
    ToolResult,
)
from torch_investigate.agent.core.toolbox import Tool, bounded, validation_errors
from torch_investigate.agent.fix.diff import PatchError, apply_diff, check_paths, diff_files
from torch_investigate.agent.fix.patcher import better
from torch_investigate.agent.llm.errors import LLMConfigError, LLMRequestError, LLMUnavailable
from torch_investigate.agent.llm.execute import execute
from torch_investigate.agent.llm.messages import Conversation
from torch_investigate.prompts import Prompt, load
from torch_investigate.tools.code import read_target, search_code
from torch_investigate.tools.fix_records import Patch
from torch_investigate.tools.records import Finding, LLMUsage, Stage

if TYPE_CHECKING:
    from pydantic import BaseModel

    from torch_investigate.agent.fix.patcher import Fixing
    from torch_investigate.agent.llm.policy import LLMPolicy

MAX_PROPOSALS = 3
MAX_REQUESTS = 8
CODE_WINDOW = 30  # lines of code shown on each side of the finding's line


class ProposePatchArgs(Args):
    finding: str = Field(description="the confirmed finding's id, e.g. F1")
    diff: str = Field(
        description="a unified diff (--- a/FILE, +++ b/FILE, @@ hunks) against the repo as it is"
    )
    explanation: str = Field(description="one line: what the change does")


@dataclass
class _Round:
    """One finding's conversation: its proposals so far and the best judged patch."""

    finding: Finding
    proposals: int = 0
    best: Patch | None = None
    patches: list[Patch] = field(default_factory=list)


class ModelProposer:
    def __init__(self, policy: LLMPolicy, prompts: dict[str, Prompt] | None = None) -> None:
        self.policy = policy  # its client, budget, settings and data fence
        self.prompts = prompts or {name: load(name) for name in ("fix", "fix_finding")}
        self.name = policy.settings.model
        self.stop_reason = ""

    # ---- the seam the patcher calls -----------------------------------------------------

    def propose(self, fixing: Fixing, finding: Finding, best: Patch | None) -> Patch | None:
        if self.policy.budget.exhausted() or self.policy.endpoint_error:
            return None
        r = _Round(finding, best=None)
        tools = self._tools(fixing, r)
        schemas = [t.schema() for t in tools.values()]
        conv = Conversation(keep=self.policy.settings.keep_results)
        fence = self.policy.fence
        conv.system(self.prompts["fix"].render(data_open=fence.open, data_close=fence.close))
        conv.user(self._brief(fixing, finding, best))

        def call(name: str, arguments: dict[str, Any] | None = None) -> ToolResult:
            return _dispatch(tools, name, arguments)

        for _ in range(MAX_REQUESTS):
            if r.proposals >= MAX_PROPOSALS or (r.best is not None and r.best.verified):
                break
            if reason := self.policy.budget.exhausted():
                self.stop_reason = reason
                break
            try:
                completion = self.policy.client.complete(conv.for_model(), schemas)
            except (LLMUnavailable, LLMRequestError, LLMConfigError) as e:
                self.policy.endpoint_error = str(e)
                self.stop_reason = f"the endpoint failed: {e}"
                break
            self.policy.budget.add(completion)
            message = completion.message
            conv.add(message)
            if not message.tool_calls:
                conv.user(f"Call propose_patch with a diff for {finding.id}, or read code first.")
                continue
            for tc in message.tool_calls:
                outcome = execute(tc, call, fence)
                conv.tool(tc.id, tc.name, outcome.text)
                if outcome.kind == "refused":
                    self.policy.usage.refusals += 1
        if r.best is not None:
            r.best = r.best.model_copy(update={"tried": max(1, r.proposals)})
        return r.best

    def usage(self, investigation: LLMUsage) -> LLMUsage:
        """The investigation's usage with this run's requests added."""
        mine = self.policy.usage
        cost = (
            (investigation.cost_usd or 0.0) + (mine.cost_usd or 0.0)
            if investigation.cost_usd is not None or mine.cost_usd is not None
            else None
        )
        return investigation.model_copy(update={
            "steps": investigation.steps + mine.steps,
            "prompt_tokens": investigation.prompt_tokens + mine.prompt_tokens,
            "completion_tokens": investigation.completion_tokens + mine.completion_tokens,
            "refusals": investigation.refusals + mine.refusals,
            "cost_usd": cost,
        })  # fmt: skip

    # ---- the model's view ---------------------------------------------------------------

    def _brief(self, fixing: Fixing, f: Finding, best: Patch | None) -> str:
        fence = self.policy.fence
        index = fixing.context.source.index
        where = f"{f.file}:{f.line} ({f.symbol})" if f.file else "no single location"
        code = "(no location to show)"
        if f.file and index.unit(f.file) is not None:
            line = f.line or 1
            target = f"{f.file}:{max(1, line - CODE_WINDOW)}-{line + CODE_WINDOW}"
            code = fence.quote(bounded(read_target(index, target)), f"read_code {target}")
        evidence = "\n".join(f"- [{o.source}] {o.text[:400]}" for o in f.evidence[:8])
        tried = ""
        if best is not None:
            tried = (
                f"The planner's own edit was {best.status}: {best.change}. {best.reason}\n"
                f"Its diff:\n{fence.quote(best.diff, 'the planner diff')}\n"
            )
        return self.prompts["fix_finding"].render(
            finding=f.id, category=f.category, stage=int(f.stage), where=where, title=f.title,
            why=f.why, evidence=fence.quote(evidence, "evidence"), code=code, tried=tried,
        )  # fmt: skip

    def _tools(self, fixing: Fixing, r: _Round) -> dict[str, Tool]:
        index = fixing.context.source.index

        def read(_session: Any, a: ReadCodeArgs) -> ToolResult:
            return ToolResult(ok=True, text=bounded(read_target(index, a.target)))

        def search(_session: Any, a: SearchCodeArgs) -> ToolResult:
            return ToolResult(ok=True, text=bounded(search_code(index, a.pattern)))

        def propose_patch(_session: Any, a: ProposePatchArgs) -> ToolResult:
            return self._propose_patch(fixing, r, a)

        return {
            t.name: t
            for t in (
                Tool("read_code", "Numbered source of a file, symbol or line range (bounded).", ReadCodeArgs, read),
                Tool("search_code", "Search the Python files; returns file:line (symbol): line.", SearchCodeArgs, search),
                Tool("propose_patch", "Propose a unified diff for a confirmed finding; it is applied to a fresh copy and verified by rerunning the training.", ProposePatchArgs, propose_patch),
            )
        }  # fmt: skip

    # ---- propose_patch --------------------------------------------------------------------

    def _propose_patch(self, fixing: Fixing, r: _Round, a: ProposePatchArgs) -> ToolResult:
        report = fixing.original.report
        finding = report.finding(a.finding)
        if finding is None or finding.status != "confirmed":
            raise Refused(
                "patch_needs_confirmed",
                f"{a.finding} is not a confirmed finding of this investigation; patches are "
                f"written for confirmed findings only ({r.finding.id} is the one to patch)",
            )
        if finding.id != r.finding.id:
            raise Refused("patch_needs_confirmed", f"this round patches {r.finding.id}, not {a.finding}")  # fmt: skip
        open_stages = correctness_open({s.stage: s for s in report.stages})
        if finding.stage == Stage.OPTIMIZATION and open_stages:
            raise Refused(
                "optimization_before_correctness",
                "a patch for a stage-8 finding is not allowed until stages 1-7 are coherent: "
                + "; ".join(open_stages),
            )
        diff = a.diff if a.diff.endswith("\n") else a.diff + "\n"
        try:
            check_paths(diff)
            _applies(fixing, diff)
        except PatchError as e:
            return ToolResult(ok=False, text=f"the diff was not run: {e}", error=ToolError.failed)
        r.proposals += 1
        change = " ".join(a.explanation.split())[:200] or f"a diff of {', '.join(diff_files(diff))}"
        patch = fixing.judge(finding, diff, change, "model", self.name)
        r.best = better(r.best, patch)
        text = f"{patch.status}: {patch.reason}"
        if patch.before is not None and patch.after is not None:
            text += (
                f" (settled loss as written {patch.before.settled_loss}, "
                f"patched {patch.after.settled_loss})"
            )
        return ToolResult(ok=patch.verified, text=text, error=None if patch.verified else ToolError.failed)  # fmt: skip


def _applies(fixing: Fixing, diff: str) -> None:
    """The diff applies to the repo's files as the investigation read them (a scratch copy
    of just those files), before a whole run is spent on it."""
    root = fixing.context.source.root
    names = diff_files(diff)
    if not names:
        raise PatchError("the diff names no file (it needs --- a/FILE and +++ b/FILE lines)")
    scratch = Path(tempfile.mkdtemp(prefix="ti-propose-"))
    try:
        for name in names:
            data = (
                fixing.context.source.unit(name).source
                if name in fixing.context.source.files
                else None
            )
            if data is None and (root / name).is_file():
                data = (root / name).read_bytes()
            if data is None:
                raise PatchError(f"{name} is not a file of the repo")
            (scratch / name).parent.mkdir(parents=True, exist_ok=True)
            (scratch / name).write_bytes(data)
        apply_diff(scratch, diff)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _dispatch(tools: dict[str, Tool], name: str, arguments: dict[str, Any] | None) -> ToolResult:
    """As the toolbox's dispatch: validation errors and refusals come back as results."""
    from pydantic import ValidationError

    tool = tools.get(name)
    if tool is None:
        return ToolResult(ok=False, text=f"unknown tool {name!r}; tools: {', '.join(tools)}", error=ToolError.unknown_tool)  # fmt: skip
    try:
        args: BaseModel = tool.args.model_validate(arguments or {})
    except ValidationError as e:
        return ToolResult(ok=False, text=f"bad arguments for {name}: {validation_errors(e)}", error=ToolError.bad_arguments)  # fmt: skip
    try:
        return tool.handler(None, args)  # type: ignore[arg-type]
    except Refused as refusal:
        return ToolResult(ok=False, text=str(refusal), error=ToolError.refused, rule=refusal.rule)
