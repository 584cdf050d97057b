"""Interventions on what the model is fed: one fixed batch (at the DataLoader or the
forward), a held-out batch whose loss is measured after each update, shuffled targets,
standardized inputs, a shuffled training DataLoader and evaluation DataLoaders in order."""

from __future__ import annotations

import torch
from torch.utils.data import BatchSampler, DataLoader, RandomSampler

from ..probes import Restore
from ..recorder import MAX_CURVE, Recorder
from ..tensors import batch_copy, map_tensors, rows_of, tensors_in
from . import reference_model


def _copies(args, kwargs) -> tuple:
    return map_tensors(args, batch_copy), map_tensors(kwargs, batch_copy)


def fixed_forward(rec: Recorder, module: torch.nn.Module, args, kwargs, grad: bool):
    """fixed_batch at a training forward: the first `fixed_pool` inputs are kept and then
    replayed in turn; with holdout, the next one is kept aside as the held-out batch
    (forward level). Returns (args, kwargs, replaced)."""
    iv, st = rec.iv, rec.iv_state
    if not (grad and iv.fixed_batch):
        return args, kwargs, False
    n = st.n_forward
    st.n_forward = n + 1
    pool = max(1, iv.fixed_pool)
    if iv.holdout and ((st.level == "forward" and n == pool) or st.take_pending_forward()):
        st.holdout_args = _copies(args, kwargs)
        st.holdout_model = module
        st.holdout_pending = True
    if st.level != "forward":
        return args, kwargs, False
    if len(st.pool) < pool:
        st.index = len(st.pool)
        st.pool.append(_copies(args, kwargs))
        return args, kwargs, False
    st.index = n % pool
    a, k = st.pool[st.index]
    return map_tensors(a, batch_copy), map_tensors(k, batch_copy), True


def standardized_inputs(rec: Recorder, args, kwargs, tensors: list[torch.Tensor]):
    """standardize_inputs: the first float input standardized per feature with the
    statistics of the first batch. Returns (args, kwargs, tensors, replaced)."""
    if not (
        rec.iv.standardize_inputs
        and tensors
        and tensors[0].is_floating_point()
        and tensors[0].dim() >= 2
    ):
        return args, kwargs, tensors, False
    st = rec.iv_state
    x = tensors[0]
    if st.standardize is None:
        dims = [0] + list(range(2, x.dim()))
        mu = x.detach().mean(dims, keepdim=True)
        sd = x.detach().std(dims, keepdim=True).clamp_min(1e-6)
        st.standardize = (mu, sd)
    mu, sd = st.standardize
    if not (mu.shape[1:] == x.shape[1:] or mu.dim() == x.dim()):
        return args, kwargs, tensors, False
    new_x = (x - mu) / sd
    args = map_tensors(args, lambda t: new_x if t is x else t)
    kwargs = map_tensors(kwargs, lambda t: new_x if t is x else t)
    return args, kwargs, [new_x, *tensors[1:]], True


ALIGN_ROWS = 4096  # training rows whose moments the evaluation inputs are moved to


def aligned_eval_inputs(rec: Recorder, args, kwargs, tensors: list[torch.Tensor], grad: bool):
    """align_eval_inputs: the training forwards' first float input gives per-feature
    moments (its first rows); an evaluation forward's first float input is moved to them
    (standardized with its own batch's moments, then given the training mean and std).
    Returns (args, kwargs, replaced)."""
    if not (rec.iv.align_eval_inputs and tensors and tensors[0].is_floating_point()):
        return args, kwargs, False
    x = tensors[0]
    if x.dim() < 2 or x.shape[0] < 2:
        return args, kwargs, False
    flat = x.detach().reshape(x.shape[0], -1).double()
    st = rec.iv_state
    if grad:
        if st.align is None:
            st.align = [0, torch.zeros(flat.shape[1], dtype=torch.float64), None]
            st.align[2] = torch.zeros_like(st.align[1])
        if st.align[0] < ALIGN_ROWS and st.align[1].numel() == flat.shape[1]:
            st.align[0] += flat.shape[0]
            st.align[1] += flat.sum(0)
            st.align[2] += (flat**2).sum(0)
        return args, kwargs, False
    if st.align is None or st.align[0] < 2 or st.align[1].numel() != flat.shape[1]:
        return args, kwargs, False
    n, s, sq = st.align
    mu_t = s / n
    sd_t = (sq / n - mu_t**2).clamp_min(0).sqrt()
    mu_e, sd_e = flat.mean(0), flat.std(0)
    live = (sd_t > 1e-6) & (sd_e > 1e-6)
    moved = torch.where(live, (flat - mu_e) / sd_e.clamp_min(1e-6) * sd_t + mu_t, flat)
    new_x = moved.to(x.dtype).reshape(x.shape)
    args = map_tensors(args, lambda t: new_x if t is x else t)
    kwargs = map_tensors(kwargs, lambda t: new_x if t is x else t)
    return args, kwargs, True


