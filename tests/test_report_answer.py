"""The answer first, in every format; interventions in words; one number for one thing;
the Markdown report drawn for a terminal. Fast: rendered from the saved fixtures and
from hand-made runs (tests/test_cli.py checks the same on real investigations)."""

from __future__ import annotations

import io
import json
import math
import re
from dataclasses import fields
from types import SimpleNamespace

import jsonschema
import pytest
from conftest import load_report as load
from conftest import markdown_section as section

from torch_investigate.agent.checks.effects import compare
from torch_investigate.agent.core.answer import NO_DEFECT, summarize
from torch_investigate.agent.core.curves import curve_stats, final_level
from torch_investigate.agent.core.runs import Run
from torch_investigate.agent.render import render
from torch_investigate.agent.render._interventions import (
    INTERVENTIONS,
    change_name,
    change_words,
    run_name,
    run_title,
)
from torch_investigate.agent.render.terminal import print_markdown
from torch_investigate.tools.records import (
    Finding,
    Observation,
    Report,
    RunSummary,
    Stage,
    report_json_schema,
)
from torch_investigate.tools.trace.config import Interventions

NAMES = ["buggy", "healthy", "inconclusive", "static_only"]


def suspected_only(conclusion: str = "no_defect_found") -> Report:
    """A healthy run with one static suspicion the planner named as the root cause."""
    report = load("healthy")
    report.findings.append(
        Finding(
            id="F1", category="lr_too_low", stage=Stage.OPTIMIZATION, status="plausible",
            confidence="medium", file="train.py", line=9, symbol="main",
            evidence=[Observation(id="E1", source="static", text="lr=1e-6")],
            why="tiny steps", confirm="an lr sweep",
        )
    )  # fmt: skip
    return report.model_copy(update={"root_cause": "F1", "conclusion": conclusion})


# ---- the answer first ------------------------------------------------------------------


def test_markdown_head_names_the_root_cause_with_file_line_why_and_number() -> None:
    head = "\n".join(render(load("buggy"), "md").splitlines()[:12])
    assert "**Root cause:** `softmax_before_ce` at `model.py:41` in `Net.forward`" in head
    assert "**Why it breaks learning:** CrossEntropyLoss applies log_softmax itself" in head
    # the fixture's observations carry no ids, so the label names none
    assert "**Confirmed by:** stripping the softmax before the loss: loss 1.386 -> 0.004" in head


def test_summary_of_a_confirmed_root_cause() -> None:
    s = summarize(load("buggy"))
    assert s.verdict == "root_cause"
    assert s.headline.startswith("Root cause: softmax_before_ce at model.py:41 (Net.forward): ")
    assert s.root_cause is not None
    assert (s.root_cause.id, s.root_cause.file, s.root_cause.line) == ("F1", "model.py", 41)
    assert s.confirming.startswith("stripping the softmax before the loss")  # the intervention
    assert s.suspected is None and s.reason == ""


def test_healthy_head_says_no_defect_and_section_a_holds_no_root_cause() -> None:
    text = render(load("healthy"), "md")
    assert "**No defect found:** every runtime check passed." in text.splitlines()[2]
    a = section(text, "## A. Most likely root cause")
    assert "root cause" not in a.lower() and "**F" not in a
    s = summarize(load("healthy"))
    assert (s.verdict, s.headline, s.root_cause) == ("no_defect_found", NO_DEFECT, None)


@pytest.mark.parametrize("conclusion", ["no_defect_found", "inconclusive"])
def test_a_suspicion_is_never_the_root_cause(conclusion: str) -> None:
    report = suspected_only(conclusion)
    s = summarize(report)
    assert s.root_cause is None and s.suspected is not None and s.suspected.id == "F1"
    assert s.headline.endswith(
        "Suspected, not confirmed: F1 lr_too_low at train.py:9 (main) (section C)."
    )
    text = render(report, "md")
    a = section(text, "## A. Most likely root cause")
    assert "**F1" not in a and "(root cause)" not in text
    assert "Suspected, not confirmed: F1" in a or "Plausible but unproven: F1" in a
    c = section(text, "## C. Plausible but unproven causes")
    assert "**F1**" in c and "suspected root cause, not confirmed" in c
    assert "**Suspected, not confirmed:** F1 `lr_too_low` at `train.py:9`" in text
    html = render(report, "html")
    assert '<section id="section-a">' in html
    a_html = html[html.index('<section id="section-a">') : html.index('<section id="section-b">')]
    assert "finding-F1" not in a_html and "(root cause)" not in html


def test_inconclusive_head_gives_the_one_line_reason() -> None:
    s = summarize(load("inconclusive"))
    assert s.verdict == "inconclusive"
    assert s.headline.startswith("Inconclusive: the training path could not run: ")
    assert "wandb" in s.headline and "\n" not in s.headline
    assert render(load("inconclusive"), "md").splitlines()[2].startswith("**Inconclusive:**")
    static = summarize(load("static_only"))
    assert static.headline.startswith("Inconclusive: no training entry found")
    assert static.suspected is not None and static.suspected.id == "F1"


@pytest.mark.parametrize("name", NAMES)
def test_summary_validates_against_the_schema_and_round_trips(name: str) -> None:
    report = load(name)
    report.summary = summarize(report)
    document = json.loads(render(report, "json"))
    assert document["summary"]["headline"] == report.summary.headline
    errors = list(jsonschema.Draft202012Validator(report_json_schema()).iter_errors(document))
    assert not errors, [e.message for e in errors]
    assert Report.model_validate(document) == report


