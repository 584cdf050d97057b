"""Seeding operators on the clean templates: each applies in at least two templates,
the result parses, and the ground-truth line points at the injected code."""

from __future__ import annotations

import difflib
import functools
import re
from pathlib import Path

import pytest

from torch_investigate.evals.seeding.apply import seed, seeded_files
from torch_investigate.evals.seeding.generate import ordered
from torch_investigate.evals.seeding.operators import REGISTRY, Mutation
from torch_investigate.evals.seeding.source import Source
from torch_investigate.tools.taxonomy import taxonomy

REPOS = Path(__file__).resolve().parent.parent / "evals" / "repos"
TEMPLATES = sorted(p.name for p in REPOS.iterdir() if (p / "template.json").is_file())
# Only one template has the pattern: hand-made nn.Parameter weights with a scale.
SINGLE_TEMPLATE = {"non_leaf_parameters"}

# What the diff of every mutation of a category shows (added or removed lines).
EXPECT = {
    "label_misaligned": r"\.roll\(1, 0\)",
    "split_leakage": r"\[:\]|DataLoader\(",
    "preprocessing_mismatch": r"abs\(\)\.max\(\)|- mean\) / std",
    "unnormalized_inputs": r"\* 1000\.0",
    "bad_labels": r"zeros_like|\* 2 - 1",
    "unshuffled_data": r"shuffle=False",
    "nonfinite_inputs": r'float\("nan"\)',
    "broadcast_mismatch": r"squeeze",
    "wrong_dimension": r"dim=0|\(.*, 0\)|normalize",
    "reshape_scramble": r"transpose\(0, 1\)",
    "output_ignores_input": r"zeros_like|\* 0$",
    "activation_misuse": r"relu|sigmoid|ReLU|Sigmoid",
    "softmax_before_ce": r"softmax",
    "sigmoid_before_bce_logits": r"sigmoid",
    "loss_target_mismatch": r"\.(float|long)\(\)",
    "loss_args_swapped": r"\(yb, logits\)",
    "wrong_loss_for_task": r"MSELoss|mse_loss|CrossEntropyLoss|cross_entropy",
    "loss_mask_error": r"ignore_index=0|> 0\]",
    "loss_detached_scale": r"\.item\(\), requires_grad=True|/ 10000\.0",
    "detached_graph": r"\.detach\(\)|\.data\b",
    "no_grad_training": r"no_grad\(\)|set_grad_enabled\(False\)",
    "frozen_parameters": r"requires_grad",
    "non_leaf_parameters": r"\.clone\(\)",
    "unregistered_parameters": r"= list\(|= dict\(|requires_grad_\(\)",
    "params_created_in_forward": r"Linear\(",
    "missing_zero_grad": r"zero_grad|grad = None",
    "optimizer_missing_params": r"parameters\(\)|\.weight\]|Linear\(",
    "step_order": r"zero_grad|grad = None",
    "scheduler_misuse": r"\.step\(\)",
    "tiny_grad_clip": r"1e-4",
    "excessive_weight_decay": r"weight_decay=(1|10|100)\.0",
    "step_not_called": r"\.step\(\)|p\.data \+=",
    "eval_mode_in_training": r"\.train\(\)|\.eval\(\)",
    "train_mode_in_eval": r"\.eval\(\)|\.train\(\)",
    "metric_bug": r"argmax|0\.5",
    "batchnorm_small_batch": r"\b2\b",
    "lr_too_high": r"lr=(1|10)\.0",
    "lr_too_low": r"lr=1e-6",
    "bad_initialization": r"constant_\(p, 0\.05\)",
    "dead_activations": r"bias, -10\.0",
    "insufficient_capacity": r"Identity\(\)|relu|tanh",
}


@functools.cache
def source(name: str) -> Source:
    return Source.load(REPOS / name)


@functools.cache
def mutations(category: str) -> tuple[tuple[str, Mutation], ...]:
    return tuple(
        (name, m) for name in TEMPLATES for m in REGISTRY[category].mutations(source(name))
    )


def changed_lines(old: list[str], new: list[str]) -> tuple[set[int], list[str]]:
    """1-based lines of the new file that are new or sit where lines were deleted, and
    the text of every added or removed line."""
    lines: set[int] = set()
    texts: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag in ("replace", "insert"):
            lines.update(range(j1 + 1, j2 + 1))
        if tag == "delete":
            lines.update({j1, j1 + 1})
        if tag != "equal":
            texts += old[i1:i2] + new[j1:j2]
    return lines, texts


