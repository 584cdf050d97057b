"""What a probe sees, through the real `openai` client (issue 20, points 8 and 11): the
model and the inputs it received come from the same training call (a frozen teacher is
called first here), the script's own functions are in scope as `program`, `loss_fn` is
the script's own loss when it takes more than a prediction and a target, and a probe that
raises says its error first."""

import pytest
from fakellm import Reply, call
from fakellm.helpers import ROOT, WalkedRepo

from torch_investigate.agent.core.tool_args import ToolError, ToolResult
from torch_investigate.agent.llm.progress import llm_line

TEACHER_STUDENT = ROOT / "tests" / "fixtures" / "llm" / "teacher_student"
SEEN = """\
print(type(model).__name__, tuple(inputs.shape), tuple(target.shape))
print(loss_fn is program.weighted_loss)
print(round(float(loss_fn(model(inputs), target, torch.ones(len(inputs)))), 6) ==
      round(float(program.F.mse_loss(model(inputs), target)), 6))
"""


@pytest.fixture(scope="module")
def walked():
    w = WalkedRepo(TEACHER_STUDENT)
    yield w
    w.close()


def test_a_probe_sees_the_trained_model_its_inputs_and_the_scripts_own_loss(walked):
    script = [
        Reply(tool_calls=[call("run_probe", code=SEEN)]),
        Reply(tool_calls=[call("run_probe", code="print('before')\nundefined_name + 1")]),
        Reply(tool_calls=[call("finish", root_cause=None, explanation="a healthy distillation")]),
    ]
    report, policy, server, recorder = walked.review(script, max_steps=3)
    assert not server.overruns
    # the tool's description tells the model what a probe can call
    (tool,) = [
        t["function"]
        for t in server.requests[0].body["tools"]
        if t["function"]["name"] == "run_probe"
    ]
    said = tool["parameters"]["properties"]["code"]["description"]
    assert "program (the training script's module" in said and "program.loss_function" in said
    assert "loss_fn (the script's own loss function if it takes more than" in said
    seen = server.requests[1].tool_results()[0]["content"]
    assert "Student (32, 6) (32, 1)\nTrue\nTrue" in seen
    assert "(loss_fn was the script's own weighted_loss(prediction, target, weight))" in seen
    # a probe that raised: its error comes first, in the tool result and the progress line
    failed = server.requests[2].tool_results()[0]["content"]
    assert failed.startswith("run_probe: error\n")
    body = failed.split("\n", 3)[3]  # past the head, the data label and the fence's opening
    assert body.startswith("error: NameError: name 'undefined_name' is not defined")
    step = [s for s in recorder.steps if s.tool == "run_probe"][-1]
    assert not step.ok and step.text.startswith("error: NameError")
    line, _ = llm_line("run_probe", ToolResult(ok=False, text=step.text, error=ToolError.failed))
    assert line.startswith("[llm] run_probe: error: NameError: name 'undefined_name'")


def test_a_probe_gets_the_time_it_asks_for_on_top_of_the_run(tmp_path):
    """A probe that asks for 600 s (`timeout_s`) is not stopped by the run's own 120 s
    wall (a recorded review lost its first probe so): the sandbox's wall and CPU limits and
    the tracer's budget grow by what the probe asked for."""
    from torch_investigate.agent.core.runs import Runner
    from torch_investigate.tools.sandbox import Limits, RunResult

    seen = {}

    class Sandbox:  # what Runner.probe hands the sandbox
        limits = Limits(wall_s=120, cpu_s=600)

        def run(self, argv, *, trace_config, label, env, limits, on_progress):
            seen.update(config=trace_config, limits=limits)
            return RunResult(
                run_id="001", label=label, exit_code=0, signal=None, timed_out=False,
                wall_s=1.0, stdout="", stderr="", trace_path=None, failure=None,
                run_dir=tmp_path,
            )  # fmt: skip

    Runner(Sandbox(), ["train.py"], timeout_s=120).probe("print(1)", 600)
    assert (seen["limits"].wall_s, seen["limits"].cpu_s) == (720, 1200)
    assert seen["config"].max_wall_s == 715 and seen["config"].probe_code == "print(1)"
