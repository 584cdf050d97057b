"""`investigate mcp` end to end: the server runs as a subprocess and the official `mcp`
client library talks to it over stdio, as an agent's host would. The bundled example is
investigated in place (the repo's own copy) and must stay byte-identical; every
sandbox and workspace copy must be gone once the client disconnects or on SIGTERM."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from conftest import tree_hash
from typer.testing import CliRunner

pytest.importorskip("mcp")

from mcp import Client, MCPError, StdioServerParameters  # noqa: E402

from torch_investigate.agent.cli.main import app  # noqa: E402
from torch_investigate.agent.core.toolbox import TOOLS  # noqa: E402
from torch_investigate.tools.records import Report  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "not_learning"
INVESTIGATE = [sys.executable, "-m", "torch_investigate.agent.cli"]
SERVER = [*INVESTIGATE, "mcp", "--steps", "40"]
STEP_TOOLS = [t.name for t in TOOLS]
EXPECTED_TOOLS = {"investigate", "static_check", "findings", *STEP_TOOLS}


@pytest.fixture
def anyio_backend():
    return "asyncio"


def leftovers(tmp: Path) -> list[str]:
    """Workspace copies and sandboxes the server left in its TMPDIR."""
    return sorted(p.name for p in tmp.iterdir() if p.name.startswith("ti-"))


@asynccontextmanager
async def connect(tmp_path: Path, mode: str = "legacy"):
    """A client on a fresh server whose temporary files go to tmp_path/tmp."""
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    params = StdioServerParameters(
        command=SERVER[0], args=SERVER[1:], cwd=str(ROOT), env={"TMPDIR": str(tmp)}
    )
    async with Client(params, mode=mode, read_timeout_seconds=600) as client:
        yield client


def text(result) -> str:
    assert len(result.content) == 1 and result.content[0].type == "text"
    return result.content[0].text


# ---- the handshake, the tool list, bad input and refusals -------------------------------------


@pytest.mark.anyio
async def test_initialize_lists_the_tools_with_their_declared_schemas(tmp_path):
    async with connect(tmp_path) as client:  # mode="legacy": the initialize handshake
        assert client.server_info.name == "torch-investigate"
        assert client.server_capabilities.tools is not None
        assert client.server_capabilities.resources is not None
        assert "run_stage_checks" in client.instructions
        listed = {t.name: t for t in (await client.list_tools()).tools}
    assert set(listed) == EXPECTED_TOOLS
    for tool in TOOLS:  # the toolbox declarations themselves, plus `repo`
        schema = listed[tool.name].input_schema
        declared = tool.args.model_json_schema()
        assert schema["type"] == "object"
        assert schema["required"] == ["repo", *declared.get("required", [])]
        assert schema["properties"].pop("repo")["type"] == "string"
        assert schema["properties"] == declared["properties"]
        assert listed[tool.name].description == tool.description
    investigate = listed["investigate"].input_schema
    assert investigate["required"] == ["repo"]
    assert set(investigate["properties"]) == {"repo", "cmd", "fresh"}
    assert leftovers(tmp_path / "tmp") == []


@pytest.mark.anyio
async def test_bad_input_is_a_one_line_tool_error(tmp_path):
    async with connect(tmp_path, mode="auto") as client:  # the 2026 era, if negotiated
        missing = str(tmp_path / "missing")
        for name, extra in [
            ("investigate", {}), ("static_check", {}), ("findings", {}), ("read_code", {"target": "x.py"}),
        ]:  # fmt: skip
            result = await client.call_tool(name, {"repo": missing, **extra})
            assert result.is_error and text(result) == f"repo {missing} does not exist"
        result = await client.call_tool("run_stage_checks", {"stage": 1})
        assert result.is_error and "repo" in text(result)
        result = await client.call_tool("investigate", {"repo": str(EXAMPLE), "fresh": "often"})
        assert result.is_error and text(result).startswith("bad arguments for investigate: fresh")
        with pytest.raises(MCPError, match="unknown tool"):
            await client.call_tool("train_longer", {"repo": str(EXAMPLE)})
        assert (await client.list_resources()).resources == []


@pytest.mark.anyio
async def test_guardrail_refusals_come_back_as_tool_errors(tmp_path):
    before = tree_hash(EXAMPLE, caches=False)
    repo = str(EXAMPLE)
    async with connect(tmp_path) as client:
        lr = await client.call_tool(
            "propose_experiment",
            {"repo": repo, "kind": "lr", "description": "try lr x10", "distinguishes": "too slow"},
        )
        assert lr.is_error
        assert text(lr).startswith("refused (optimization_before_correctness)")
        assert "stages 1-7 are coherent" in text(lr) and "stage 1 (Symptom)" in text(lr)
        skip = await client.call_tool("run_stage_checks", {"repo": repo, "stage": 4})
        assert skip.is_error and text(skip).startswith("refused (stage_order)")
        early = await client.call_tool("finish", {"repo": repo, "root_cause": None})
        assert early.is_error and text(early).startswith("refused (finish_before_protocol)")
        found = json.loads(text(await client.call_tool("findings", {"repo": repo})))
        assert found == {"repo": repo, "current_stage": 1, "findings": []}  # nothing changed
        static = json.loads(text(await client.call_tool("static_check", {"repo": repo})))
        assert [f["category"] for f in static["findings"]] == ["softmax_before_ce"]
        assert {f["status"] for f in static["findings"]} == {"plausible"}
        code = await client.call_tool(
            "read_code", {"repo": repo, "target": "model.py:SpiralNet.forward"}
        )
        assert not code.is_error and "softmax" in text(code)
        (uri,) = [str(r.uri) for r in (await client.list_resources()).resources]
        assert uri == "report://" + repo
    assert leftovers(tmp_path / "tmp") == []
    assert tree_hash(EXAMPLE, caches=False) == before


# ---- an investigation, step by step and then with the built-in planner ------------------------


async def walk(client, repo: str, last: int) -> dict[int, str]:
    """What a client agent does: each stage's checks, their findings, a verdict."""
    verdicts = {}
    for stage in range(1, last + 1):
        checked = await client.call_tool("run_stage_checks", {"repo": repo, "stage": stage})
        assert not checked.is_error, text(checked)
        data = checked.structured_content["checks"]
        assert data["stage"] == stage and data["items"]
        for candidate in data["candidates"]:
            recorded = await client.call_tool(
                "record_finding", {"repo": repo, "candidate": candidate["id"]}
            )
            assert not recorded.is_error, text(recorded)
        outcomes = {item["outcome"] for item in data["items"].values()}
        if any(c["finding"]["status"] == "confirmed" for c in data["candidates"]):
            verdict = "defect"
        elif outcomes <= {"passed", "not_applicable"}:
            verdict = "coherent"
        else:
            verdict = "inconclusive"
        reason = f"stage {stage} checks: {sorted(outcomes)}"
        closed = await client.call_tool(
            "advance_stage", {"repo": repo, "stage": stage, "verdict": verdict, "reason": reason}
        )
        assert not closed.is_error, text(closed)
        verdicts[stage] = verdict
    return verdicts


