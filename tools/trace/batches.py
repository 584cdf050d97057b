"""Statistics of the batches each phase consumed: summaries, row fingerprints, feature
and target moments, and feature columns that track the target.

Fed when a recorded forward or loss call learns its phase (`Recorder.resolve_phase`);
serialized as the trace's `batches` section.
"""

from __future__ import annotations

import math
from collections import Counter

import torch

from .loss_rows import LossRows
from .tensors import feature_moments, rows_of, strided, summarize

MAX_SUMMARIES = 400  # per phase
MAX_FINGERPRINTS = 50_000  # per phase
MAX_EVAL_BATCHES = 2000
MAX_SITES = 16  # evaluation call sites with their own input moments
MAX_COLUMN_BATCHES = 400  # training batches compared column by column with the target


class BatchStats:
    def __init__(self) -> None:
        self.summaries: dict[str, list[dict]] = {"train": [], "eval": []}
        self.fingerprints: dict[str, list[str]] = {"train": [], "eval": []}
        self.eval_batches: list[
            tuple[str, list[str], int, int, int]
        ] = []  # (call site, row fingerprints, step, module, the batch's rows)
        # module (its id) -> the distinct training rows it learned from (a grad-enabled
        # training forward): an evaluation pass that holds nearly all of them scores the
        # training data (a train-set metric). Rows a frozen encoder turned into features
        # under no_grad trained the head, not the encoder.
        self.train_rows: dict[int, set[str]] = {}
        self.loss_rows = LossRows()  # the training loss each training row reached
        # training rows as the program fed them, from batches it did not transform after
        # cutting them; the rows those it did transform were made from; and the
        # transformed rows (an augmentation permuting a board's cells lands one position
        # on another: a held-out row equal to one of those is no training sample)
        self.plain_rows: set[str] = set()
        self.origin_rows: set[str] = set()
        self.transformed_rows: set[str] = set()
        # "phase:model" -> [per-feature sums, per-feature sums of squares, rows]
        self.moments: dict[str, list] = {}
        # "model\0call site" -> the same, for evaluation inputs per call site
        self.site_moments: dict[str, list] = {}
        # "phase:model" -> [rows, sum of row means, sum of their squares, sum of within-row
        # variances]: a row is one sample (one channel of it, for images and signals)
        self.row_offsets: dict[str, list] = {}
        self.target_hist_per_batch: list[dict] = []
        self.target_means_per_batch: list[float] = []
        self.target_sites_per_batch: list[str] = []  # the loss call each histogram is from
        self.target_mean_sites: list[str] = []  # the loss call each mean is from
        # every training target held one value per row (a class per sample, not per pixel
        # or token): only then are a batch's rows independent draws of its classes
        self.target_one_per_row = True
        self.target_moments: dict[str, dict] = {}  # phase -> n, values, min, max
        self.column_target: dict[int, dict] = {}  # feature column -> n, min_abs_corr
        # feature columns equal to the target, row for row, in every batch compared, and
        # how many batches were: [columns or None, batches]
        self.column_equal: list = [None, 0]
        # feature columns an exact affine function of a real-valued target (a·y + b to float
        # rounding: the target's own value scaled another way) in every batch compared
        self.column_affine: list = [None, 0]
        # a target of several values per row (a next profile of 16 levels): per target
        # column, the input columns equal to it in every batch compared, and how many
        # batches were: [list of column sets or None, batches]
        self.block_equal: list = [None, 0]
        # a real-valued target that a linear combination of the input columns (and a
        # constant) reproduces exactly: [batches where it did, batches compared]
        self.target_linear: list = [0, 0, []]  # exact fits, fits, rows pooled for the next
        # the same per DataLoader site, for a hand-written loss the tracer cannot read a
        # target from: a loader's (x, y) with y real-valued per row
        self.loader_columns: dict[str, list] = {}

    def record_inputs(
        self,
        phase: str,
        tensors: list[torch.Tensor],
        fingerprints: list[str],
        site: str = "?",
        model: str = "",
        step: int = 0,
        module: int = 0,
        learns: bool = True,
        origin: list[str] | None = None,
    ) -> None:
        if not tensors:
            return
        if phase == "train" and len(self.plain_rows) + len(self.origin_rows) < MAX_FINGERPRINTS:
            if origin:
                self.origin_rows.update(origin)
                self.transformed_rows.update(fingerprints)
            else:
                self.plain_rows.update(fingerprints)
        self.loss_rows.inputs(phase, tensors, fingerprints, step)
        if phase == "eval" and fingerprints and len(self.eval_batches) < MAX_EVAL_BATCHES:
            # a batch of more rows than are fingerprinted (tensors.row_fingerprints' limit)
            rows = tensors[0].shape[0] if tensors[0].dim() else len(fingerprints)
            self.eval_batches.append(
                (site, fingerprints, step, module, max(rows, len(fingerprints)))
            )
        if phase == "train" and fingerprints and learns:
            rows = self.train_rows.setdefault(module, set())
            if len(rows) < MAX_FINGERPRINTS:
                rows.update(fingerprints)
                # a train-set score on the clean rows a noisy batch was made from
                rows.update(origin or ())
        x = tensors[0]
        summaries = self.summaries[phase]
        if len(summaries) < MAX_SUMMARIES:
            summaries.append({"tensors": [summarize(t, values=False) for t in tensors[:4]]})
        fp = self.fingerprints[phase]
        if len(fp) < MAX_FINGERPRINTS:
            fp.extend(fingerprints)
        m = feature_moments(x)
        if m is not None and not (
            phase == "eval" and self._scores_training_rows(module, fingerprints)
        ):
            # per model: a pipeline's models see different inputs
            _accumulate(self.moments, f"{phase}:{model}", m)
            _row_offsets(self.row_offsets, f"{phase}:{model}", x)
            key = f"{model}\0{site}"
            if phase == "eval" and (key in self.site_moments or len(self.site_moments) < MAX_SITES):
                _accumulate(self.site_moments, key, m)

    def _scores_training_rows(self, module: int, fingerprints: list[str]) -> bool:
        """An evaluation batch whose rows are mostly rows this module learned from (a
        train-set score through the evaluation code): its inputs are training inputs, so
        they do not stand for the held-out inputs the moments compare with training."""
        rows = self.train_rows.get(module)
        if not rows or not fingerprints:
            return False
        return sum(f in rows for f in fingerprints) * 2 > len(fingerprints)

    def record_target(
        self,
        phase: str,
        target: torch.Tensor,
        inputs: torch.Tensor | None,
        site: str = "?",
        step: int = 0,
    ) -> None:
        self.loss_rows.target(phase, target, site, step)
        s = summarize(target)
        if phase == "train" and len(self.target_hist_per_batch) < MAX_SUMMARIES:
            self.target_hist_per_batch.append(s.get("values") or {})
            self.target_sites_per_batch.append(site)
            self.target_one_per_row &= target.dim() <= 1 or target.numel() == target.shape[0]
            if s.get("mean") is not None:
                self.target_means_per_batch.append(s["mean"])
                self.target_mean_sites.append(site)
        acc = self.target_moments.setdefault(
            phase, {"n": 0, "values": Counter(), "min": math.inf, "max": -math.inf}
        )
        acc["n"] += 1
        if "values" in s:
            acc["values"].update({k: v for k, v in s["values"].items()})
        if "min" in s:
            acc["min"] = min(acc["min"], s["min"])
            acc["max"] = max(acc["max"], s["max"])
        if phase == "train":
            self.target_columns(target, inputs)

    def target_columns(self, target: torch.Tensor, inputs: torch.Tensor | None) -> None:
        """A feature column equal to (or perfectly tracking) the target: leakage of the target."""
        _block_target(self.block_equal, target, inputs)
        if (
            inputs is not None
            and inputs.dim() >= 3
            and inputs.is_floating_point()
            and inputs.shape[0] == target.shape[0] == target.numel()
            and inputs.shape[0] >= 8
            and math.prod(inputs.shape[1:]) <= MAX_ROW_ELEMENTS
            and (flat := strided(inputs)) is not None
        ):
            # a window of channels (B, C, T): each element of a row is a column here
            y = target.detach().reshape(-1).double()
            if float(y.std()) > 0:
                _equal_columns(self.column_equal, flat.reshape(flat.shape[0], -1), y)
                _affine_columns(self.column_affine, flat.reshape(flat.shape[0], -1), y)
            return
        if not (
            inputs is not None
            and inputs.dim() == 2
            and inputs.is_floating_point()
            and inputs.shape[0] == target.shape[0]
            and inputs.shape[0] >= 8
            and target.numel() == target.shape[0]
        ):
            return
        inputs = strided(inputs)
        if inputs is None:
            return
        y = target.detach().reshape(-1).double()
        if float(y.std()) > 0:
            _equal_columns(self.column_equal, inputs, y)
            _affine_columns(self.column_affine, inputs, y)
            _linear_exact(self.target_linear, inputs, y)
        x = inputs.detach().double()[:, :64]
        if float(y.std()) > 0:
            xc = x - x.mean(0)
            yc = y - y.mean()
            denom = xc.norm(dim=0) * yc.norm()
            corr = (xc.T @ yc) / torch.where(denom > 0, denom, torch.ones_like(denom))
            for j, c in enumerate(corr.tolist()):
                rec = self.column_target.setdefault(j, {"n": 0, "min_abs_corr": 1.0})
                rec["n"] += 1
                rec["min_abs_corr"] = min(
                    rec["min_abs_corr"], abs(c) if c == c else 0.0
                )  # NaN: no evidence


