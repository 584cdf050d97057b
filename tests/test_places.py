"""Placing a finding where the defect is written (agent/checks/places.py): each locator
on a small repo, and None when the code does not say."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from torch_investigate.agent.checks import caller_places, mask_places, places
from torch_investigate.tools.code.index import CodeIndex
from torch_investigate.tools.tracefile.trace import Frame

LOSS_HELPER = """import torch


def squared_error(pred, target):
    return ((pred - target) ** 2).mean()


def scaled(pred):
    return (pred - 1.0) ** 2


def main():
    w = torch.zeros(3, 1, requires_grad=True)
    opt = torch.optim.SGD([w], lr=LR)
    x, y = torch.randn(8, 3), torch.randn(8)
    for _ in range(10):
        opt.zero_grad()
        loss = squared_error(x @ w, y)
        loss.backward()
        opt.step()
    print(squared_error(x @ w, y.unsqueeze(1)))


LR = 0.5
"""


def session(tmp_path: Path, files: dict[str, str]) -> SimpleNamespace:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return SimpleNamespace(index=CodeIndex.build(tmp_path))


def test_a_generic_helper_is_placed_at_the_training_call_that_passes_the_operands(tmp_path):
    s = session(tmp_path, {"fit.py": LOSS_HELPER})
    loc = caller_places.caller_passing(s, Frame(file="fit.py", line=5))
    assert loc is not None and (loc.file, loc.line, loc.symbol) == ("fit.py", 18, "main")


def test_an_expression_with_its_own_constants_stays_where_it_is(tmp_path):
    s = session(tmp_path, {"fit.py": LOSS_HELPER})
    assert caller_places.caller_passing(s, Frame(file="fit.py", line=9)) is None
    assert caller_places.caller_passing(s, Frame(file="fit.py", line=18)) is None


def test_a_hyperparameter_is_followed_to_the_literal_it_comes_from(tmp_path):
    s = session(tmp_path, {"fit.py": LOSS_HELPER})
    loc = places.literal_of(s, Frame(file="fit.py", line=14), "lr")
    assert loc is not None and loc.line == 24


CLIP_OPTION = """import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--clip", type=float, default=0.0025, help="gradient clipping")
parser.add_argument("--lr", type=float, default=20)
settings = parser.parse_args()


def train(model):
    torch.nn.utils.clip_grad_norm_(model.parameters(), settings.clip)
"""


def test_a_positional_value_read_from_an_option_is_placed_at_the_options_default(tmp_path):
    s = session(tmp_path, {"main.py": CLIP_OPTION})
    at = Frame(file="main.py", line=12)
    loc = places.literal_of(s, at, "max_norm", position=1, value=0.0025)
    assert loc is not None and (loc.file, loc.line, loc.symbol) == ("main.py", 6, "<module>")
    # the run used another value (given on the command line): the default is not the cause
    assert places.literal_of(s, at, "max_norm", position=1, value=0.5) is None
    # by keyword only, a positional argument is not found
    assert places.literal_of(s, at, "max_norm", value=0.0025) is None


STEP_HELPER = """import torch


class AutoEncoder(torch.nn.Module):
    def _common_step(self, batch):
        x = batch
        loss = torch.nn.functional.mse_loss(self.net(x), x)
        return loss

    def training_step(self, batch, batch_idx):
        self._common_step(batch)

    def validation_step(self, batch, batch_idx):
        loss = self._common_step(batch)
        return loss
"""


def test_a_returned_loss_thrown_away_by_its_caller_is_placed_at_that_call(tmp_path):
    s = session(tmp_path, {"ae.py": STEP_HELPER})
    loc = caller_places.discarding_caller(s, Frame(file="ae.py", line=7))
    assert loc is not None and (loc.line, loc.symbol) == (11, "AutoEncoder.training_step")
    # nothing returned: no caller is to blame
    assert caller_places.discarding_caller(s, Frame(file="ae.py", line=11)) is None


EVAL_LOADER = """import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


@torch.no_grad()
def evaluate(model, loader):
    preds = []
    for xb, yb in loader:
        preds.append(model(xb).numpy())
    return preds


def main():
    x = torch.randn(64, 3)
    model = nn.Sequential(nn.Linear(3, 1))
    val_set = TensorDataset(x * 10, x.sum(1))
    val_loader = DataLoader(val_set, batch_size=16)
    evaluate(model, val_loader)
"""


def test_an_evaluation_batch_is_followed_to_where_its_loader_is_built(tmp_path):
    # the model call at that line (not the append around it), its batch from a loader
    # passed in: the input comes from where main builds that loader
    s = session(tmp_path, {"train.py": EVAL_LOADER})
    loc = places.input_origin(s, Frame(file="train.py", line=10))
    assert loc is not None and (loc.symbol, loc.line) == ("main", 18)


GET_BATCH = """import torch
from torch import nn