@pytest.mark.anyio
async def test_step_by_step_then_investigate_finds_the_softmax(tmp_path):
    before = tree_hash(EXAMPLE, caches=False)
    repo = str(EXAMPLE)
    async with connect(tmp_path) as client:
        verdicts = await walk(client, repo, last=4)
        assert verdicts[4] == "defect"
        found = json.loads(text(await client.call_tool("findings", {"repo": repo})))
        assert found["current_stage"] == 5
        (softmax,) = [f for f in found["findings"] if f["category"] == "softmax_before_ce"]
        assert softmax["status"] == "confirmed"
        # stage 4 holds a confirmed defect: optimization advice stays refused
        lr = await client.call_tool(
            "propose_experiment",
            {"repo": repo, "kind": "lr", "description": "x10", "distinguishes": "step size"},
        )
        assert lr.is_error and "stage 4 (Loss) is defect" in text(lr)
        # the planner takes over from stage 5 and concludes
        result = await client.call_tool("investigate", {"repo": repo})
        assert not result.is_error, text(result)
        report = Report.model_validate_json(text(result))
        root = next(f for f in report.findings if f.id == report.root_cause)
        assert root.category == "softmax_before_ce" and root.status == "confirmed"
        assert (root.file, root.symbol) == ("model.py", "SpiralNet.forward")
        assert any(o.source == "intervention" for o in root.evidence)
        assert report.policy == "mcp+planner" and report.conclusion == "defects_found"
        assert report.stages[7].verdict == "not_examined"
        assert {n.kind for n in report.not_yet} >= {"lr", "optimizer", "model_size"}
        # the latest report is a resource
        (listed,) = (await client.list_resources()).resources
        assert str(listed.uri) == "report://" + repo and listed.mime_type == "application/json"
        read = await client.read_resource(listed.uri)
        assert json.loads(read.contents[0].text)["root_cause"] == report.root_cause
        with pytest.raises(MCPError, match="no session"):
            await client.read_resource("report:///no/such/repo")
        done = await client.call_tool("run_stage_checks", {"repo": repo, "stage": 5})
        assert done.is_error and "stage 5 is closed as coherent" in text(done)
    assert leftovers(tmp_path / "tmp") == []
    assert tree_hash(EXAMPLE, caches=False) == before