MAX_ROW_ELEMENTS = 4096  # elements of a (B, C, T) input's row compared with its target
LINEAR_BATCHES = 20  # training batches fitted by least squares
EXACT_RESIDUAL = 1e-4  # of the target's spread: float32 rounding, not noise


def _linear_exact(acc: list, inputs: torch.Tensor, y: torch.Tensor) -> None:
    """Count the batches whose real-valued target a least-squares fit of some of the input
    columns and a constant reproduces to float rounding, the others left out (a total that
    is the fare plus the tip among the features of a fare model), with rows enough that no
    fit is exact by construction: batches with fewer rows than that are pooled (acc[2])
    until they have them. Targets of whole numbers (classes) are not compared."""
    if acc[1] >= LINEAR_BATCHES or bool((y == y.round()).all()):
        return
    x = inputs.detach().double()
    k = x.shape[1]
    if k < 2 or k > 256:
        return
    pool = acc[2] if len(acc) > 2 and acc[2] and acc[2][0][0].shape[1] == k else []
    pool.append((x, y))
    if sum(len(p) for _, p in pool) < 2 * (k + 1):
        acc[2:] = [pool]
        return
    acc[2:] = [[]]
    x, y = torch.cat([p for p, _ in pool]), torch.cat([q for _, q in pool])
    n = x.shape[0]
    a = torch.cat([x, torch.ones(n, 1, dtype=x.dtype)], 1)
    fit = torch.linalg.lstsq(a, y[:, None]).solution
    residual = float((a @ fit).squeeze(1).sub(y).std())
    # the columns the combination leaves out: an exact sum of every feature (a toy task
    # that adds its inputs) is the task, a few columns that give the target away among
    # others that do not are a leak
    exact = EXACT_RESIDUAL * float(y.std())
    unused = int((fit[:k, 0].abs() * x.std(0) <= exact).sum())
    acc[1] += 1
    acc[0] += int(residual <= exact and unused > 0)