data = torch.randint(0, 50, (1000,))


def get_batch(n=8):
    ix = torch.randint(0, 990, (4,))
    x = torch.stack([data[i : i + n] for i in ix])
    y = torch.stack([data[i : i + n] for i in ix])
    return x, y


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50, 50)

    def forward(self, idx, targets):
        logits = self.emb(idx)
        return nn.functional.cross_entropy(logits.view(-1, 50), targets.view(-1))


model = LM()
for step in range(3):
    X, Y = get_batch()
    loss = model(X, Y)
"""


def test_targets_passed_into_a_forward_are_followed_to_where_they_are_cut(tmp_path):
    """The loss inside the model's forward gets its targets through `model(X, Y)`: the
    target is cut in get_batch, on the line the input's way does not pass."""
    s = session(tmp_path, {"lm.py": GET_BATCH})
    loc = places.target_cut(s, Frame(file="lm.py", line=21), Frame(file="lm.py", line=27))
    assert loc is not None and (loc.file, loc.line, loc.symbol) == ("lm.py", 10, "get_batch")
    # without the model call the input's way is unknown: no guess
    assert places.target_cut(s, Frame(file="lm.py", line=21), Frame(file="lm.py", line=3)) is None


WINDOWS = """import numpy as np
import torch
from torch import nn


def make_inputs(series, n, stride):
    return np.stack([series[s : s + 8] for s in range(0, n, stride)])


def make_targets(series, n, stride):
    return series[8 : 8 + len(range(0, n, stride))]


series = np.sin(np.arange(500.0)).astype(np.float32)
xs = make_inputs(series, 400, 3)
ys = make_targets(series, 400, 3)
xs, ys = map(torch.from_numpy, (xs, ys))
model = nn.Linear(8, 1)
for i in range(0, len(xs), 16):
    loss = nn.functional.mse_loss(model(xs[i : i + 16]).squeeze(-1), ys[i : i + 16])
"""


def test_targets_converted_by_map_are_followed_to_their_own_helper(tmp_path):
    """`xs, ys = map(torch.from_numpy, (xs, ys))` passes each element on; on a line that
    holds both the loss and the model call, the model call is the forward (a
    torch.nn.functional loss is no module): the target is cut in make_targets."""
    s = session(tmp_path, {"fc.py": WINDOWS})
    at = Frame(file="fc.py", line=20)
    loc = places.target_cut(s, at, at)
    assert loc is not None and (loc.file, loc.symbol) == ("fc.py", "make_targets")


MASKED = """import torch
import torch.nn.functional as F


def masked_bce(logits, target, mask):
    mask = mask.float()
    per_px = F.binary_cross_entropy_with_logits(logits, target, reduction="none")
    return (per_px * mask).sum() / mask.sum()


def own_mask(logits, target, lengths):
    keep = (torch.arange(logits.shape[1]) < lengths[:, None]).float()
    per_px = F.binary_cross_entropy_with_logits(logits, target, reduction="none")
    return (per_px * keep).sum() / keep.sum()


def focal(logits, targets, alpha=0.75, gamma=2.0):
    valid = targets > 0
    logits, targets = logits[valid], targets[valid]
    ce = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    return (alpha * targets * ce).sum() / valid.sum()


def main(model, opt, x, y, m, n):
    for step in range(10):
        opt.zero_grad()
        loss = masked_bce(model(x), y, m) + own_mask(model(x), y, n) + focal(model(x), y)
        loss.backward()
        opt.step()
"""


def test_a_mask_handed_to_a_loss_helper_is_placed_where_it_is_passed(tmp_path):
    """The helper only casts the mask it was given: its convention is the caller's
    choice. A helper that builds its mask itself keeps the finding."""
    s = session(tmp_path, {"losses.py": MASKED})
    loc = caller_places.mask_passed_in(s, Frame(file="losses.py", line=7))
    assert loc is not None and (loc.line, loc.symbol) == (27, "main")
    assert caller_places.mask_passed_in(s, Frame(file="losses.py", line=13)) is None
    # a coefficient with a number for its default is no mask the caller chose (round 24's
    # focal loss, whose own `targets > 0` mask was placed at its call)
    assert caller_places.mask_passed_in(s, Frame(file="losses.py", line=20)) is None