def test_html_root_cause_card_comes_before_any_plot() -> None:
    html = render(load("buggy"), "html")
    answer, card, plot = (
        html.index('id="answer"'),
        html.index('id="finding-F1"'),
        html.index("<svg"),
    )
    assert answer < card < plot
    assert html.count('id="finding-F1"') == 1  # the Findings section points to it
    assert "Root cause:</b> <code>softmax_before_ce</code> at <code>model.py:41</code>" in html


def test_sarif_carries_the_headline() -> None:
    run = json.loads(render(load("buggy"), "sarif"))["runs"][0]
    assert run["properties"]["summary"].startswith("Root cause: softmax_before_ce")


# ---- interventions in words ------------------------------------------------------------


def test_every_tracer_intervention_has_words() -> None:
    assert {f.name for f in fields(Interventions)} == set(INTERVENTIONS)
    shorts = [naming.short for naming in INTERVENTIONS.values()]
    assert len(set(shorts)) == len(shorts)  # no two changes share a short name
    for key, naming in INTERVENTIONS.items():  # a short name takes the value its words take
        assert ("{value}" in naming.short) == ("{value}" in naming.words), key
        assert len(naming.short) <= 24, key


def test_intervention_words_and_fallback() -> None:
    assert change_words("zero_grad_before_backward") == "gradients zeroed before each backward"
    assert change_words("lr_scale=0.1") == "learning rate x0.1"
    assert change_words("scale_lr:100") == "scale_lr:100"  # unknown: the key itself
    run = RunSummary(label="x", interventions=["fixed_batch", "lr_scale=0.1"], status="stopped")
    assert run_title(run) == "with one fixed batch, learning rate x0.1"
    assert run_title(RunSummary(label="baseline", status="completed")) == "as written"
    assert change_name("lr_scale=10.0") == "lr x10" and change_name("scale_lr:1") == "scale_lr:1"
    assert run_name(run) == "fixed batch, lr x0.1"
    assert run_name(RunSummary(label="baseline", status="completed")) == "as written"


def test_no_known_intervention_key_appears_raw_in_html() -> None:
    report = load("healthy")
    for key in INTERVENTIONS:
        value = "=0.1" if "{value}" in INTERVENTIONS[key].words else ""
        report.runs.append(
            RunSummary(label=key + value, interventions=[key + value], status="stopped",
                       steps=3, losses=[1.0, 0.9, 0.8])
        )  # fmt: skip
    for fmt in ("html", "md"):
        text = render(report, fmt)  # type: ignore[arg-type]
        raw = [k for k in INTERVENTIONS if re.search(rf"\b{k}\b", text)]
        assert not raw, (fmt, raw)
    assert "with the softmax before the loss removed" in render(report, "html")


# ---- one number for one thing ----------------------------------------------------------


def _run(label: str, losses: list[float | None], interventions: dict | None = None) -> Run:
    trace = SimpleNamespace(
        raw_curve=lambda: list(losses),
        optimizer_curve=lambda index: list(losses),
        status="completed",
        n_steps=len(losses),
        stop_reason="",
    )
    result = SimpleNamespace(failure=None, wall_s=1.0)
    return Run(label, interventions or {}, result, trace)  # type: ignore[arg-type]


def test_runs_table_states_the_numbers_the_intervention_finding_states() -> None:
    base = _run("baseline", [1.1 - 0.001 * i for i in range(216)])
    iv = _run("strip_prob", [1.0 * 0.99**i for i in range(120)], {"strip_prob": True})
    effect = compare(base, iv, "with the softmax stripped")
    row = iv.summary(base)
    assert (row.settled_loss, row.baseline_settled_loss) == (effect.iv_final, effect.base_final)
    assert row.compared_steps == 120
    assert base.summary().first_loss == effect.first == 1.1
    report = Report(repo="r", stages=[], findings=[], conclusion="inconclusive",
                    runs=[base.summary(), row])  # fmt: skip
    runs = section(render(report, "md"), "## Runs")
    number = re.search(r"falls to (\S+) instead of (\S+) as written", effect.text)
    assert number is not None
    assert f"| {number.group(1)} | {number.group(2)} (120 steps) |" in runs
    assert "settled = the median of the last tenth" in runs


def test_symptom_text_states_first_and_settled_like_the_runs_table() -> None:
    raw = [2.0, float("nan")] + [1.5 - 0.002 * i for i in range(100)]
    stats = curve_stats(raw)
    assert stats is not None
    assert stats.first_recorded == 2.0 and stats.settled == final_level(raw)
    assert stats.first != stats.first_recorded  # the verdicts keep their smoothed ends
    assert math.isclose(stats.settled_drop, (2.0 - stats.settled) / 2.0)


def test_an_older_report_gets_the_same_numbers_from_its_losses() -> None:
    runs = section(render(load("buggy"), "md"), "## Runs")
    assert "| as written | completed | 60 | 1.386 | 1.384 | — |" in runs


# ---- Markdown for a terminal -----------------------------------------------------------


def _words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9_]+", text))


@pytest.mark.parametrize("width", [100, 80, 60])
@pytest.mark.parametrize("name", ["buggy", "healthy"])
def test_terminal_markdown_has_no_escapes_and_no_word_cut(name: str, width: int) -> None:
    text = render(load(name), "md")
    buf = io.StringIO()
    print_markdown(text, buf, width)
    drawn = buf.getvalue()
    assert "\\<" not in drawn and "\\*" not in drawn and "**" not in drawn
    assert all(len(line) <= width for line in drawn.splitlines())
    source = _words(text)
    cut = [w for w in re.findall(r"[A-Za-z0-9_]+", drawn) if w not in source]
    assert not cut, cut[:10]
    top = "\n".join(ln for ln in drawn.splitlines()[:8])
    assert ("Root cause:" in top) if name == "buggy" else ("No defect found:" in top)