MAX_BLOCK = 256  # target values per row compared with the input's columns


def _block_target(acc: list, target: torch.Tensor, inputs: torch.Tensor | None) -> None:
    """Narrow `acc` ([per target column: the input columns equal to it, batches]) for a
    real-valued target of 2 to MAX_BLOCK values per row and an input row at least twice as
    wide (a window of past profiles beside the next one). A batch where some target
    column is constant says nothing (padding equals padding) and is skipped."""
    if (
        acc[1] >= MAX_COLUMN_BATCHES
        or inputs is None
        or target.dim() != 2
        or not (2 <= target.shape[1] <= MAX_BLOCK)
        or not target.is_floating_point()
        or not inputs.is_floating_point()
        or inputs.dim() < 2
        or inputs.shape[0] != target.shape[0]
        or inputs.shape[0] < 8
        or not (2 * target.shape[1] <= math.prod(inputs.shape[1:]) <= MAX_ROW_ELEMENTS)
        or (flat := strided(inputs)) is None
    ):
        return
    y = target.detach().double()
    if bool((y.std(0) == 0).any()):
        return
    x = flat.detach().reshape(flat.shape[0], -1).double()
    same = (x[:, :, None] == y[:, None, :]).all(0)  # (input column, target column)
    found = [set(same[:, c].nonzero().flatten().tolist()) for c in range(y.shape[1])]
    acc[0] = found if acc[0] is None else [a & b for a, b in zip(acc[0], found, strict=True)]
    acc[1] += 1