def aligned_eval_rows(rec: Recorder, args, kwargs, tensors: list[torch.Tensor], grad: bool):
    """align_eval_rows: each row of an evaluation forward's first float input (a sample,
    or one channel of it) standardized with its own mean and spread, then given the
    training rows' average mean and spread: offsets and scales that training rows had
    removed (a recording standardized on its own) are removed from evaluation rows too.
    Returns (args, kwargs, replaced)."""
    if not (rec.iv.align_eval_rows and tensors and tensors[0].is_floating_point()):
        return args, kwargs, False
    x = tensors[0]
    if x.dim() < 2 or x.shape[0] < 1 or x.layout != torch.strided:
        return args, kwargs, False
    rows = rows_of(x)
    if rows.shape[1] < 2:
        return args, kwargs, False
    st = rec.iv_state
    if grad:
        acc = st.align_rows = st.align_rows or [0, 0.0, 0.0]
        if acc[0] < ALIGN_ROWS:
            acc[0] += rows.shape[0]
            acc[1] += float(rows.mean(1).sum())
            acc[2] += float(rows.std(1, unbiased=False).sum())
        return args, kwargs, False
    if not st.align_rows or st.align_rows[0] < 2:
        return args, kwargs, False
    n, means, stds = st.align_rows
    spread = rows.std(1, unbiased=False, keepdim=True)
    moved = torch.where(
        spread > 1e-6,
        (rows - rows.mean(1, keepdim=True)) / spread.clamp_min(1e-6) * (stds / n) + means / n,
        rows,
    )
    new_x = moved.to(x.dtype).reshape(x.shape)
    args = map_tensors(args, lambda t: new_x if t is x else t)
    kwargs = map_tensors(kwargs, lambda t: new_x if t is x else t)
    return args, kwargs, True


class _RandomBatches:
    """Batches of the sizes the program's own batch sampler makes, of rows drawn in
    random order: its order (and grouping) removed, its batch sizes kept."""

    def __init__(self, own, n: int) -> None:
        self.own, self.n = own, n

    def __iter__(self):
        sizes = [len(b) for b in self.own]
        order = torch.randperm(self.n).tolist()
        start = 0
        for size in sizes:
            yield order[start : start + size]
            start += size

    def __len__(self) -> int:
        return len(self.own)


def shuffled_iterator(rec: Recorder, loader: DataLoader, site: str, orig_iter):
    """shuffle_loader: the training DataLoader iterates in random order (None: unchanged)."""
    if not (rec.iv.shuffle_loader and site == rec.cfg.train_loader):
        return None
    own = loader.batch_sampler
    if own is not None and type(own) is not BatchSampler:
        shadow = DataLoader(
            loader.dataset, batch_sampler=_RandomBatches(own, len(loader.dataset)),
            collate_fn=loader.collate_fn,
        )  # fmt: skip
    elif isinstance(loader.sampler, RandomSampler):
        return None
    else:
        shadow = DataLoader(
            loader.dataset, batch_size=loader.batch_size, shuffle=True,
            collate_fn=loader.collate_fn, drop_last=loader.drop_last,
        )  # fmt: skip
    object.__setattr__(shadow, "_ti_site", None)
    return orig_iter(shadow)


def ordered_iterator(rec: Recorder, loader: DataLoader, site: str, orig_iter):
    """ordered_eval_loaders: a shuffling loader built at one of the named sites iterates
    in the dataset's order, its batch size and collation kept (None: unchanged). The
    random draws its sampler would have made are made still, so the run's random stream
    (dropout, the training loader's shuffles) stays the one as written."""
    sites = [s for s in rec.iv.ordered_eval_loaders.split(",") if s]
    sampler = loader.sampler
    if site not in sites or not isinstance(sampler, RandomSampler) or sampler.replacement:
        return None
    with rec.quiet():
        next(iter(sampler), None)  # its seed and permutation drawn, as it would draw them
        shadow = DataLoader(
            loader.dataset, batch_size=loader.batch_size, shuffle=False,
            collate_fn=loader.collate_fn, drop_last=loader.drop_last, generator=loader.generator,
        )  # fmt: skip
    object.__setattr__(shadow, "_ti_site", None)
    return orig_iter(shadow)


