"""The trace contract: the tracer writes exactly the keys tools/tracefile/trace.py declares.

The tracer runs on real programs (a DataLoader classifier with an evaluation phase,
clipping and a scheduler; a BatchNorm CNN whose evaluation computes a loss; a
full-batch script under fixed_batch + holdout; a crash; a script full of corner cases)
and every record in every section is compared with its model: a key written but not
declared fails (unknown), and so does a declared key not written, unless the model
lists it in `OMITTED_WHEN` with the reason the tracer leaves it out.
"""

from __future__ import annotations

import json
import shutil
import types
import typing
from pathlib import Path

import pytest
from pydantic import BaseModel
from typing_extensions import is_typeddict

from torch_investigate.tools.sandbox import Sandbox
from torch_investigate.tools.tracefile.trace import OMITTED_WHEN, SubmoduleMode, Trace

ROOT = Path(__file__).resolve().parent.parent
TRACE_FIXTURES = ROOT / "tests" / "fixtures" / "trace"
BUDGET = {"max_steps": 12, "detail_steps": 4}

# name: (source folder, script, edits, trace config)
PROGRAMS: dict[str, tuple[Path, str, list[tuple[str, str]], dict]] = {
    "mlp": (TRACE_FIXTURES / "mlp_loader", "train.py", [], {}),
    "mlp_softmax": (TRACE_FIXTURES / "mlp_loader", "train.py", [("F.cross_entropy(model(xb), yb)", "F.cross_entropy(F.softmax(model(xb), dim=1), yb)")], {}),
    "mlp_crash": (TRACE_FIXTURES / "mlp_loader", "train.py", [("F.cross_entropy(model(xb), yb)", "F.cross_entropy(model(xb), yb.float())")], {}),
    "mlp_probe": (TRACE_FIXTURES / "mlp_loader", "train.py", [], {"probe_code": "result = float(loss_fn(model(inputs), target))"}),
    "mlp_subset": (TRACE_FIXTURES / "mlp_loader", "train.py", [("torch.optim.Adam(model.parameters()", "torch.optim.Adam(model.out.parameters()")], {"interventions": {"add_missing_params": True}}),
    "flat_fixed": (TRACE_FIXTURES / "flat_fullbatch", "fit.py", [("Y = 3 * X - 0.5 + 0.05 * torch.randn(64, 1)", "Y = (3 * X - 0.5 + 0.05 * torch.randn(64, 1)).squeeze(1)")], {"interventions": {"fixed_batch": True, "holdout": True}}),
    "cnn_bn": (ROOT / "evals" / "repos" / "cnn_bn", "main.py", [], {}),
    "corners": (TRACE_FIXTURES / "corners", "train.py", [], {"detail_steps": 3}),
    "tiny_lm": (TRACE_FIXTURES / "tiny_lm", "train.py", [], {}),
}  # fmt: skip

# records the programs above do not produce, and why
NOT_EXERCISED: dict[str, str] = {
    "CodeTargets": "the contract programs feed float inputs only; integer code columns with a "
    "per-row target are traced in tests/test_real_shapes.py (tabular_codes)",
    "NogradTerm": "the contract programs have no loss on a no-grad forward's output; an "
    "actor-critic whose value loss has one is traced in tests/test_nograd_term.py",
    "EvalOutside": "the contract programs compare no evaluation predictions with labels; "
    "window positions compared with frame labels are traced in tests/test_eval_values.py",
    "EvalValues": "as EvalOutside",
    "EvalOrder": "as EvalOutside; a shuffling evaluation loader's predictions compared with "
    "labels in the dataset's order are traced in tests/test_shuffled_eval.py",
    "DifferenceMask": "the contract programs call loss functions; a mask multiplied into a "
    "hand-written difference is traced in tests/test_hand_mask.py",
    "IndexedRows": "the contract programs train on batches; a model run once over every row "
    "(full-graph training) is traced in tests/test_full_graph_rows.py",
    "IdleUnfreeze": "the contract programs unfreeze nothing mid-training; a warm-up whose "
    "unfreeze reaches only parameters already training is traced in tests/test_frozen_warmup.py",
    "PositionRead": "the contract programs generate nothing; an evaluation reading one position "
    "of a next-token model's output is traced in tests/test_unscored_reads.py",
}