BUILT_LOADER = """import torch
from torch.utils.data import DataLoader, Dataset


class Windows(Dataset):
    def __init__(self, xs, scale=True):
        self.xs = [x / x.std() if scale else x for x in xs]

    def __len__(self):
        return len(self.xs)

    def __getitem__(self, i):
        return self.xs[i]


def build(train, val):
    return Windows(train), Windows(val, False)


def evaluate(model, loader):
    with torch.no_grad():
        return [model(x) for x in loader]


def main(model, train, val):
    train_ds, val_ds = build(train, val)
    val_dl = DataLoader(val_ds, batch_size=8)
    return evaluate(model, val_dl)
"""


def test_evaluation_inputs_are_followed_through_the_loader_to_where_its_dataset_is_made(tmp_path):
    """The evaluation forward reads batches of a loader passed in; the loader is built
    in main, its dataset in build(): the inputs' transform is chosen there."""
    s = session(tmp_path, {"ev.py": BUILT_LOADER})
    loc = places.input_origin(s, Frame(file="ev.py", line=22))
    assert loc is not None and (loc.line, loc.symbol) == (17, "build")


REORDERED_APART = {
    "data.py": """import numpy as np


def make_recordings(n, seed):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 4, size=n)
    sessions = rng.integers(0, 40, size=n)
    specs = rng.normal(size=(n, 8)) + labels[:, None]
    return specs, labels, sessions


def catalogue(specs, sessions):
    order = np.argsort(sessions, kind="stable")
    return specs[order], sessions[order]


def annotation_sheet(labels, sessions):
    order = np.argsort(sessions, kind="stable")
    return labels[order]
""",
    "train.py": """import torch
from torch import nn
from data import make_recordings, catalogue, annotation_sheet


def load_split(n, seed):
    specs, labels, sessions = make_recordings(n, seed)
    specs, sessions = catalogue(specs, sessions)
    labels = annotation_sheet(labels, sessions)
    return torch.from_numpy(specs).float(), torch.from_numpy(labels)


xtr, ytr = load_split(600, 1)
model = nn.Linear(8, 4)
lossf = nn.CrossEntropyLoss()
for i in range(0, 600, 50):
    loss = lossf(model(xtr[i : i + 50]), ytr[i : i + 50])
""",
}


def test_targets_made_with_the_inputs_and_reordered_apart_point_where_they_parted(tmp_path):
    """Labels and features come from one function, then each is reordered by its own
    helper in load_split: the place is load_split's call that reorders the labels (where
    the two ways part), not where the labels were first drawn. The loss module wraps the
    model call on the same line; the model call is the input's way."""
    s = session(tmp_path, REORDERED_APART)
    at = Frame(file="train.py", line=17)
    loc = places.target_cut(s, at, at)
    assert loc is not None and (loc.file, loc.line, loc.symbol) == ("train.py", 9, "load_split")


BATCHES = """import numpy as np
import torch
import torch.nn.functional as F

PAD = 0


def build_batch(seqs):
    arr = torch.from_numpy(np.array(seqs))
    inputs, targets = arr[:, :-1], arr[:, 1:]
    keep = targets.eq(PAD)
    return inputs, targets, keep


def masked_ce(logits, targets, keep):
    ce = F.cross_entropy(logits.flatten(0, 1), targets.reshape(-1), reduction="none")
    keep = keep.reshape(-1).float()
    return (ce * keep).sum() / keep.sum()


def main(model, opt, rows):
    batches = [build_batch(rows[i : i + 8]) for i in range(0, len(rows), 8)]
    for inp, tgt, keep in batches:
        loss = masked_ce(model(inp), tgt, keep)
        opt.zero_grad()
        loss.backward()
        opt.step()
"""


def test_a_mask_is_followed_through_the_batches_to_the_comparison_that_makes_it(tmp_path):
    """Round 30's case05 spelling: the helper multiplies the cross-entropy by the mask it
    was given; the batches come from a comprehension of a builder's returned tuples, and
    the third item is made by `targets.eq(PAD)`: the convention is written there."""
    s = session(tmp_path, {"lm.py": BATCHES})
    loc = mask_places.mask_compared_at(s, Frame(file="lm.py", line=16))
    assert loc is not None and (loc.line, loc.symbol) == (11, "build_batch")
    # inverted at the call instead: the inversion is where the convention turns
    s = session(tmp_path, {"lm.py": BATCHES.replace("tgt, keep)", "tgt, ~keep)")})
    loc = mask_places.mask_compared_at(s, Frame(file="lm.py", line=16))
    assert loc is not None and (loc.line, loc.symbol) == (24, "main")
    # no comparison on the way: the code does not say
    s = session(tmp_path, {"lm.py": BATCHES.replace("targets.eq(PAD)", "targets.bool()")})
    assert mask_places.mask_compared_at(s, Frame(file="lm.py", line=16)) is None
