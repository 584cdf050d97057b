"""`investigate mcp`: the investigation's tools over MCP (stdio), for other agents.

Built on the official `mcp` package's low-level `Server` (mcp 2.x): the per-step tools'
input schemas are the toolbox declarations themselves plus a `repo` argument, not
schemas re-derived from Python signatures, and every per-step call goes through
`toolbox.dispatch`, so the guardrails are the LLM policy's. A refused or malformed call
is a tool result with isError true that the calling agent can read and act on; only a
call to a tool that does not exist is a protocol error.

One session per repo path, opened on first use with the command line's limits; every
session's sandbox and workspace copy are removed when the client disconnects (EOF) or
the server gets SIGTERM, SIGINT or SIGHUP. stdout is the transport: logs go to stderr.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote, unquote

import anyio
import anyio.to_thread
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, Field, ValidationError

from torch_investigate.agent.core.conclude import conclude
from torch_investigate.agent.core.planner import Planner
from torch_investigate.agent.core.policy import investigate
from torch_investigate.agent.core.session import TOOL_VERSION, InvestigationError, Options, Session
from torch_investigate.agent.core.toolbox import (
    TOOLS,
    Tool,
    ToolError,
    ToolResult,
    dispatch,
    validation_errors,
)
from torch_investigate.agent.render.json_out import to_json
from torch_investigate.tools.records import Finding, Stage

log = logging.getLogger("torch_investigate.mcp")
T = TypeVar("T")
REPORT_SCHEME = "report://"
INSTRUCTIONS = """\
torch-investigate finds why a PyTorch model runs but does not learn. Every tool takes
`repo`, the path of the repo; the repo is never modified (each session works on a copy).
`investigate` runs the whole eight-stage protocol with the built-in planner and returns
the report as JSON. To walk the stages yourself: run_stage_checks(stage=N) for the
current stage, record_finding, advance_stage, ... and finish; read_code, search_code and
run_probe gather more evidence; `findings` shows the session's findings so far. The
guardrails are code: a refused call changes nothing and comes back as a tool error that
says why (e.g. learning-rate experiments before stages 1-7 are coherent). Each session's
latest report is the resource report://<repo path>."""


# ---- sessions -----------------------------------------------------------------------------


def repo_path(repo: str) -> Path:
    """The key of a repo's session: its absolute path (relative to the server's folder)."""
    if not repo.strip():
        raise InvestigationError("repo is empty: give the path of a repo")
    return Path(repo).expanduser().resolve()


@dataclass
class _Entry:
    lock: threading.Lock = field(default_factory=threading.Lock)
    session: Session | None = None


class Sessions:
    """One Session per repo path. A Session is not thread-safe, so every use holds its
    repo's lock: calls on one repo run one at a time, calls on different repos in parallel."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self._lock = threading.Lock()
        self._entries: dict[Path, _Entry] = {}
        self._closed = False

    def use(
        self,
        repo: str,
        work: Callable[[Session], T],
        *,
        fresh: bool = False,
        cmd: str | None = None,
    ) -> T:
        """Run `work` on the repo's session, opening it first if needed (or anew: `fresh`,
        or a `cmd` other than the one the session was opened with)."""
        path = repo_path(repo)
        with self._lock:
            if self._closed:
                raise InvestigationError("the server is shutting down")
            entry = self._entries.setdefault(path, _Entry())
        with entry.lock:
            session = entry.session
            if session is not None and (fresh or (cmd is not None and cmd != session.options.cmd)):
                entry.session = None
                session.close()
                session = None
            if session is None:
                session = self._open(entry, path, cmd)
            return work(session)

    def _open(self, entry: _Entry, path: Path, cmd: str | None) -> Session:
        session = Session(path, self.options.model_copy(update={"cmd": cmd}))
        session.policy_name = "mcp"
        with self._lock:  # registered, or closed here: never both, never neither
            closed = self._closed
            if not closed:
                entry.session = session
        if closed:  # the server shut down while the session was being prepared
            session.close()
            raise InvestigationError("the server is shutting down")
        log.info("opened a session on %s", path)
        return session

    def repos(self) -> list[Path]:
        """The repos with an open session."""
        with self._lock:
            return sorted(p for p, e in self._entries.items() if e.session is not None)

    def report_json(self, path: Path) -> str | None:
        """The session's report as it stands (None when no session is open on `path`)."""
        with self._lock:
            entry = self._entries.get(path)
        if entry is None:
            return None
        with entry.lock:
            session = entry.session
            return to_json(session.report()) if session is not None else None

    def close_all(self, wait_s: float = 1.5) -> None:
        """Remove every sandbox and workspace copy, then wait (up to `wait_s`) for the calls
        in flight: they fail fast once their sandbox is closed, and a call still opening a
        session closes it itself. Their results are dropped."""
        with self._lock:
            self._closed = True
            entries = list(self._entries.values())
            sessions = [e.session for e in entries if e.session is not None]
            for entry in entries:
                entry.session = None
        for session in sessions:
            session.close()
            log.info("closed the session on %s", session.repo)
        deadline = time.monotonic() + wait_s
        for entry in entries:
            if entry.lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
                entry.lock.release()