@pytest.fixture(scope="module")
def traces(tmp_path_factory) -> dict[str, dict]:
    root = tmp_path_factory.mktemp("contract-ws")
    jobs = []
    for name, (source, script, edits, config) in PROGRAMS.items():
        shutil.copytree(source, root / name)
        path = root / name / script
        text = path.read_text()
        for old, new in edits:
            assert old in text, (name, old)
            text = text.replace(old, new)
        path.write_text(text)
        jobs.append(([f"{name}/{script}"], {**BUDGET, **config}, name))
    out = {}
    with Sandbox(root) as sandbox:  # the traces live in the sandbox's folder until it closes
        for (_, _, name), res in zip(jobs, sandbox.run_many(jobs)):
            assert res.trace_path is not None, (name, res.stderr[-2000:])
            out[name] = json.loads(res.trace_path.read_text())
    return out


# ---- the comparison -------------------------------------------------------------------


def _is_record(tp) -> bool:
    return isinstance(tp, type) and (issubclass(tp, BaseModel) or is_typeddict(tp))


def _declared(tp) -> dict[str, object]:
    """Key as written (the alias) -> annotation."""
    if is_typeddict(tp):
        return typing.get_type_hints(tp)
    return {(f.alias or n): f.annotation for n, f in tp.model_fields.items()}


def _omitted(tp) -> set[str]:
    names = [c.__name__ for c in getattr(tp, "__mro__", (tp,))]
    return {k for n in names for k in OMITTED_WHEN.get(n, {})}


def _inner(tp) -> list:
    """The record types an annotation can hold, with how to reach them."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return [a for a in typing.get_args(tp) if a is not type(None)]
    return [tp]


def check(tp, value, path: str, problems: list[str], seen: set[str]) -> None:
    for branch in _inner(tp):
        origin = typing.get_origin(branch)
        if origin is list and isinstance(value, list):
            (item,) = typing.get_args(branch)
            for v in value:
                check(item, v, f"{path}[]", problems, seen)
        elif origin is dict and isinstance(value, dict):
            _, item = typing.get_args(branch)
            for v in value.values():
                check(item, v, f"{path}{{}}", problems, seen)
        elif _is_record(branch) and isinstance(value, dict):
            _check_record(branch, value, path, problems, seen)


def _check_record(tp, value: dict, path: str, problems: list[str], seen: set[str]) -> None:
    seen.add(tp.__name__)
    declared = _declared(tp)
    for key in sorted(set(value) - set(declared)):
        problems.append(f"{path}: {tp.__name__} does not declare {key!r}, which the tracer wrote")
    for key in sorted(set(declared) - set(value) - _omitted(tp)):
        problems.append(f"{path}: {tp.__name__}.{key} was not written")
    for key in set(value) & set(declared):
        check(declared[key], value[key], f"{path}.{key}", problems, seen)


def _reachable(tp, found: dict[str, type]) -> dict[str, type]:
    """Every record type a trace can contain."""
    for branch in _inner(tp):
        for arg in typing.get_args(branch):
            _reachable(arg, found)
        if _is_record(branch) and branch.__name__ not in found:
            found[branch.__name__] = branch
            for ann in _declared(branch).values():
                _reachable(ann, found)
    return found


# ---- tests -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_every_record_holds_exactly_the_declared_keys(traces, name):
    problems: list[str] = []
    check(Trace, traces[name], "trace", problems, set())
    assert problems == [], "\n".join(sorted(set(problems))[:40])


def test_the_programs_exercise_every_record_type(traces):
    seen: set[str] = set()
    for trace in traces.values():
        check(Trace, trace, "trace", [], seen)
    missing = set(_reachable(Trace, {})) - seen - set(NOT_EXERCISED)
    assert missing == set()


def test_the_traces_validate_as_the_checks_read_them(traces):
    for trace in traces.values():
        Trace.model_validate(trace)
    assert traces["mlp_crash"]["status"] == "crashed"
    assert traces["flat_fixed"]["holdout_losses"] and traces["mlp_probe"]["probe_result"]


def test_the_omission_list_names_declared_fields_only():
    records = _reachable(Trace, {})
    for model, keys in OMITTED_WHEN.items():
        assert model in records, model
        assert set(keys) <= set(_declared(records[model])), model
        if is_typeddict(records[model]):  # total=False there is the same list
            assert set(records[model].__optional_keys__) == set(keys), model
    for name, tp in records.items():
        if is_typeddict(tp) and name not in OMITTED_WHEN:
            assert not tp.__optional_keys__, name


def test_the_check_fails_on_drift():
    problems: list[str] = []
    record = {"kind": "grad_disabled", "module": "Linear", "frame": None, "surprise": 1}
    check(list[SubmoduleMode], [record], "t", problems, set())
    assert any("'surprise'" in p for p in problems)
    assert any("SubmoduleMode.calls was not written" in p for p in problems)
