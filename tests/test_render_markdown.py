"""The Markdown report: what a person reads after `investigate PATH`."""

from __future__ import annotations

import re

import pytest
from conftest import load_report as load
from conftest import markdown_section as section

from torch_investigate.agent.render import render
from torch_investigate.agent.render.markdown import md, to_markdown
from torch_investigate.tools.records import Finding, Observation, RunSummary, Stage

SECTIONS = [
    "## Stages",
    "## Findings",
    "## A. Most likely root cause",
    "## B. Confirmed defects",
    "## C. Plausible but unproven causes",
    "## D. Experiments to run next, ordered by information value",
    "## E. Changes NOT to attempt yet",
    "## Runs",
    "## Git",
]
FINDING_LABELS = [
    "**Category:**",
    "**Stage:**",
    "**Status:**",
    "**Confidence:**",
    "**Where:**",
    "**Observed evidence:**",
    "**Why it breaks learning:**",
    "**Smallest test or change that confirms it:**",
]


def finding_block(text: str, finding_id: str) -> str:
    start = text.index(f"### {finding_id}: ")
    nxt = re.search(r"\n#{2,3} ", text[start + 4 :])
    return text[start : start + 4 + nxt.start()] if nxt else text[start:]


@pytest.mark.parametrize("name", ["buggy", "healthy", "inconclusive", "static_only"])
def test_every_section_present_in_order(name: str) -> None:
    text = to_markdown(load(name))
    positions = [text.index(h + "\n") for h in SECTIONS]
    assert positions == sorted(positions)
    assert text.startswith("# torch-investigate: ")
    assert render(load(name), "md") == text


def test_header_names_command_source_isolation_symptom_conclusion_time() -> None:
    head = to_markdown(load("buggy")).split("## Stages")[0]
    assert "`python train.py --epochs 2`, chosen from `README.md:12`" in head
    assert "the README's Training section runs this command" in head
    assert "**Isolation:** `bwrap`" in head
    assert "`flat_loss` (loss does not move from its initial value)" in head
    assert "chance level is ln(4) = 1.386" in head
    assert "**Conclusion:** `defects_found`: one confirmed defect in stage 4" in head
    assert "**Total time:** 13.1 s" in head


def test_every_finding_shows_every_field() -> None:
    report = load("buggy")
    text = to_markdown(report)
    for f in report.findings:
        block = finding_block(text, f.id)
        assert md(f.title) in block
        if f.status == "refuted":
            continue
        for label in FINDING_LABELS:
            assert label in block, (f.id, label)
        assert f"**Status:** {f.status}" in block
        assert f"**Confidence:** {f.confidence}" in block
        assert f"**Stage:** {f.stage.value} {f.stage.title}" in block
        for obs in f.evidence:
            assert f"[{obs.source}]" in block
    f1 = finding_block(text, "F1")
    assert "**Where:** `model.py:41 (Net.forward)`" in f1
    assert "[intervention] stripping the softmax before the loss" in f1
    assert "at `train.py:88 (train_one_epoch)`" in f1  # the observation's own location
    assert "(root cause)" in f1.splitlines()[0]
    f3 = finding_block(text, "F3")
    assert "**Where:** not located in a file" in f3


def test_findings_ordered_confirmed_plausible_refuted() -> None:
    findings = section(to_markdown(load("buggy")), "## Findings")
    order = [m.group(1) for m in re.finditer(r"^### (F\d+):", findings, re.M)]
    assert order == ["F1", "F2", "F3", "F4"]
    refuted = finding_block(findings, "F4")
    assert "**Status:** refuted" in refuted
    assert "**Why it was suspected:**" in refuted
    assert "re-enabled at train.py:40" in refuted  # the evidence that refuted it


def test_sections_a_to_e_for_a_buggy_repo() -> None:
    text = to_markdown(load("buggy"))
    a = section(text, "## A. Most likely root cause")
    assert a.startswith("**F1: probabilities")
    assert "`model.py:41 (Net.forward)`" in a
    assert "takes the loss from 1.386 to 0.004" in a
    b = section(text, "## B. Confirmed defects")
    assert "**F1**" in b and "F2" not in b and "F4" not in b
    c = section(text, "## C. Plausible but unproven causes")
    assert "**F2**" in c and "**F3**" in c and "F1" not in c
    d = section(text, "## D. Experiments to run next, ordered by information value")
    lines = d.splitlines()
    assert lines[0].startswith("1. **Drop the softmax")
    assert lines[1].startswith("2. **Record .grad")
    assert "Distinguishes: F1 alone vs F1 plus another defect" in lines[0]
    e = section(text, "## E. Changes NOT to attempt yet")
    assert "**Raise the learning rate** [lr]" in e
    assert "Blocked by: F1, F2." in e


def test_empty_sections_say_none() -> None:
    text = to_markdown(load("healthy"))
    for heading in [
        "## B. Confirmed defects",
        "## C. Plausible but unproven causes",
        "## D. Experiments to run next, ordered by information value",
        "## E. Changes NOT to attempt yet",
        "## Findings",
    ]:
        assert section(text, heading).lower().startswith("none"), heading


def test_healthy_report_lists_passed_checks_with_their_evidence() -> None:
    report = load("healthy")
    text = to_markdown(report)
    stages = section(text, "## Stages")
    for stage in report.stages:
        for item in stage.checklist:
            assert item.outcome == "passed"
            line = next(ln for ln in stages.splitlines() if f"`{item.id}`" in ln and "PASS" in ln)
            assert item.detail.replace("*", "\\*") in line
    a = section(text, "## A. Most likely root cause")
    assert a.startswith("None: no defect was found.")
    checks = sum(len(s.checklist) for s in report.stages)
    assert f"{checks} of {checks} checks passed" in a
    assert "looks fine" not in text.lower()


