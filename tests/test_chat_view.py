"""The chat's text pieces without a terminal: wrapping, the one-line tool results, the
Markdown transcript, the report's pages."""

import io

from rich.console import Console

from torch_investigate.agent.chat.pager import page, terminal_lines
from torch_investigate.agent.chat.transcript import TranscriptFile, markdown
from torch_investigate.agent.chat.view import tool_line, wrap_text
from torch_investigate.agent.core.tool_args import ItemResult, StageChecks, ToolError, ToolResult


def test_wrapping_breaks_between_words_and_keeps_indents():
    text = "  - " + "word " * 30 + "\nshort line\n" + "x" * 90
    wrapped = wrap_text(text, 40).splitlines()
    assert all(len(ln) <= 40 for ln in wrapped if not ln.startswith("x"))
    assert wrapped[0].startswith("  - word") and wrapped[1].startswith("    word")
    assert "short line" in wrapped and "x" * 90 in wrapped  # a long word stays whole
    assert " ".join(wrap_text("a " * 50, 10).split()) == " ".join(("a " * 50).split())


def test_tool_lines_say_what_came_back():
    checks = StageChecks(
        stage=4,
        items={
            "output_semantics": ItemResult(outcome="failed", detail="softmax", evidence_id="E1"),
            "argument_order": ItemResult(outcome="passed", detail="ok", evidence_id="E2"),
        },
        candidates=[],
    )
    result = ToolResult(ok=True, text="Stage 4 (Loss) checks:\n...", checks=checks)
    assert tool_line(None, "run_stage_checks", {"stage": 4}, result) == (
        "run_stage_checks(stage=4): 2 items, 1 failed, candidates none"
    )
    refused = ToolResult(ok=False, text="stage 5 is not current", error=ToolError.refused, rule="r")
    assert tool_line(None, "run_stage_checks", {"stage": 5}, refused) == (
        "run_stage_checks(stage=5): refused (r): stage 5 is not current"
    )
    code = ToolResult(ok=True, text="model.py:1-2 (of 2 lines)\n   1 | import torch\n   2 | x = 1")
    assert tool_line(None, "read_code", {"target": "model.py"}, code).endswith(": 2 lines")


def test_the_markdown_transcript_labels_command_output_and_fences_it_safely(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    record = TranscriptFile(repo, None, tmp_path / "out" / "chat.md")
    assert record.path.name == "chat.json" and record.markdown_path.name == "chat.md"
    record.add("person", "/read model.py")
    record.add("output", "x = '```'\n````", command="/read model.py")
    record.add("note", "session ended")
    saved = record.save()
    assert saved == tmp_path / "out" / "chat.md" and (tmp_path / "out" / "chat.json").is_file()
    text = saved.read_text()
    assert (
        "**Output of `/read model.py`** (the tool's output, not the investigator's words)" in text
    )
    assert "`````text\nx = '```'\n````\n`````" in text
    assert markdown(record.transcript).startswith(f"# Chat on {repo}")


def test_a_report_is_drawn_and_paged_off_a_terminal():
    lines = terminal_lines("# Title\n\n" + "A paragraph that is long enough. " * 20, 60)
    assert all(len(ln) <= 60 for ln in lines) and not any(ln.startswith("#") for ln in lines)
    out = io.StringIO()
    page(Console(file=out, width=80), [f"line {i}" for i in range(250)], interactive=False)
    shown = out.getvalue().splitlines()
    assert shown[199] == "line 199" and "50 more lines" in shown[200] and len(shown) == 201