# ---- tools --------------------------------------------------------------------------------


class RepoArgs(BaseModel):
    repo: str = Field(
        description="path of the repo to investigate (absolute, or relative to the server's "
        "working directory); it is never modified"
    )


class InvestigateArgs(RepoArgs):
    cmd: str | None = Field(
        default=None,
        description='the training command, e.g. "python train.py --epochs 3" '
        "(default: found in the repo's README, pyproject, Makefile or train*.py)",
    )
    fresh: bool = Field(
        default=False,
        description="discard this repo's session and start over from a new copy of the repo "
        "(e.g. after changing its code)",
    )


class StaticFindings(BaseModel):
    repo: str
    findings: list[Finding]


class SessionFindings(BaseModel):
    repo: str
    current_stage: int | None = Field(description="the open stage; null once every stage is closed")
    findings: list[Finding]


@dataclass(frozen=True)
class McpTool:
    name: str
    description: str
    schema: dict[str, Any]
    run: Callable[[Sessions, dict[str, Any]], ToolResult]


def _investigate(sessions: Sessions, a: InvestigateArgs) -> ToolResult:
    def work(session: Session) -> ToolResult:
        p = session.protocol
        stepped = p.current != Stage.SYMPTOM or bool(p.ledger.all())
        investigate(session, Planner())  # continues from the open stage, if any
        if stepped:
            session.policy_name = "mcp+planner"
        return ToolResult(ok=True, text=to_json(session.report()))

    return sessions.use(a.repo, work, fresh=a.fresh, cmd=a.cmd)


def _static_check(sessions: Sessions, a: RepoArgs) -> ToolResult:
    def work(session: Session) -> ToolResult:
        found = StaticFindings(repo=str(session.repo), findings=session.static_findings)
        return ToolResult(ok=True, text=found.model_dump_json(indent=2))

    return sessions.use(a.repo, work)


def _findings(sessions: Sessions, a: RepoArgs) -> ToolResult:
    def work(session: Session) -> ToolResult:
        current = session.protocol.current
        found = SessionFindings(
            repo=str(session.repo),
            current_stage=int(current) if current is not None else None,
            findings=session.protocol.ledger.all(),
        )
        return ToolResult(ok=True, text=found.model_dump_json(indent=2))

    return sessions.use(a.repo, work)


def _own_tool(name: str, description: str, args: type[RepoArgs], handler) -> McpTool:
    def run(sessions: Sessions, arguments: dict[str, Any]) -> ToolResult:
        try:
            parsed = args.model_validate(arguments)
        except ValidationError as e:
            return ToolResult(
                ok=False,
                text=f"bad arguments for {name}: {validation_errors(e)}",
                error=ToolError.bad_arguments,
            )
        return handler(sessions, parsed)

    return McpTool(name, description, _schema(args), run)


def _step_tool(tool: Tool) -> McpTool:
    """A toolbox tool with a `repo` argument that selects the session."""
    schema = _schema(tool.args)
    schema["properties"] = {**_schema(RepoArgs)["properties"], **schema.get("properties", {})}
    schema["required"] = ["repo", *schema.get("required", [])]

    def run(sessions: Sessions, arguments: dict[str, Any]) -> ToolResult:
        repo = arguments.pop("repo", None)
        if not isinstance(repo, str):
            return ToolResult(
                ok=False, text=f"bad arguments for {tool.name}: repo: a path is required"
            )
        return sessions.use(repo, lambda session: _step(session, tool.name, arguments))

    return McpTool(tool.name, tool.description, schema, run)


def _step(session: Session, name: str, arguments: dict[str, Any]) -> ToolResult:
    result = dispatch(session, name, arguments)
    if name == "finish" and result.ok:
        # as an investigation ends: the next experiments and the changes not to attempt yet
        conclude(session, lambda n, a=None: dispatch(session, n, a))
    return result


def _schema(args: type[BaseModel]) -> dict[str, Any]:
    schema = args.model_json_schema()
    schema.pop("title", None)
    return schema


