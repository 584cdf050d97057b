"""Which training loss each training row reached, and whether that loss's target is a value
of its inputs (self-supervised: a reconstruction, a next step of the input stream).

Held-out inputs that were seen in training only under such a loss (an encoder pretrained
on the whole unlabeled record) were never seen with the label a supervised head learns
and the evaluation scores: they are not leaked labels. The overlap of held-out rows with
training rows (serialized here, as the trace's overlap fields) leaves those rows out when
training also has a supervised loss and the evaluation does not itself score a target
taken from its inputs (a language model scored on the text it trained on still leaks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch

from .tensors import row_fingerprints, strided

if TYPE_CHECKING:
    from .batches import BatchStats

MAX_ROWS = 100_000  # training row fingerprints kept with their step
MAX_CELLS = 400_000  # per phase: input cells (time steps, rows) target rows are looked up in
MAX_TARGETS = 20_000  # distinct target rows kept per loss site
CELL_ROWS = 8192  # cells fingerprinted per input tensor and width
MIN_DISTINCT = 20  # distinct target rows before a loss site's targets are compared
FOUND = 0.5  # share of them found among the input cells: the target is taken from the inputs
MIN_INT_WIDTH = 8  # a row of whole numbers this wide is not equal to an input cell by chance


class LossRows:
    def __init__(self) -> None:
        self.step_rows: dict[int, set[str]] = {}  # training step -> its input row fingerprints
        self.step_sites: dict[int, set[str]] = {}  # training step -> its loss call sites
        self.widths: set[int] = set()  # values per target row, of the targets seen so far
        # phase -> "width:fingerprint" of every input cell of that width (the rows of a
        # tensor over its trailing dimensions, or over its channel dimension)
        self.cells: dict[str, set[str]] = {"train": set(), "eval": set()}
        self.targets: dict[str, dict[str, set[str]]] = {"train": {}, "eval": {}}
        self.n_rows = 0

    def inputs(self, phase: str, tensors: list[torch.Tensor], fps: list[str], step: int) -> None:
        if phase == "train" and fps and self.n_rows < MAX_ROWS:
            rows = self.step_rows.setdefault(step, set())
            self.n_rows += len(set(fps) - rows)
            rows.update(fps)
        cells = self.cells.get(phase)
        if cells is None or len(cells) >= MAX_CELLS:
            return
        for t in tensors[:4]:
            for w in self.widths:
                try:
                    found = [fp for v in _cells(t, w) for fp in row_fingerprints(v, CELL_ROWS)]
                except (RuntimeError, ValueError, TypeError):  # a layout no row is read from
                    continue
                cells.update(f"{w}:{fp}" for fp in found)

    def target(self, phase: str, target: torch.Tensor, site: str, step: int) -> None:
        if phase == "train":
            self.step_sites.setdefault(step, set()).add(site)
        rows = _target_rows(target)
        if rows is None or phase not in self.targets:
            return
        self.widths.add(rows.shape[1])
        kept = self.targets[phase].setdefault(site, set())
        if len(kept) < MAX_TARGETS:
            kept.update(f"{rows.shape[1]}:{fp}" for fp in row_fingerprints(rows, CELL_ROWS))

    def eval_target(self, target: tuple | None, frame: dict | None) -> None:
        """An evaluation loss call's (target, last input), as the loss call kept them."""
        if target is not None and isinstance(target[0], torch.Tensor):
            site = f"{frame['file']}:{frame['line']}" if frame else "?"
            self.target("eval", target[0], site, 0)

    def self_supervised(self, phase: str) -> set[str]:
        """The loss sites whose target rows are, mostly, cells of the phase's inputs."""
        cells = self.cells[phase]
        return {
            site
            for site, rows in self.targets[phase].items()
            if len(rows) >= MIN_DISTINCT and sum(r in cells for r in rows) >= FOUND * len(rows)
        }

    def set_aside(self) -> set[str]:
        """Training rows seen only at steps whose every loss is self-supervised, when
        another training loss is supervised and no evaluation loss scores a target taken
        from its inputs; rows of steps with no loss known are never set aside."""
        own = self.self_supervised("train")
        sites = set().union(*self.step_sites.values()) if self.step_sites else set()
        if not own or not (sites - own) or self.self_supervised("eval"):
            return set()
        aside: set[str] = set()
        kept: set[str] = set()
        for step, rows in self.step_rows.items():
            s = self.step_sites.get(step)
            (aside if s and s <= own else kept).update(rows)
        return aside - kept