def test_stage_8_not_examined_says_why() -> None:
    text = to_markdown(load("inconclusive"))  # its stage 8 carries no reason of its own
    row = next(ln for ln in text.splitlines() if ln.startswith("| 8 |"))
    assert "not_examined" in row
    assert "only inspected after stages 1-7 are coherent" in row


def test_inconclusive_report_says_why_there_is_no_root_cause() -> None:
    text = to_markdown(load("inconclusive"))
    a = section(text, "## A. Most likely root cause")
    assert a.startswith("No root cause can be named: the investigation is inconclusive.")
    assert "wandb" in a
    runs = section(text, "## Runs")
    row = next(ln for ln in runs.splitlines() if ln.startswith("| as written"))
    assert "crashed" in row and "| — | — | — |" in row
    assert "ModuleNotFoundError" in runs
    skipped = [ln for ln in section(text, "## Stages").splitlines() if "**SKIP**" in ln]
    assert skipped and all("crashed before the first step" in ln for ln in skipped)


def test_static_only_report_says_nothing_ran() -> None:
    text = to_markdown(load("static_only"))
    head = text.split("## Stages")[0]
    assert "**Command:** none ran: no training entry found" in head
    assert "**Isolation:** `none`, none: nothing from the repo was executed" in head
    assert "**Symptom:** not established" in head
    assert section(text, "## Runs").startswith("None: the training path was not run.")
    assert section(text, "## Git") == "Not a git repository."
    assert "`src/my model/model.py:30 (Classifier.forward)`" in text
    b = section(text, "## B. Confirmed defects")
    assert b.startswith("None")


def test_repo_text_is_escaped() -> None:
    text = to_markdown(load("buggy"))
    # Outside code spans (where `<` is literal anyway) no `<` that could open HTML may
    # stay unescaped.
    prose = re.sub(r"(?<!\\)`[^`]*`", "", text)
    assert re.search(r"(?<!\\)<(?=[A-Za-z/!?])", prose) is None
    assert "# torch-investigate: examples/rings`<bars>`" in text
    assert "`<script>`alert('x')\\</script>" in text


def test_prose_reads_as_plain_text_too() -> None:
    """On a pipe or in a log the Markdown is read as it is: no backslash where Markdown
    would not misread the text, commands and symbols as code spans."""
    assert (
        md("reaches the loop at train.py:22 (<module>)")
        == "reaches the loop at train.py:22 (`<module>`)"
    )
    assert (
        md("identified: `python train.py` (README.md:8)")
        == "identified: `python train.py` (README.md:8)"
    )
    assert (
        md("switch the optimizer (e.g. SGD <-> Adam); p < 0.5")
        == "switch the optimizer (e.g. SGD <-> Adam); p < 0.5"
    )
    assert md("C:\\data\\x.csv") == "C:\\data\\x.csv"
    assert md("a * b, a*b, one ` alone") == "a \\* b, a\\*b, one \\` alone"
    assert md("<img src=x onerror=alert(1)>") == "\\<img src=x onerror=alert(1)>"


def test_table_cells_escape_pipes() -> None:
    report = load("buggy")
    report.runs.append(RunSummary(label="a|b", status="completed", steps=1, losses=[0.5]))
    runs = section(to_markdown(report), "## Runs")
    row = next(ln for ln in runs.splitlines() if "a\\|b" in ln)
    assert len(re.findall(r"(?<!\\)\|", row)) == 8  # 7 columns


def test_numbers_have_four_significant_digits() -> None:
    runs = section(to_markdown(load("buggy")), "## Runs")
    assert "| 1.386 | 1.384 |" in runs
    assert "5.725e+05" in runs  # the diverging run's settled loss
    assert "0.00519" in runs


def test_root_cause_id_without_a_finding_is_said_plainly() -> None:
    report = load("buggy").model_copy(update={"root_cause": "F9"})
    a = section(to_markdown(report), "## A. Most likely root cause")
    assert "names F9 as the root cause, but no finding has that id" in a


def test_static_only_no_defect_report_warns_it_is_not_a_clean_bill() -> None:
    report = load("static_only").model_copy(
        update={"findings": [], "conclusion": "no_defect_found", "conclusion_reason": ""}
    )
    a = section(to_markdown(report), "## A. Most likely root cause")
    assert "0 of them on runtime evidence" in a
    assert "not a clean bill of health" in a


def test_finding_without_evidence_says_so() -> None:
    report = load("healthy")
    report.findings.append(
        Finding(
            id="F1",
            category="lr_too_low",
            stage=Stage.OPTIMIZATION,
            status="plausible",
            confidence="low",
            evidence=[],
            why="tiny steps",
            confirm="lr sweep",
        )
    )
    block = finding_block(to_markdown(report), "F1")
    assert "**Observed evidence:**\n  - none recorded" in block


def test_observation_values_are_rendered_compactly() -> None:
    report = load("healthy")
    report.findings.append(
        Finding(
            id="F1",
            category="lr_too_low",
            stage=Stage.OPTIMIZATION,
            status="plausible",
            confidence="low",
            evidence=[
                Observation(source="runtime", text="lr", values={"lr": 1.234567e-7, "steps": 3})
            ],
            why="tiny steps",
            confirm="lr sweep",
        )
    )
    assert "(lr=1.235e-07, steps=3)" in finding_block(to_markdown(report), "F1")


def test_render_rejects_an_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown report format 'pdf'"):
        render(load("healthy"), "pdf")  # type: ignore[arg-type]


@pytest.mark.parametrize("fmt", ["md", "json", "sarif", "html"])
def test_rendering_is_deterministic(fmt: str) -> None:
    assert render(load("buggy"), fmt) == render(load("buggy"), fmt)  # type: ignore[arg-type]
