"""Whether the targets reach the loss in the order the DataLoader delivered them, while
the inputs reach the model as delivered: a target batch that arrives reordered (the same
values at other positions: `y.roll(1, 0)`, `y[torch.randperm(n)]`, a flip) no longer
belongs to its inputs, whatever the code that reorders it is called. A batch whose
inputs were reordered too (sorted by length for packing) is consistent and not counted;
inputs changed on the way (augmented, scaled) leave the question open."""

from __future__ import annotations

import torch

from . import read_positions, token_layout
from .future import future_probe, shift_axis
from .recorder import Recorder
from .tensors import frame_dict

# targets equal to an integer input moved this many positions (not one: the next token)
# pair each position with a later token than the next
SKIPS = (2, 3, 4)


def loaded(rec: Recorder, tensors: list[torch.Tensor]) -> None:
    """A training DataLoader batch: its tensors, to compare with what reaches the model and
    the loss."""
    rec.loader_batch = [t for t in tensors if isinstance(t, torch.Tensor)]
    rec.input_as_loaded = None  # then the index of the batch tensor the model is fed, or False


def gathered(rec: Recorder, source, index, out) -> None:
    """Outside any model, `X[idx]` and `Y[idx]` with one index (the same index tensor, or
    equal slices) gather one batch by hand: the rows of a batch, as a DataLoader would
    give them."""
    if not isinstance(out, torch.Tensor) or not isinstance(source, torch.Tensor):
        return
    if isinstance(index, torch.Tensor):
        key = index  # the very same index object (compared by identity)
    elif isinstance(index, slice):
        key = ("slice", index.start, index.stop, index.step)
    else:
        return
    same = key is rec.gather_key if isinstance(key, torch.Tensor) else key == rec.gather_key
    if not same:
        rec.gather_key, rec.gather_rows = key, [(id(source), out)]
        return
    if any(src == id(source) for src, _ in rec.gather_rows):
        return
    rec.gather_rows.append((id(source), out))
    loaded(rec, [t for _, t in rec.gather_rows])


def received(rec: Recorder, tensors: list[torch.Tensor], call: tuple) -> None:
    """The tensors a training forward receives, kept until the next training loss call
    compares its target with them; `call` (module, args, kwargs) until the future probe
    has run."""
    rec.received = [
        t for t in tensors[:4] if t.layout == torch.strided and not t.is_complex() and t.dim() >= 1
    ]  # a sparse input (a graph's adjacency) holds no ids to compare
    rec.received_call = call if rec.cfg.probes and rec.future is None else None


def target_against_input(
    rec: Recorder, target: torch.Tensor, frame, ignore: int | None = None
) -> None:
    """A training target against what the model received in the same iteration.

    - integer ids equal position by position to ids the model received: the model is
      shown the answer it is asked for (a language model whose targets were not shifted,
      a label kept among the input columns). A second input that is the target shifted
      by one position (a decoder fed the previous target tokens: teacher forcing in a
      copy task) says the equality is the task;
    - floating targets equal to the model's input: the model reconstructs its input (an
      autoencoder), so there are no input/target pairs to misalign;
    - targets equal to an input shifted by one position (the next token): paired with
      their inputs by construction;
    - a forward handed its targets beside other ids (a GPT's `forward(idx, targets)`
      computing its loss inside) has received them to score, not as input: only when
      every integer tensor it received equals the targets is it shown its answer."""
    fed, rec.received = rec.received, []
    if not fed or target.numel() < 2:
        return
    with rec.quiet(), torch.no_grad():
        y = target.detach()
        same = [x for x in fed if x.numel() == y.numel() and _equal(x.reshape(y.shape), y)]
        others = [x for x in fed if all(x is not z for z in same)]
        forced = y.dim() >= 1 and any(
            x.shape == y.shape and _equal(x[..., 1:], y[..., :-1]) for x in others
        )
        scored = any(x.numel() == y.numel() and not x.is_floating_point() for x in others)
        next_token = (not same or scored) and any(_shifted(x, y) for x in others or fed)
        skip = (
            None
            if same or next_token or y.is_floating_point()
            else next(
                (k for k in SKIPS if any(shift_axis(x, y, k) is not None for x in others or fed)),
                None,
            )
        )
    s = rec.target_is_input
    s["compared"] += 1
    if same and y.is_floating_point():
        s["reconstructed"] += 1
    elif same and not forced and not scored:
        s["equal"] += 1
        if s["frame"] is None:
            s["frame"] = frame_dict(frame)
    elif next_token:
        s["shifted"] += 1
        # the input the targets are shifted from, and along which axis (one exists)
        x, axis = next((x, a) for x in others or fed if (a := shift_axis(x, y)) is not None)
        _probe_future(rec, x, axis)
        token_layout.next_token_batch(rec, x, axis)
        if ignore is not None:
            _padded_tail(rec, x, y.reshape(x.shape), axis, ignore, frame)
            with rec.quiet(), torch.no_grad():
                read_positions.scored(rec.positions, x, y.reshape(x.shape), axis, ignore, frame)
    elif skip is not None:
        s["skipped"] += 1
        s["skip"] = skip
        if s["skip_frame"] is None:
            s["skip_frame"] = frame_dict(frame)
    elif not same and not next_token:
        with rec.quiet(), torch.no_grad():
            offset = next((k for x in others or fed if (k := row_offset(x, y)) is not None), None)
        if offset is not None:
            s["rows_moved"] += 1
            s["row_offset"] = offset
            if s["rows_frame"] is None:
                s["rows_frame"] = frame_dict(frame)