def mcp_tools() -> list[McpTool]:
    return [
        _own_tool("investigate", "Investigate a repo end to end with the built-in planner (all eight stages, runs in a sandbox, interventions) and return the report as JSON, the same as `investigate PATH -f json`. Continues a session walked step by step from its open stage.", InvestigateArgs, _investigate),
        _own_tool("static_check", "The static findings only (code patterns such as softmax feeding CrossEntropyLoss), as JSON; the repo's code is not run, so they are plausible, never confirmed.", RepoArgs, _static_check),
        *(_step_tool(t) for t in TOOLS),
        _own_tool("findings", "The session's findings so far and its open stage, as JSON.", RepoArgs, _findings),
    ]  # fmt: skip


def call(tool: McpTool, sessions: Sessions, arguments: dict[str, Any]) -> ToolResult:
    """Run a tool; bad input and failures come back as results, never as exceptions."""
    try:
        return tool.run(sessions, arguments)
    except InvestigationError as e:
        return ToolResult(ok=False, text=e.message)
    except Exception as e:  # a bug must not end the server; the traceback goes to stderr
        log.exception("tool %s failed", tool.name)
        return ToolResult(ok=False, text=f"internal error in {tool.name}: {type(e).__name__}: {e}")


# ---- resources ----------------------------------------------------------------------------


def report_uri(path: Path) -> str:
    return REPORT_SCHEME + quote(str(path))


def uri_repo(uri: str) -> Path | None:
    if not uri.startswith(REPORT_SCHEME) or len(uri) == len(REPORT_SCHEME):
        return None
    return repo_path(unquote(uri[len(REPORT_SCHEME) :]))


# ---- the server ---------------------------------------------------------------------------


def build_server(sessions: Sessions) -> Server:
    tools = {t.name: t for t in mcp_tools()}

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(name=t.name, description=t.description, input_schema=t.schema)
                for t in tools.values()
            ]
        )

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = tools.get(params.name)
        if tool is None:
            message = f"unknown tool {params.name!r}; tools: {', '.join(tools)}"
            raise MCPError(code=types.INVALID_PARAMS, message=message)
        arguments = dict(params.arguments or {})
        result = await anyio.to_thread.run_sync(
            call, tool, sessions, arguments, abandon_on_cancel=True
        )
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=result.text)],
            structured_content=result.model_dump(mode="json", exclude={"text"}, exclude_none=True),
            is_error=not result.ok,
        )

    async def list_resources(ctx, params) -> types.ListResourcesResult:
        return types.ListResourcesResult(
            resources=[
                types.Resource(
                    uri=report_uri(path),
                    name=f"report {path.name}",
                    description=f"the latest report of the session on {path}",
                    mime_type="application/json",
                )
                for path in sessions.repos()
            ]
        )

    async def list_templates(ctx, params) -> types.ListResourceTemplatesResult:
        template = types.ResourceTemplate(
            uri_template=REPORT_SCHEME + "{+path}",
            name="report",
            description="the latest report of the session on the repo at `path`",
            mime_type="application/json",
        )
        return types.ListResourceTemplatesResult(resource_templates=[template])

    async def read_resource(
        ctx, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        try:
            path = uri_repo(uri)
        except InvestigationError:
            path = None
        text = None
        if path is not None:
            text = await anyio.to_thread.run_sync(
                sessions.report_json, path, abandon_on_cancel=True
            )
        if text is None:
            message = f"no session for {uri}: call a tool with that repo first"
            raise MCPError(code=types.INVALID_PARAMS, message=message, data={"uri": uri})
        contents = types.TextResourceContents(uri=uri, text=text, mime_type="application/json")
        return types.ReadResourceResult(contents=[contents])

    return Server(
        "torch-investigate",
        version=TOOL_VERSION,
        title="torch-investigate",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
    )


def serve(options: Options) -> int:
    """Serve until the client disconnects or a signal arrives; every session is closed after."""
    _log_to_stderr()
    sessions = Sessions(options)
    server = build_server(sessions)
    log.info("serving on stdio (steps %d, timeout %gs)", options.steps, options.timeout_s)
    try:
        anyio.run(_serve, server, sessions)
    finally:
        sessions.close_all()
    return 0


async def _serve(server: Server, sessions: Sessions) -> None:
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(_stop_on_signal, sessions)
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
        tasks.cancel_scope.cancel()  # EOF: the client is gone


async def _stop_on_signal(sessions: Sessions) -> None:
    """Clean up and leave at once. A stdio client sends SIGTERM 2 s after closing stdin and
    SIGKILL 2 s later; and the transport's stdin reader blocks in read(), where no
    cancellation reaches it, so the process exits here rather than unwinding."""
    with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT, signal.SIGHUP) as signals:
        async for signum in signals:
            log.info("%s: closing every session", signal.Signals(signum).name)
            sessions.close_all()
            logging.shutdown()
            os._exit(0)


def _log_to_stderr() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("investigate mcp: %(message)s"))
    logging.basicConfig(level=logging.WARNING, handlers=[handler])
    log.setLevel(logging.INFO)
