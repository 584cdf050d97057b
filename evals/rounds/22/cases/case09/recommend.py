import argparse
import math

import torch
import torch.nn.functional as F
from torch import nn

from baskets import N_ITEMS, PAD, simulate


class BasketEncoder(nn.Module):
    def __init__(self, dim=64, heads=4):
        super().__init__()
        self.item = nn.Embedding(N_ITEMS + 1, dim, padding_idx=PAD)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.out = nn.Linear(dim, N_ITEMS)

    def forward(self, items):
        pad = items == PAD                                # True where there is no item
        h = self.item(items)
        a, _ = self.attn(h, h, h, key_padding_mask=pad, need_weights=False)
        h = h + a
        h = h + self.ff(h)
        keep = (~pad).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1).clamp(min=1.0)
        logits = self.out(pooled)
        # an item already in the basket is not recommended again
        in_basket = F.one_hot(items, N_ITEMS + 1)[..., :N_ITEMS].any(dim=1)
        return logits.masked_fill(in_basket, -1e4)


def hit_at_k(logits, target, k):
    return (logits.topk(k, dim=1).indices == target.unsqueeze(1)).any(1).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--accum", type=int, default=2, help="micro-batches per optimizer step")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    xtr, ytr = map(torch.from_numpy, simulate(8000, seed=1))
    xva, yva = map(torch.from_numpy, simulate(2000, seed=2))

    model = BasketEncoder()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    micro_per_epoch = math.ceil(len(xtr) / args.batch_size)
    steps_per_epoch = math.ceil(micro_per_epoch / args.accum)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, epochs=args.epochs,
                                                steps_per_epoch=steps_per_epoch)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(xtr))
        opt.zero_grad()
        running = 0.0
        for m, s in enumerate(range(0, len(xtr), args.batch_size)):
            idx = perm[s:s + args.batch_size]
            logp = F.log_softmax(model(xtr[idx]), dim=-1)
            loss = F.cross_entropy(logp, ytr[idx]) / args.accum
            loss.backward()
            running += loss.item()
            last = m + 1 == micro_per_epoch
            if (m + 1) % args.accum == 0 or last:
                opt.step()
                sched.step()
                opt.zero_grad()
        model.eval()
        with torch.no_grad():
            lv = model(xva)
        print(f"epoch {epoch + 1}  loss {running * args.accum / micro_per_epoch:.4f}  "
              f"lr {sched.get_last_lr()[0]:.2e}  val_hit@5 {hit_at_k(lv, yva, 5):.3f}  val_hit@1 {hit_at_k(lv, yva, 1):.3f}")
    print(f"val_hit@5={hit_at_k(lv, yva, 5):.4f}")


if __name__ == "__main__":
    main()
