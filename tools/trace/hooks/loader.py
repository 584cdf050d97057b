"""`DataLoader`: construction (site, batch size, sampler, dataset length) and iteration
(batches per loader, the loader that fed each forward). Once fast-forwarding, each
training epoch gets one batch and each evaluation pass `eval_batches`.

Worker processes load in-process (`num_workers` 0): a forked worker would carry the
tracer's hooks into every batch it loads, and its batches would reach the recorder only
as pickles; the loader's record keeps the number the program asked for. Pinned memory
is turned off when there is no GPU to pin it for."""

from __future__ import annotations

import functools
import inspect

import torch
from torch.utils.data import BatchSampler, ConcatDataset, DataLoader, RandomSampler, Subset

from .. import eval_order, shadow_eval, target_order, train_rows
from ..batches import loader_columns
from ..interventions import batch as batch_iv
from ..recorder import Recorder
from ..tensors import frame_dict, frame_key, tensors_in
from .built_at import caller_of_construction, construction_point
from .guard import Undo, guarded


class LoaderIter:
    def __init__(self, rec: Recorder, loader: DataLoader, it, site: str) -> None:
        self.rec, self.loader, self.it, self.site, self.n = rec, loader, it, site, 0
        rec.loaders[site]["iterations"] += 1
        eval_order.started(rec, loader, site)

    def __iter__(self):
        return self

    def __len__(self):
        return len(self.it)

    def __getattr__(self, name):
        return getattr(self.it, name)

    def __next__(self):
        rec = self.rec
        info = rec.loaders[self.site]
        if rec.fast_forward and rec.cfg.fast_forward and rec.status == "running":
            limit = 1 if info.get("role") == "train" else rec.cfg.eval_batches
            if self.n >= limit:
                raise StopIteration
        # the dataset's own indexing and collation are not the model's ops: skipping the
        # function mode there is most of the tracer's cost on small models
        with torch._C.DisableTorchFunction():
            batch = next(self.it)
        self.n += 1
        info["batches"] += 1
        rec.current_loader = self.site
        batch = batch_iv.fixed_loader_batch(rec, self.site, batch)
        tensors = tensors_in(batch)
        for t in tensors:
            t._ti_batch = True
        train_rows.loaded(tensors, self.site)
        with rec.quiet():
            eval_order.loaded(rec, self.site, tensors)
        shadow_eval.tag(tensors)
        rec.current_batch = tensors
        with rec.quiet():
            if info["iterations"] == 1:  # a row counted once: later passes repeat it
                code_targets(rec, self.site, tensors)
            if rec.detailed:
                _loader_columns(rec, self.site, tensors)
        if rec.detailed:
            target_order.loaded(rec, tensors)
        return batch


@guarded
def _loader_columns(rec: Recorder, site: str, tensors: list) -> None:
    loader_columns(rec.batches, site, tensors)


def install(rec: Recorder, undo: Undo) -> None:
    orig_init = DataLoader.__init__
    orig_iter = DataLoader.__iter__

    signature = inspect.signature(orig_init)

    @functools.wraps(orig_init)  # Lightning reads the signature to re-instantiate loaders
    def init(self, *a, **k):
        asked = 0
        if not rec.busy:
            a, k, asked = _in_process(signature, self, a, k)
        orig_init(self, *a, **k)  # the program's own call
        if rec.busy:
            return
        frame, point = construction_point(self)
        frame, site = _own_site(rec, frame, *caller_of_construction(self))
        points = rec.loader_points.setdefault(site, [point])
        if point not in points:  # `return DataLoader(tr), DataLoader(va)`: two on one line
            points.append(point)
        if points.index(point):
            site = f"{site}@{points.index(point) + 1}"
        object.__setattr__(self, "_ti_site", site)
        if site not in rec.loaders:
            rec.loaders[site] = _loader_info(self, site, frame)
            rec.loaders[site]["num_workers"] = asked
            _subset(rec, self.dataset, site)
            train_rows.dataset_tensors(rec, self.dataset, site)

    def iter_(self):
        site = getattr(self, "_ti_site", None)
        if site is None or rec.busy:
            return orig_iter(self)  # the program's own call
        it = batch_iv.shuffled_iterator(rec, self, site, orig_iter)
        if it is None:
            it = batch_iv.ordered_iterator(rec, self, site, orig_iter)
        if it is None:
            it = orig_iter(self)  # the program's own call
        return LoaderIter(rec, self, it, site)

    DataLoader.__init__ = init
    DataLoader.__iter__ = iter_
    undo.append(lambda: setattr(DataLoader, "__init__", orig_init))
    undo.append(lambda: setattr(DataLoader, "__iter__", orig_iter))


def _own_site(rec: Recorder, frame, caller, at) -> tuple:
    """(frame, site) a loader is known by: where it is built, unless a loader built there
    came from another call of the helper that builds both (`make_loader(train_ds)`,
    `make_loader(val_ds)`): then the line of that call, or, for two calls on one line,
    the line with the call's rank (`train.py:17#2`). A loader rebuilt by the same call
    (every epoch) keeps its site."""
    site = frame_key(frame)
    first = rec.loader_callers.setdefault(site, (frame_key(caller), at))
    if caller is None or first == (frame_key(caller), at):
        return frame, site
    if first[0] != frame_key(caller):
        frame, site = caller, frame_key(caller)
        rec.loader_callers.setdefault(site, (site, at))
        if rec.loader_callers[site] == (site, at):
            return frame, site
    calls = rec.loader_calls.setdefault(site, [])
    if at not in calls:
        calls.append(at)
    return frame, f"{site}#{calls.index(at) + 2}"


