"""`--help` as a new user reads it: usage as the README writes it, flags without a type,
every option described, and each default the one the settings apply (read from them,
so the two cannot drift: review mode's 30 model requests, not the walk's 80)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from torch_investigate.agent.bisect.search import BisectOptions
from torch_investigate.agent.cli.main import app
from torch_investigate.agent.core.session import Options
from torch_investigate.agent.llm.options import LLMOptions
from torch_investigate.agent.llm.settings import LLMSettings

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ["run", "fix", "chat", "bench", "seed", "replay", "bisect", "mcp", "schema"]


def help_text(*args: str) -> str:
    result = CliRunner().invoke(app, [*args, "--help"], prog_name="investigate",
                                env={"COLUMNS": "300", "TERMINAL_WIDTH": "300"})  # fmt: skip
    assert result.exit_code == 0, result.output
    return result.output


def options(text: str) -> dict[str, str]:
    """Each option's row, its continuation lines joined: {'--steps': 'N optimizer ...'}."""
    rows: dict[str, str] = {}
    last = None
    for line in text.splitlines():
        cells = line.strip("│ \n").replace("│", " ")
        found = re.match(r"\*?\s*(--[a-z0-9-]+)(.*)", cells)
        if found:
            last = found[1]
            rows[last] = found[2]
        elif last and line.startswith("│") and cells.strip():
            rows[last] += " " + cells
    return {flag: " ".join(rest.split()) for flag, rest in rows.items()}


def llm_default(name: str):
    return LLMSettings.model_fields[name].default


def test_defaults_in_the_help_are_the_settings_defaults():
    review = LLMOptions.model_fields["REVIEW_STEPS"].default
    walk = llm_default("max_steps")
    assert review != walk  # the help once said the walk's number for review mode
    run = options(help_text("run"))
    assert f"(default {review} with --mode review, {walk} with --mode walk)" in run["--max-steps"]
    assert f"(default {Options().steps})" in run["--steps"]
    assert f"(default {Options().timeout_s:g})" in run["--timeout"]
    assert f"(default {Options().isolation})" in run["--isolation"]
    assert f"(default {llm_default('max_tokens'):,})" in run["--max-tokens"]
    assert f"(default {llm_default('max_cost_usd'):g})" in run["--max-cost"]
    assert f"(default {llm_default('max_failures')})" in run["--max-failures"]
    assert f"(default {llm_default('timeout_s'):g})" in run["--llm-timeout"]
    assert f"(default {LLMOptions.model_fields['mode'].default})" in run["--mode"]
    chat = options(help_text("chat"))  # the chat's model walks
    assert f"(default {walk})" in chat["--max-steps"]
    bisect = options(help_text("bisect"))
    assert f"(default {BisectOptions().steps})" in bisect["--steps"]
    assert f"(default {BisectOptions().timeout_s:g})" in bisect["--timeout"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_is_described_flags_have_no_type_and_usage_reads_plainly(command):
    text = help_text(command)
    usage = next(line for line in text.splitlines() if "Usage:" in line)
    assert "{" not in usage and "<" not in usage, usage
    assert "<bool>" not in text and "{" not in text  # every placeholder filled
    rows = options(text)
    for flag, row in rows.items():
        assert re.search(r"[a-z]{3,}", row), f"{command} {flag} is not described"
    if "--quiet" in rows:
        assert rows["--quiet"].startswith("-q no progress")


def test_top_level_flags_have_no_type():
    text = help_text()
    assert "<bool>" not in text
    assert options(text)["--version"] == "print the version"


def test_run_usage_names_the_path():
    usage = next(line for line in help_text("run").splitlines() if "Usage:" in line)
    assert usage.split() == ["Usage:", "investigate", "run", "[OPTIONS]", "PATH"]


def test_bisect_help_has_examples_and_exit_codes():
    text = help_text("bisect")
    assert "investigate bisect ./repo --good v1.2 --bad HEAD" in text
    codes = text[text.index("Exit codes:") :]
    for code in ("0", "2", "3"):
        assert re.search(rf"^\s*{code}\s+\w", codes, re.M), code


def test_no_arguments_is_usage_on_stderr_and_exit_2():
    env = {k: v for k, v in os.environ.items() if k != "TI_DEBUG"}
    done = subprocess.run([sys.executable, "-m", "torch_investigate.agent.cli"], cwd=ROOT,
                          capture_output=True, text=True, env=env, timeout=120)  # fmt: skip
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("usage: investigate PATH")
    assert "investigate --help" in done.stderr
