"""Progress while runs are in flight, in pieces: the tracer's progress file (rate limit,
atomic writes), the host's poller, and the display's lines (heartbeat rate, words,
one line each). The CLI end to end is in test_cli_progress.py."""

from __future__ import annotations

import io
import json
import threading
import time
from pathlib import Path

import pytest

from torch_investigate.agent.cli.progress import (
    MAX_WIDTH,
    PlainSink,
    Progress,
    heartbeat,
    one_line,
    run_name,
)
from torch_investigate.agent.core.runs import RunEvent
from torch_investigate.agent.core.tool_args import ToolResult
from torch_investigate.tools.records import Stage
from torch_investigate.tools.sandbox.progress import (
    ProgressPoller,
    RunProgress,
    progress_path,
    read_progress,
)
from torch_investigate.tools.trace.config import Config
from torch_investigate.tools.trace.progress import ProgressFile
from torch_investigate.tools.trace.recorder import Recorder

# ---- the tracer's progress file --------------------------------------------------------


def test_the_progress_file_is_written_at_most_once_per_interval(tmp_path):
    path = tmp_path / "trace.json.progress"
    progress = ProgressFile(str(path), interval_s=0.5)
    steps = iter(range(100))

    def snapshot() -> dict:
        return {"steps": next(steps), "forwards": 0, "phase": "train"}

    written = [
        t for t in (0.0, 0.1, 0.3, 0.49, 0.5, 0.7, 0.99, 1.0, 1.2) if progress.update(t, snapshot)
    ]
    assert written == [0.0, 0.5, 1.0]  # the first call writes, then one per 0.5 s
    assert json.loads(path.read_text()) == {"steps": 2, "forwards": 0, "phase": "train"}
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # the temporary file was renamed


def test_a_progress_file_that_cannot_be_written_turns_itself_off(tmp_path):
    progress = ProgressFile(str(tmp_path / "missing-dir" / "p"), interval_s=0.0)
    assert not progress.update(0.0, lambda: {"steps": 1})
    assert progress.path is None and not progress.update(5.0, lambda: {"steps": 2})


def test_the_recorder_writes_progress_from_its_budget_check(tmp_path):
    path = tmp_path / "trace.json.progress"
    rec = Recorder(Config(max_steps=10, progress_out=str(path), progress_interval_s=60))
    rec.counts["step"], rec.counts["forward"] = 3, 7
    rec.check_budget()
    assert read_progress(path) == RunProgress(steps=3, forwards=7, phase="train")
    rec.counts["step"] = 12  # past max_steps: fast-forward, but the interval has not passed
    rec.check_budget()
    assert read_progress(path).steps == 3 and rec.progress.writes == 1
    assert Recorder(Config()).progress.path is None  # off unless the caller asks


# ---- the host's reader and poller ------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    ['{"steps": 4, "forwards"', '{"steps": -1}', '{"phase": "hacked"}', "[1, 2]", " " * 5000],
    ids=["half", "negative", "phase", "list", "huge"],
)
def test_unreadable_progress_is_none(tmp_path, content):
    path = tmp_path / "p"
    path.write_text(content)
    assert read_progress(path) is None
    assert read_progress(tmp_path / "absent") is None


def test_the_poller_ticks_every_watch_until_it_is_unwatched(tmp_path):
    path = progress_path(tmp_path / "trace.json")
    assert path.name == "trace.json.progress"
    seen: list[RunProgress] = []
    poller = ProgressPoller(interval_s=0.05)
    watch = poller.watch(path, seen.append)
    _wait(lambda: len(seen) >= 2)
    assert seen[0] == RunProgress()  # before the tracer's first write: starting
    path.write_text(json.dumps({"steps": 5, "forwards": 6, "phase": "eval"}))
    _wait(lambda: seen[-1].steps == 5)
    assert seen[-1].phase == "eval"
    poller.unwatch(watch)
    _wait(lambda: not poller.polling)  # nothing watched: the thread ends
    count = len(seen)
    time.sleep(0.2)
    assert len(seen) == count
    with poller.watching(path, seen.append):  # a new watch starts a new thread
        _wait(lambda: len(seen) > count)
    poller.close()


def test_a_callback_that_raises_is_dropped_and_the_others_go_on(tmp_path):
    calls = {"bad": 0, "good": 0}

    def bad(_p):
        calls["bad"] += 1
        raise RuntimeError("display bug")

    poller = ProgressPoller(interval_s=0.02)
    poller.watch(tmp_path / "a", bad)
    poller.watch(tmp_path / "b", lambda _p: calls.__setitem__("good", calls["good"] + 1))
    _wait(lambda: calls["good"] >= 5)
    assert calls["bad"] == 1
    poller.close()
    assert not poller.polling