def _in_process(signature: inspect.Signature, loader, a: tuple, k: dict) -> tuple[tuple, dict, int]:
    """The constructor's arguments with worker processes (and the options only they
    accept) removed; the number of workers the program asked for."""
    try:
        bound = signature.bind(loader, *a, **k)
    except TypeError:
        return a, k, 0  # the constructor will say what is wrong with the call
    args = bound.arguments
    asked = int(args.get("num_workers") or 0)
    if asked:
        args["num_workers"] = 0
        for name in ("prefetch_factor", "persistent_workers", "multiprocessing_context"):
            args.pop(name, None)
        if "worker_init_fn" in args:
            args["worker_init_fn"] = None
    if args.get("pin_memory") and not torch.cuda.is_available():
        args["pin_memory"] = False
        args.pop("pin_memory_device", None)
    return bound.args[1:], bound.kwargs, asked


MAX_CODE_COLUMNS, MAX_CODES = 32, 256


def code_targets(rec: Recorder, site: str, tensors: list) -> None:
    """A batch that holds integer codes (rows, columns) and a per-row target: for each
    column, each code's count and the sum and sum of squares of the targets that came with
    it, per loader, over the loader's first pass only (a row seen again in a later epoch is
    no new observation: counting it again would shrink the standard errors the comparison
    relies on). Training and evaluation loaders are compared later: a code that goes with
    other targets in evaluation stands for another category there."""
    codes = next(
        (t for t in tensors if t.dim() == 2 and not t.is_floating_point()
         and t.dtype != torch.bool and 1 <= t.shape[1] <= MAX_CODE_COLUMNS),
        None,
    )  # fmt: skip
    if codes is None:
        return
    rows = codes.shape[0]
    store = rec.code_targets.setdefault(site, {})
    for i, y in enumerate(tensors):
        if y is codes or y.dim() != 1 or y.shape[0] != rows or y.dtype == torch.bool:
            continue
        yv = y.detach().double()
        columns = store.setdefault(i, [{} for _ in range(codes.shape[1])])
        if len(columns) != codes.shape[1]:
            continue
        for j, column in enumerate(codes.detach().T.tolist()):
            acc = columns[j]
            for code, v in zip(column, yv.tolist()):
                if code not in acc and len(acc) >= MAX_CODES:
                    continue
                a = acc.setdefault(code, [0, 0.0, 0.0])
                a[0] += 1
                a[1] += v
                a[2] += v * v


MAX_SUBSET = 500_000


def _dataset_class(dataset) -> str:
    """The class that pairs inputs with targets: through Subsets (random_split) and
    ConcatDatasets to the first dataset that is neither."""
    for _ in range(8):
        if isinstance(dataset, Subset):
            dataset = dataset.dataset
        elif isinstance(dataset, ConcatDataset) and dataset.datasets:
            dataset = dataset.datasets[0]
        else:
            break
    return type(dataset).__name__


def _subset(rec: Recorder, dataset, site: str) -> None:
    """A loader over a Subset (random_split, Subset(ds, ids)): which samples of which
    dataset it reads, so the training and evaluation loaders can be compared by sample."""
    if not isinstance(dataset, Subset):
        return
    try:
        indices = [int(i) for i in list(dataset.indices)[:MAX_SUBSET]]
    except (TypeError, ValueError):
        return
    rec.subsets[site] = (dataset.dataset, frozenset(indices))


def _own_batch_sampler(loader: DataLoader) -> str:
    """The class of a batch sampler the program passed (it, not `sampler`, orders the
    rows), or "" for torch's own BatchSampler."""
    bs = getattr(loader, "batch_sampler", None)
    return "" if bs is None or type(bs) is BatchSampler else type(bs).__name__


def _loader_info(loader: DataLoader, site: str, frame) -> dict:
    try:
        n = len(loader.dataset)  # type: ignore[arg-type]
    except TypeError:
        n = None
    return {
        "site": site,
        "frame": frame_dict(frame),
        "batch_size": loader.batch_size,
        "shuffle": isinstance(loader.sampler, RandomSampler),
        "sampler": type(loader.sampler).__name__,
        "batch_sampler": _own_batch_sampler(loader),
        "drop_last": bool(loader.drop_last),
        "dataset_len": n,
        "dataset_class": _dataset_class(loader.dataset),
        "num_workers": loader.num_workers,
        "batches": 0,
        "iterations": 0,
        "role": None,
    }


def subset_overlaps(rec: Recorder) -> list[dict]:
    """Samples a training loader and another loader read from the same dataset."""
    out = []
    for train_site, (base, train_ids) in rec.subsets.items():
        if rec.loaders.get(train_site, {}).get("role") != "train":
            continue
        for other_site, (other_base, other_ids) in rec.subsets.items():
            if other_site == train_site or other_base is not base:
                continue
            if rec.loaders.get(other_site, {}).get("role") == "train":
                continue
            out.append({
                "train": train_site, "eval": other_site, "train_n": len(train_ids),
                "eval_n": len(other_ids), "overlap": len(train_ids & other_ids),
            })  # fmt: skip
    return out