@pytest.mark.slow
@pytest.mark.anyio
async def test_investigate_returns_what_the_cli_reports(tmp_path):
    repo = str(EXAMPLE)
    cli = subprocess.run(
        [*INVESTIGATE, repo, "-f", "json", "-q", "--steps", "40"],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )  # fmt: skip
    expected = Report.model_validate_json(cli.stdout)
    async with connect(tmp_path) as client:
        result = await client.call_tool("investigate", {"repo": repo})
        again = await client.call_tool("investigate", {"repo": repo, "fresh": True})
    for got in (Report.model_validate_json(text(result)), Report.model_validate_json(text(again))):
        assert got.policy == "planner" and got.root_cause == expected.root_cause
        assert [(f.category, f.status) for f in got.findings] == [
            (f.category, f.status) for f in expected.findings
        ]
        assert [s.verdict for s in got.stages] == [s.verdict for s in expected.stages]
    assert leftovers(tmp_path / "tmp") == []


# ---- shutdown ----------------------------------------------------------------------------------


def test_sigterm_mid_run_removes_every_sandbox_and_workspace(tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    server = subprocess.Popen(
        SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=ROOT, env={**os.environ, "TMPDIR": str(tmp)}, text=True,
    )  # fmt: skip

    def send(message: dict) -> None:
        server.stdin.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
        server.stdin.flush()

    send({"id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"},
    }})  # fmt: skip
    assert (
        json.loads(server.stdout.readline())["result"]["serverInfo"]["name"] == "torch-investigate"
    )
    send({"method": "notifications/initialized"})
    send({"id": 2, "method": "tools/call", "params": {
        "name": "run_stage_checks", "arguments": {"repo": str(EXAMPLE), "stage": 1},
    }})  # fmt: skip
    deadline = time.monotonic() + 60
    while len(leftovers(tmp)) < 2 and time.monotonic() < deadline:  # the session is open
        time.sleep(0.2)
    assert {n.split("-")[1] for n in leftovers(tmp)} == {"sandbox", "workspace"}
    time.sleep(2)  # the baseline run is under way
    started = time.monotonic()
    server.send_signal(signal.SIGTERM)
    assert server.wait(timeout=30) == 0
    # a stdio client sends SIGKILL 2 s after SIGTERM; this is usually well under 1 s
    assert time.monotonic() - started < 5
    assert leftovers(tmp) == []
    assert server.stdout.read() == ""  # nothing but protocol on stdout, and no reply now
    assert "SIGTERM: closing every session" in server.stderr.read()


def test_the_readme_lists_every_tool():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## MCP") : readme.index("## Development")]
    rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    assert set(re.findall(r"`(\w+)`", " ".join(rows))) == EXPECTED_TOOLS


# ---- the command line --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--isolation", "moon"], "unknown isolation 'moon'"),
        (["--steps", "0"], "--steps must be at least 1"),
        (["--timeout", "0"], "--timeout must be positive"),
        ([], "needs the mcp package; install it with: "),
    ],
)
def test_cli_refuses_in_one_line_with_exit_2(args, message, monkeypatch):
    if not args:  # as without the mcp package installed
        monkeypatch.delitem(sys.modules, "torch_investigate.agent.mcp.server", raising=False)
        monkeypatch.setitem(sys.modules, "mcp", None)
    result = CliRunner().invoke(app, ["mcp", *args])
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("investigate: error: ") and message in line