def _wait(condition, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


# ---- the display ---------------------------------------------------------------------------


def event(kind: str, seconds: float = 0.0, **fields) -> RunEvent:
    fields.setdefault("label", "baseline")
    return RunEvent(kind=kind, budget=200, seconds=seconds, **fields)


def plain(width: int = 100, heartbeat_s: float = 10.0) -> tuple[Progress, io.StringIO]:
    out = io.StringIO()
    return Progress(PlainSink(out, width), heartbeat_s=heartbeat_s), out


def test_plain_heartbeats_come_at_most_once_per_interval_per_run():
    progress, out = plain()
    progress.on_run(event("started"))
    for s in range(1, 26):
        progress.on_run(event("progress", s, steps=8 * s, phase="train"))
    progress.on_run(event("finished", 25.4, steps=216, status="completed"))
    progress.on_run(event("progress", 26, steps=216, phase="eval"))  # a late tick: dropped
    assert out.getvalue().splitlines() == [
        "  as written: started (200 steps)",
        "  as written: 80/200 steps, 10 s",
        "  as written: 160/200 steps, 20 s",
        "  as written: completed, 216 steps, 25.4 s",
    ]


def test_two_runs_in_flight_each_get_their_heartbeat():
    progress, out = plain(heartbeat_s=2)
    a = {"label": "lr_scale=0.1", "interventions": {"lr_scale": 0.1}}
    b = {
        "label": "fixed_batch,lr_scale=10",
        "interventions": {"fixed_batch": True, "lr_scale": 10.0},
    }
    progress.on_run(event("started", **a))
    progress.on_run(event("started", **b))
    for s in (1, 2, 3):
        progress.on_run(event("progress", s, steps=s, phase="train", **a))
        progress.on_run(event("progress", s, phase="starting", **b))
    lines = out.getvalue().splitlines()
    assert "  lr x0.1: 2/200 steps, 2 s" in lines
    assert "  fixed batch, lr x10: starting, 2 s" in lines
    assert len(lines) == 4


def test_run_names_and_heartbeats_read_as_words():
    assert run_name(event("started")) == "as written"
    probe = event("started", label="probe-2", interventions={"probe": True})
    assert run_name(probe) == "probe 2"
    odd = event("started", label="new_thing=3", interventions={"new_thing": 3})
    assert run_name(odd) == "new_thing=3"  # unknown interventions keep their key
    late = event("progress", 31.6, steps=216, phase="eval")
    assert heartbeat(late) == "as written: 216 steps (200 traced), evaluating, 32 s"


# stage 2's permutation test: four changes at once (its lines used to wrap over three)
PAIRING = {
    "label": "fixed_batch,holdout,fixed_pool=7,reference_lr=0.001,shuffle_targets",
    "interventions": {
        "fixed_batch": True, "holdout": True, "fixed_pool": 7, "reference_lr": 0.001,
        "shuffle_targets": True,
    },
}  # fmt: skip


def test_a_run_of_many_changes_is_one_short_line_named_as_the_legend_names_it():
    from torch_investigate.agent.render._interventions import run_name as legend_name
    from torch_investigate.tools.records import RunSummary

    progress, out = plain(width=MAX_WIDTH)
    progress.on_run(event("started", **PAIRING))
    progress.on_run(event("progress", 12, steps=60, phase="train", **PAIRING))
    progress.on_run(event("finished", 4.8, steps=120, status="stopped", **PAIRING))
    lines = out.getvalue().splitlines()
    name = "fixed batch, held-out, pool of 7, Adam lr 0.001, shuffled targets"
    assert lines == [
        f"  {name}: started (200 steps)",
        f"  {name}: 60/200 steps, 12 s",
        f"  {name}: stopped, 120 steps, 4.8 s",
    ]
    assert all(len(line) < 100 for line in lines)
    items = [k if v is True else f"{k}={v}" for k, v in PAIRING["interventions"].items()]
    plotted = RunSummary(label=PAIRING["label"], interventions=items, status="stopped")
    assert legend_name(plotted) == name  # the HTML legend's name for the same run


def test_a_name_too_long_for_the_width_is_cut_and_the_status_kept():
    progress, out = plain(width=60)
    many = {"label": "x", "interventions": {**PAIRING["interventions"], "no_clip": True}}
    progress.on_run(event("finished", 4.8, steps=120, status="stopped", **many))
    (line,) = out.getvalue().splitlines()
    assert len(line) <= 60 and line.endswith("…: stopped, 120 steps, 4.8 s"), line


def test_a_line_is_cut_between_words_never_wrapped():
    text = "stage 2 (Data): inconclusive - " + " ".join(f"word{i}" for i in range(40))
    line = one_line(text, 40)
    assert len(line) <= 40 and line.endswith("…")
    kept = line.removesuffix("…").split()
    assert kept == text.split()[: len(kept)]  # whole words, in order
    path = "/a/very/long/path/that/is/one/word/longer/than/the/width.py"
    assert one_line(f"crashed at {path}", 30) == "crashed at…"
    assert one_line(path, 30) == path[:29] + "…"
    assert one_line("short", 30, indent=2) == "  short"


class FakeProtocol:
    def __init__(self) -> None:
        from torch_investigate.tools.records import StageResult

        self.current: Stage | None = Stage.LOSS
        self.stages = {s: StageResult(stage=s, checklist=[]) for s in Stage}


def test_stage_lines_name_the_stage_its_verdict_and_reason():
    progress, out = plain(width=60)
    protocol = FakeProtocol()
    progress.follow(protocol)
    progress.before_call("run_stage_checks", {"stage": 4})
    progress.before_call("run_stage_checks", {"stage": 4})  # once per stage
    progress.before_call("advance_stage", {"verdict": "defect"})
    protocol.stages[Stage.LOSS].verdict = "defect"
    protocol.stages[Stage.LOSS].reason = "confirmed: F1 softmax_before_ce"
    protocol.stages[Stage.OPTIMIZATION].verdict = "not_examined"
    protocol.stages[Stage.OPTIMIZATION].reason = "not examined: stage 4 (Loss) is defect"
    protocol.current = None
    progress.after_call("advance_stage", {}, ToolResult(ok=True, text="closed"))
    assert out.getvalue().splitlines() == [
        "stage 4 (Loss): checking",
        "stage 4 (Loss): defect - confirmed: F1 softmax_before_ce",
        "stage 8 (Optimization choices): not examined - stage 4…",
    ]


def test_llm_calls_share_the_stream_only_for_an_llm_run():
    refused = ToolResult(ok=False, text="no", error="refused", rule="stage_order")
    progress, out = plain()
    progress.after_call("run_stage_checks", {}, refused)
    assert out.getvalue() == ""
    progress.llm = True
    progress.after_call("run_stage_checks", {}, refused)
    assert out.getvalue() == "  [llm] run_stage_checks refused (stage_order)\n"


def test_quiet_means_no_display_and_a_pipe_means_plain_lines(monkeypatch):
    assert Progress.open(True) is None
    monkeypatch.setenv("TI_HEARTBEAT_S", "2")
    monkeypatch.setenv("COLUMNS", "70")
    progress = Progress.open(False, stream=io.StringIO())
    assert isinstance(progress.sink, PlainSink) and progress.sink.width == 70
    assert progress.heartbeat_s == 2 and not progress.live
    monkeypatch.setenv("COLUMNS", "200")  # a wide terminal: still under 100 characters
    assert Progress.open(False, stream=io.StringIO()).sink.width == MAX_WIDTH


def test_the_display_takes_events_from_many_threads():
    progress, out = plain(heartbeat_s=0.5)
    labels = [f"lr_scale={i}" for i in range(8)]

    def one_run(label: str) -> None:
        iv = {"label": label, "interventions": {"lr_scale": label.split("=")[1]}}
        progress.on_run(event("started", **iv))
        for s in range(20):
            progress.on_run(event("progress", s / 10, steps=s, phase="train", **iv))
        progress.on_run(event("finished", 2.0, steps=20, status="stopped", **iv))

    threads = [threading.Thread(target=one_run, args=(label,)) for label in labels]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lines = out.getvalue().splitlines()
    assert sum(line.endswith("stopped, 20 steps, 2.0 s") for line in lines) == 8
    assert all(line.startswith("  lr x") for line in lines)  # none interleaved


def test_the_trace_config_declares_the_progress_keys():
    cfg = Config.from_dict({"progress_out": "/x/trace.json.progress", "progress_interval_s": 0.2})
    assert cfg.progress_out.endswith(".progress") and cfg.progress_interval_s == 0.2
    assert Path(cfg.progress_out).name == progress_path(Path("/x/trace.json")).name