def _target_rows(target: torch.Tensor) -> torch.Tensor | None:
    """A real-valued target's rows (one per sample), when a row identifies a value: one
    value that is not a whole number, or several values (many, for whole numbers: a class
    or a token id is among any input's values by chance)."""
    t = strided(target)
    if t is None or t.dim() == 0 or t.shape[0] < 2 or not t.is_floating_point():
        return None
    rows = t.detach().reshape(t.shape[0], -1)
    whole = bool((rows == rows.round()).all())
    if rows.shape[1] > CELL_ROWS or (whole and rows.shape[1] < MIN_INT_WIDTH):
        return None
    return rows


def _cells(t: torch.Tensor, width: int) -> list[torch.Tensor]:
    """The tensor's rows of `width` values: over its trailing dimensions ((B, T, C) read
    as B*T steps of C), and over its channel dimension ((B, C, T) as B*T steps of C)."""
    if (
        not isinstance(t, torch.Tensor)
        or t.layout != torch.strided  # a sparse or nested input has no rows to read
        or t.dim() == 0
        or not t.is_floating_point()
    ):
        return []
    out = []
    shape = list(t.shape)
    for k in range(1, len(shape) + 1):  # a univariate series' steps are its values
        if _prod(shape[k:]) == width:
            out.append(t.reshape(-1, width))
            break
    if t.dim() >= 3 and shape[1] == width:
        out.append(t.movedim(1, -1).reshape(-1, width))
    return out


def _prod(dims: list[int]) -> int:
    n = 1
    for d in dims:
        n *= d
    return n


def overlap_section(stats: BatchStats) -> dict:
    """The held-out batches' rows among the training rows, without the rows set aside."""
    aside = stats.loss_rows.set_aside()
    seen = set(stats.fingerprints["train"])
    if stats.transformed_rows:
        # rows that exist in training only as the program's transform of other rows are
        # not the samples it trained on: the rows they were made from are
        made = stats.plain_rows | stats.origin_rows
        only_made = stats.transformed_rows - made
        seen = (seen - only_made) | stats.origin_rows
    else:
        only_made = set()
    train_fps = seen - aside
    eval_fps = set(stats.fingerprints["eval"])
    return {
        "train_fingerprints": len(stats.fingerprints["train"]),
        "eval_fingerprints": len(stats.fingerprints["eval"]),
        "train_unique": len(train_fps),
        "eval_unique": len(eval_fps),
        "overlap": len(eval_fps & train_fps),
        # held-out rows seen in training only under a loss whose target is an input value
        "self_supervised_overlap": len(eval_fps & (seen & aside)),
        # held-out rows equal to training rows only as the program transformed them
        "transformed_overlap": len(eval_fps & only_made),
        "eval_batches": [
            {
                "site": site,
                "rows": len(set(fps)),
                "overlap": len(set(fps) & train_fps),
                "step": step,
                # the distinct training rows the evaluated module received, and how many
                # of them this batch holds
                "module_train_rows": len(stats.train_rows.get(module, ())),
                "holds_train_rows": len(set(fps) & stats.train_rows.get(module, set())),
                "batch_rows": total,
                "fingerprinted": len(fps),
            }
            for site, fps, step, module, total in stats.eval_batches
        ],
        "eval_first_pass": _first_pass(stats.eval_batches),
    }


def _first_pass(eval_batches: list[tuple[str, list[str], int, int, int]]) -> dict | None:
    """Rows drawn and distinct rows in the first evaluation pass (the first site's batches
    at the first training step it ran at): how often the data repeats itself within one
    pass, which later passes over the same rows cannot inflate."""
    if not eval_batches:
        return None
    site, _, step, *_ = eval_batches[0]
    fps = [fp for s, batch, k, *_ in eval_batches if s == site and k == step for fp in batch]
    return {"site": site, "drawn": len(fps), "unique": len(set(fps))}