def block_equal_columns(acc: list) -> list[int]:
    """The input column equal to each target column in every batch compared (the first
    of several), or [] when some target column has none."""
    if acc[0] is None or not all(acc[0]):
        return []
    return [min(cols) for cols in acc[0]]


def _equal_columns(acc: list, inputs: torch.Tensor, y: torch.Tensor) -> None:
    """Narrow `acc` ([columns or None, batches]) to the columns of a 2-D input equal to
    the per-row target `y` in every row (all columns: a window's last value is its last)."""
    if acc[1] >= MAX_COLUMN_BATCHES:
        return
    same = set((inputs.detach().double() == y[:, None]).all(0).nonzero().flatten().tolist())
    acc[0] = same if acc[0] is None else acc[0] & same
    acc[1] += 1


def _affine_columns(acc: list, inputs: torch.Tensor, y: torch.Tensor) -> None:
    """Narrow `acc` ([columns or None, batches]) to the varying columns of a 2-D input that
    a·y + b reproduces to float rounding in every row, for a real-valued target `y` (the
    value to predict, standardized with other statistics than the inputs)."""
    if acc[1] >= MAX_COLUMN_BATCHES or bool((y == y.round()).all()):
        return
    x = inputs.detach().double()
    xc, yc = x - x.mean(0), y - y.mean()
    slope = (xc * yc[:, None]).sum(0) / (yc * yc).sum()
    spread = xc.std(0)
    residual = (xc - slope[None, :] * yc[:, None]).std(0)
    exact = (spread > 0) & (residual <= EXACT_RESIDUAL * spread)
    same = set(exact.nonzero().flatten().tolist())
    acc[0] = same if acc[0] is None else acc[0] & same
    acc[1] += 1


def loader_columns(stats: BatchStats, site: str, tensors: list[torch.Tensor]) -> None:
    """A DataLoader batch (x, y, ...): columns of a 2-D floating x equal to a real-valued,
    non-integer y of one value per row."""
    if len(tensors) < 2:
        return
    x = strided(tensors[0])
    if x is None or x.dim() != 2 or not x.is_floating_point() or x.shape[1] < 2:
        return
    acc = stats.loader_columns.setdefault(site, [None, 0])
    for y in tensors[1:]:
        if y.is_floating_point() and y.numel() == x.shape[0] and x.shape[0] >= 8:
            y = y.detach().reshape(-1).double()
            if float(y.std()) > 0 and not bool((y == y.round()).all()):
                _equal_columns(acc, x, y)
            return


def _accumulate(into: dict[str, list], key: str, m) -> None:
    """Add one batch's per-feature sums, sums of squares and rows to `into[key]`."""
    acc = into.get(key)
    if acc is None or len(acc[0]) != len(m[0]):
        into[key] = [list(m[0]), list(m[1]), m[2]]
    else:
        acc[0] = [a + b for a, b in zip(acc[0], m[0])]
        acc[1] = [a + b for a, b in zip(acc[1], m[1])]
        acc[2] += m[2]


def _row_offsets(acc: dict[str, list], key: str, x: torch.Tensor) -> None:
    """Each row's own mean and variance (a row: a sample, or one channel of it): how much
    of the inputs' spread lies between rows rather than within them."""
    dense = strided(x)
    if dense is None:
        return
    rows = rows_of(dense)
    if rows.shape[1] < 2 or not bool(torch.isfinite(rows).all()):
        return
    means = rows.mean(1)
    a = acc.setdefault(key, [0, 0.0, 0.0, 0.0])
    a[0] += int(rows.shape[0])
    a[1] += float(means.sum())
    a[2] += float((means**2).sum())
    a[3] += float(rows.var(1, unbiased=False).sum())
