"""Streaming digit-sum regressor.

A GRU reads a long stream of digits (0-9) and must report, at the end of the
stream, the sum of everything it has seen. Streams are processed in chunks
(truncated BPTT): the hidden state is carried from chunk to chunk, and the
model is also asked for the running sum at each chunk boundary.
"""
import argparse
import json
import time

import torch
import torch.nn as nn


class DigitSummer(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.embed = nn.Embedding(10, 16)
        self.gru = nn.GRU(16, hidden, batch_first=True)
        self.readout = nn.Linear(hidden, 1)

    def forward(self, digits, h=None):
        out, h = self.gru(self.embed(digits), h)
        return self.readout(out[:, -1]).squeeze(-1), h


def batch(n, length, gen):
    d = torch.randint(0, 10, (n, length), generator=gen)
    return d, d.cumsum(1).float()


def run_stream(model, digits, running, chunk, scale):
    """Chunked pass over a stream; returns mean loss over chunk boundaries and the final prediction."""
    h = None
    losses = []
    for s in range(0, digits.shape[1], chunk):
        pred, h = model(digits[:, s:s + chunk], h)
        target = running[:, min(s + chunk, digits.shape[1]) - 1] / scale
        losses.append(nn.functional.mse_loss(pred, target))
        h = h.detach()
    return torch.stack(losses).mean(), pred * scale


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--settings", default="settings.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.settings))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)

    model = DigitSummer(cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=cfg["steps"], eta_min=cfg["lr"] * 0.05)
    val_digits, val_running = batch(1000, cfg["seq_len"], torch.Generator().manual_seed(12345))
    t0 = time.time()
    for step in range(cfg["steps"]):
        digits, running = batch(cfg["batch_size"], cfg["seq_len"], gen)
        loss, _ = run_stream(model, digits, running, cfg["chunk"], cfg["scale"])
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), cfg["clip"])
        opt.step()
        sched.step()
        if step % 200 == 0 or step == cfg["steps"] - 1:
            with torch.no_grad():
                _, final = run_stream(model, val_digits, val_running, cfg["chunk"], cfg["scale"])
                mae = (final - val_running[:, -1]).abs().mean().item()
            print(f"step {step:4d} loss={loss.item():.5f} val_mae={mae:.3f} lr={sched.get_last_lr()[0]:.2e} "
                  f"({time.time() - t0:.0f}s)")
    base = (val_running[:, -1] - 4.5 * cfg["seq_len"]).abs().mean().item()
    print(f"baseline (predict 4.5 * length) mae={base:.3f}")
    print(f"val_mae={mae:.4f}")


if __name__ == "__main__":
    main()
