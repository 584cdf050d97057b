"""A crash raised by the instrumentation's own code is a tracer bug, never a finding about
the program; one raised by the program (through torch) is the program's."""

from torch_investigate.agent.checks.crash_origin import tracer_broke
from torch_investigate.tools.tracefile.records import ErrorInfo, Frame

TORCH = "/venv/lib/python3.11/site-packages/torch/nn/modules/module.py"
TRACER = "/tmp/ti-sandbox-x/runtime/_torch_investigate_trace/mode.py"


def _error(*files: str) -> ErrorInfo:
    return ErrorInfo(type="RuntimeError", frames=[Frame(file=f, line=1) for f in files])


def test_the_innermost_frame_outside_the_libraries_decides():
    assert tracer_broke(_error("train.py", TORCH, "model.py", TRACER, TORCH))
    assert not tracer_broke(_error("train.py", TRACER, TORCH, "model.py", TORCH))
    assert not tracer_broke(_error("train.py", "<frozen runpy>", "model.py"))
    assert not tracer_broke(_error())


def test_a_library_error_below_the_tracers_call_for_the_program_is_the_programs():
    # F.cross_entropy with a target out of range, called through the tracer's loss hook
    from pathlib import Path

    import torch_investigate.tools.trace as trace

    source = (Path(trace.__file__).parent / "loss_calls.py").read_text().splitlines()
    forwards = next(i for i, text in enumerate(source, 1) if "out = func(" in text)
    own = next(i for i, text in enumerate(source, 1) if text.strip().startswith("grad = "))
    staged = "/tmp/ti-sandbox-x/runtime/_torch_investigate_trace/loss_calls.py"

    def error(line: int) -> ErrorInfo:
        frames = [
            Frame(file="train.py", line=39),
            Frame(file=staged, line=line),
            Frame(file=TORCH, line=1),
        ]
        return ErrorInfo(type="IndexError", frames=frames)

    assert not tracer_broke(error(forwards))
    assert tracer_broke(error(own))


def test_no_check_reads_a_trace_the_instrumentation_broke():
    """A run the tracer's own code broke after a backward (a healthy program: one step,
    then our exception) must give no check a trace: its one backward without a step is
    our failure, never a `step_not_called` about the program."""
    from types import SimpleNamespace

    from torch_investigate.agent.checks.base import Evidence
    from torch_investigate.agent.checks.baseline import usable
    from torch_investigate.tools.records import Stage
    from torch_investigate.tools.tracefile.trace import Trace

    broken = ErrorInfo(
        type="NameError", frames=[Frame(file="train.py", line=3), Frame(file=TRACER, line=9)]
    )
    trace = Trace(format_version=1, status="error", error=broken, counts={"backward": 1})
    run = SimpleNamespace(trace=trace)
    session = SimpleNamespace(options=SimpleNamespace(static_only=False), baseline=lambda: run)
    ev = Evidence(Stage.OPTIMIZER)
    assert usable(session, ev, ("call_order",)) is None
    assert "instrumentation failed" in ev.items["call_order"][1]
    run.trace = trace.model_copy(
        update={"error": ErrorInfo(type="ValueError", frames=[Frame(file="train.py", line=3)])}
    )
    assert usable(session, Evidence(Stage.OPTIMIZER), ("call_order",)) is run.trace