# rows a target may be moved by against its input (one sequence per row, unshuffled)
ROW_OFFSETS = tuple(k for n in range(1, 9) for k in (n, -n))
MIN_ROWS = 3  # rows compared at an offset, at least
MAX_ELEMENTS = 4_000_000


def row_offset(x: torch.Tensor, y: torch.Tensor) -> int | None:
    """The offset k (never 0) for which every target row i is input row i + k moved one
    position along a later axis, while no row is its own input moved: each sequence is
    paired with another sequence's continuation (`data[:-3, 1:]` as targets beside
    `data[3:, :-1]` as inputs). Rows of a shuffled batch keep no such offset."""
    if x.dim() < 2 or x.shape != y.shape or x.numel() > MAX_ELEMENTS or x.is_complex():
        return None
    n = x.shape[0]
    yy = y.to(x.dtype)
    for k in ROW_OFFSETS:
        rows = n - abs(k)
        if rows < MIN_ROWS:
            continue
        xs = x.narrow(0, max(k, 0), rows)
        ys = yy.narrow(0, max(-k, 0), rows)
        for ax in range(1, x.dim()):
            m = x.shape[ax]
            if m < 3:
                continue
            if torch.equal(xs.narrow(ax, 1, m - 1), ys.narrow(ax, 0, m - 1)):
                return k
    return None


def _probe_future(rec: Recorder, x: torch.Tensor, axis: int) -> None:
    """Once, at the first next-token target: does the model read the positions after
    each one (tools/trace/future.py)?"""
    call, rec.received_call = rec.received_call, None
    if call is not None and rec.future is None:
        rec.future = future_probe(rec, *call, x, axis)


def _padded_tail(
    rec: Recorder, x: torch.Tensor, y: torch.Tensor, axis: int, ignore: int, frame
) -> None:
    """Per sequence, the trailing positions where the input and the target are one value
    (its last input), when that value is scored: padding the loss asks the model to
    predict after padding. A tail of one position (a last token followed by itself) is
    no padding."""
    if x.dim() != 2 or x.is_floating_point():
        return
    xs, ys = x.movedim(axis, -1).detach(), y.movedim(axis, -1).detach()
    last = xs[:, -1:]
    same = (xs == last) & (ys == last) & (last != ignore)
    # trailing run: positions from which every later position is `same`
    run = torch.flip(torch.cummin(torch.flip(same.int(), [1]), dim=1).values, [1]).bool()
    lengths = run.sum(dim=1)
    tails = lengths >= 2
    s = rec.target_is_input
    s["scored"] += int((ys != ignore).sum())
    s["padded"] += int(lengths[tails].sum())
    for v in torch.unique(last[tails]).tolist()[:4]:
        if v not in s["pad_values"] and len(s["pad_values"]) < 8:
            s["pad_values"].append(int(v))
    if tails.any() and s["pad_frame"] is None:
        s["pad_frame"] = frame_dict(frame)


def _shifted(x: torch.Tensor, y: torch.Tensor) -> bool:
    """`y`, laid out as `x`, is `x` moved one position along some axis: the next token of
    a batch-first or a time-first (and flattened) sequence, its masked positions aside."""
    return shift_axis(x, y) is not None


def _equal(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.numel() > 0 and bool(torch.equal(a.detach().to(b.dtype), b))


def fed(rec: Recorder, x: torch.Tensor) -> None:
    """A training forward's first input: is it one of the batch's tensors, unchanged?"""
    if not rec.loader_batch or rec.input_as_loaded is not None:
        return
    with rec.quiet(), torch.no_grad():
        for i, b in enumerate(rec.loader_batch):
            if _same(b, x):
                rec.input_as_loaded = i
                return
        rec.input_as_loaded = False


def at_loss(rec: Recorder, target: torch.Tensor, frame) -> None:
    """A training loss call's target against the batch's other tensors (not the input:
    a target made from the input, as a language model's shifted tokens, says nothing):
    the same rows at the same positions, or the same rows reordered across samples."""
    x_at = rec.input_as_loaded
    if not rec.loader_batch or x_at is None or x_at is False:
        return
    with rec.quiet(), torch.no_grad():
        for i, b in enumerate(rec.loader_batch):
            if i == x_at or b.dim() == 0 or b.shape[0] < 2 or b.numel() != target.numel():
                continue
            rows = b.shape[0]
            v = b.detach().reshape(rows, -1).double()
            y = target.detach().reshape(rows, -1).double()
            if torch.equal(v, y):
                _count(rec, frame, reordered=False)
                return
            # each row summarized by a fixed random projection: equal multisets of row
            # summaries with rows at other positions is a permutation across samples
            w = torch.rand(v.shape[1], generator=torch.Generator().manual_seed(3), dtype=v.dtype)
            hv, hy = v @ w, y @ w
            if torch.equal(torch.sort(hv).values, torch.sort(hy).values):
                moved = float((hv != hy).double().mean())
                _count(rec, frame, reordered=True, moved=moved)
                return


def _same(b: torch.Tensor, x: torch.Tensor) -> bool:
    if b is x:
        return True
    if b.shape != x.shape or b.is_floating_point() != x.is_floating_point():
        return False
    return bool(torch.equal(b.detach().to(x.dtype), x.detach()))


def _count(rec: Recorder, frame, *, reordered: bool, moved: float = 0.0) -> None:
    s = rec.target_order
    s["compared"] += 1
    if reordered:
        s["reordered"] += 1
        s["moved_sum"] += moved
        if s["frame"] is None:
            s["frame"] = frame_dict(frame)
    rec.loader_batch = None  # one comparison per batch