def fixed_loader_batch(rec: Recorder, site: str, batch):
    """fixed_batch at the training DataLoader: the first `fixed_pool` batches, then those
    again in turn; with holdout, the batch after them passes through once as the
    held-out batch."""
    iv, st = rec.iv, rec.iv_state
    if not (iv.fixed_batch and st.level == "loader" and site == rec.cfg.train_loader):
        return batch
    pool = max(1, iv.fixed_pool)
    n = st.n_loader
    st.n_loader = n + 1
    if len(st.loader_pool) < pool:
        st.loader_pool.append(map_tensors(batch, batch_copy))
    elif iv.holdout and not st.holdout_taken:
        st.holdout_taken = True
        st.holdout_pending_forward = True
    else:
        batch = map_tensors(st.loader_pool[n % pool], batch_copy)
    return batch


def fixed_target(rec: Recorder, inp: torch.Tensor, tgt: torch.Tensor, site: str) -> torch.Tensor:
    """At a training loss call: keep the held-out target, replay the first target of
    this loss site (forward level), permute targets against inputs (shuffle_targets)."""
    iv, st = rec.iv, rec.iv_state
    st.holdout_in_step = iv.holdout and st.holdout_pending and st.level == "loader"
    if iv.holdout and st.holdout_pending:
        st.holdout_target = tgt.detach().clone()
        if tgt.is_floating_point() and tgt.dim() >= 1 and tgt.shape[0] > 1:
            # the squared difference of the best constant for this batch (its own mean)
            st.holdout_level = float((tgt - tgt.mean(0)).pow(2).mean())
        st.holdout_input_shape = tuple(inp.shape)
        st.holdout_pending = False
    if iv.fixed_batch and st.level == "forward":
        stored = st.targets.setdefault(site, [])
        if st.index < len(stored):
            tgt = stored[st.index].clone()
        else:
            stored.append(tgt.detach().clone())
    if iv.shuffle_targets and iv.fixed_batch and tgt.dim() >= 1 and tgt.shape[0] > 1:
        if st.perm is None or st.perm.numel() != tgt.shape[0]:
            g = torch.Generator().manual_seed(7)
            st.perm = torch.randperm(tgt.shape[0], generator=g)
        tgt = tgt[st.perm]
    return tgt


def holdout_not_trained(rec: Recorder, params) -> None:
    """Before an update: while the held-out batch a DataLoader gave is the one in the
    step, every gradient is dropped, so no optimizer learns from its targets (the
    reference fits would otherwise have seen the unseen batch once)."""
    if not rec.iv_state.holdout_in_step:
        return
    for p in params:
        p.grad = None


def holdout_after_step(rec: Recorder) -> None:
    if rec.iv.holdout:
        _record_holdout(rec)


def holdout_after_backward(rec: Recorder) -> None:
    """Hand-written updates (no optimizer): the held-out loss after each iteration."""
    if not rec.optimizers and rec.iv.holdout:
        _record_holdout(rec)


def _record_holdout(rec: Recorder) -> None:
    st = rec.iv_state
    if st.holdout_target is None or st.holdout_args is None:
        return
    v = holdout_loss(rec)
    if v is not None and len(rec.holdout_losses) < MAX_CURVE:
        rec.holdout_losses.append(v)


def holdout_loss(rec: Recorder) -> float | None:
    """Loss of the traced model on the held-out batch, in eval mode, without grad."""
    st = rec.iv_state
    fn = rec.loss_fn
    model = st.holdout_model
    if fn is None or model is None:
        return None
    func, kwargs, extra = fn
    a, k = st.holdout_args
    # the held-out batch is fed as the training batches were (standardized the same way)
    a, k, _, _ = standardized_inputs(rec, a, k, tensors_in(a) or tensors_in(k))
    target = st.holdout_target
    with rec.quiet(), Restore(model), torch.no_grad():
        try:
            model.eval()
            out = tensors_in(reference_model.replaced_output(rec, a, k, model(*a, **k)))
            if not out:
                return None
            pred = out[0]
            shape = st.holdout_input_shape
            if (
                shape is not None
                and tuple(pred.shape) != shape
                and pred.numel() == torch.Size(shape).numel()
            ):
                pred = pred.reshape(shape)
            v = func(pred, target, *extra, **kwargs)
            return float(v.detach().float().mean())
        except Exception:  # noqa: BLE001 - holdout is best effort
            return None