def test_every_category_is_seeded_or_explained():
    ids = {c.id for c in taxonomy().categories}
    NOT_SEEDABLE = {c.id for c in taxonomy().categories if c.not_seedable}
    assert set(REGISTRY) | set(NOT_SEEDABLE) == ids
    assert not set(REGISTRY) & set(NOT_SEEDABLE)
    assert set(EXPECT) == set(REGISTRY)


@pytest.mark.parametrize("category", sorted(REGISTRY))
def test_operator_applies_in_two_templates(category):
    templates = {name for name, _ in mutations(category)}
    assert len(templates) >= (1 if category in SINGLE_TEMPLATE else 2), templates


@pytest.mark.parametrize("category", sorted(REGISTRY))
def test_mutations_parse_and_the_truth_line_is_the_injected_code(category):
    for name, m in mutations(category):
        src = source(name)
        edited, (file, line) = seeded_files(src, m)  # raises when a file no longer parses
        assert file in edited, f"{name} {m.variant}: the anchor is in an untouched file"
        old = src.unit(file).lines
        new = edited[file].decode().splitlines()
        where, texts = changed_lines(old, new)
        # a moved statement may show in the diff as its neighbour moving the other way
        window = "\n".join(t.strip() for t in new[line - 1 : line + 1])
        moved_here = re.search(EXPECT[category], window)
        assert line in where or moved_here, f"{name} {m.variant}: line {line} is not the change"
        diff = "\n".join(t.strip() for t in texts) + ("\n" + window if moved_here else "")
        assert re.search(EXPECT[category], diff, re.MULTILINE), f"{name} {m.variant}:\n{diff}"
        assert re.fullmatch(r"[\w.-]+@[\w./-]+:\d+", m.variant), m.variant


def test_variants_are_stable_across_runs():
    for name in ("rings", "trainer_pkg"):
        fresh = Source.load(REPOS / name)
        for category, op in REGISTRY.items():
            assert [m.variant for m in op.mutations(fresh)] == [
                m.variant for m in op.mutations(source(name))
            ], category


@pytest.mark.parametrize(
    "template,category,file,line,symbol,text",
    [
        ("rings", "missing_zero_grad", "train.py", 44, "main", "logits = model(xb)"),
        ("cnn_bn", "missing_zero_grad", "main.py", 62, "train_one_epoch", "output = model(data)"),
        ("rings", "softmax_before_ce", None, None, None, None),
        ("bars", "softmax_before_ce", "train.py", 69, "main", "softmax(out, dim=1)"),
        ("rings", "detached_graph", "model.py", 16, "RingClassifier.forward", ".detach()"),
        ("trainer_pkg", "unregistered_parameters", "trainer_pkg/models.py", 11,
         "MLPClassifier.__init__", "self.hidden = list("),
        ("trainer_pkg", "scheduler_misuse", "trainer_pkg/engine.py", 39, "Trainer.train_epoch",
         "self.scheduler.step()"),
        ("flat_script", "split_leakage", "moons.py", 36, "<module>", "X[perm[:]]"),
        ("tied_autoencoder", "non_leaf_parameters", "autoencoder.py", 29,
         "TiedAutoencoder.__init__", "nn.Parameter(torch.randn(code, dim) / math.sqrt(dim)).clone()"),
        ("miniloop", "step_not_called", "train.py", 28, "main", "optimizer.step()"),
    ],
)  # fmt: skip
def test_ground_truth_of_known_seedings(tmp_path, template, category, file, line, symbol, text):
    found = mutations(category)
    mine = [m for name, m in found if name == template]
    if file is None:
        assert not mine, f"{category} should not apply to {template}"
        return
    # the mutation the generator would try first for this template's first turn
    wanted = [m for m in mine if f"@{file}:" in m.variant and (text in _seeded_line(template, m))]
    assert wanted, [m.variant for m in mine]
    truth = seed(source(template), category, wanted[0], tmp_path / template)
    assert (truth.file, truth.line, truth.symbol) == (file, line, symbol)
    assert truth.stage == taxonomy().category(category).stage
    assert text in (tmp_path / template / file).read_text().splitlines()[line - 1]


def _seeded_line(template: str, m: Mutation) -> str:
    edited, (file, line) = seeded_files(source(template), m)
    return edited[file].decode().splitlines()[line - 1]


def test_loss_args_swapped_only_touches_asymmetric_losses():
    assert {name for name, _ in mutations("loss_args_swapped")} == {"rings", "flat_script"}


def test_spelling_rotation_keeps_every_mutation():
    ms = [m for name, m in mutations("detached_graph") if name == "rings"]
    for turn in range(3):
        rotated = ordered(ms, turn)
        assert sorted(m.variant for m in rotated) == sorted(m.variant for m in ms)
    assert ordered(ms, 0)[0].spelling != ordered(ms, 1)[0].spelling
