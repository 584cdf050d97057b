import argparse
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from treebank import PAD, VOCAB, make_split


class Biaffine(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.U = nn.Parameter(torch.zeros(d, d))
        self.u_head = nn.Linear(d, 1, bias=False)
        nn.init.xavier_uniform_(self.U)

    def forward(self, dep, head):
        # dep, head: (B, L, d) -> scores (B, L_dep, L_head)
        bil = torch.einsum("bid,de,bje->bij", dep, self.U, head)
        return bil + self.u_head(head).transpose(1, 2)


class ArcParser(nn.Module):
    def __init__(self, d_model=64, n_layers=2, max_len=16, d_arc=48):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d_model, padding_idx=PAD)
        self.pos = nn.Embedding(max_len, d_model)
        layer = nn.TransformerEncoderLayer(d_model, 4, 128, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, n_layers)
        self.dep_mlp = nn.Sequential(nn.Linear(d_model, d_arc), nn.GELU())
        self.head_mlp = nn.Sequential(nn.Linear(d_model, d_arc), nn.GELU())
        self.arc = Biaffine(d_arc)

    def forward(self, words):
        pad = words.eq(PAD)
        pos = torch.arange(words.size(1), device=words.device)
        h = self.enc(self.emb(words) + self.pos(pos), src_key_padding_mask=pad)
        scores = self.arc(self.dep_mlp(h), self.head_mlp(h))
        return scores.masked_fill(pad.unsqueeze(1), -1e9)


def arc_loss(scores, heads, words):
    logp = F.log_softmax(scores, dim=1)
    gold = logp.gather(2, heads.unsqueeze(2)).squeeze(2)
    mask = words.ne(PAD)
    mask[:, 0] = False                     # ROOT has no head
    return -(gold * mask).sum() / mask.sum()


@torch.no_grad()
def uas(model, words, heads):
    model.eval()
    pred = model(words).argmax(-1)
    mask = words.ne(PAD)
    mask[:, 0] = False
    return ((pred == heads) & mask).sum().item() / mask.sum().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--max-len", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    tw, th = map(torch.from_numpy, make_split(3000, args.max_len, rng))
    dw, dh = map(torch.from_numpy, make_split(500, args.max_len, rng))

    model = ArcParser(max_len=args.max_len + 1)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    steps = args.epochs * math.ceil(len(tw) / args.batch_size)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps)

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(tw))
        tot = 0.0
        for i in range(0, len(tw), args.batch_size):
            idx = perm[i:i + args.batch_size]
            loss = arc_loss(model(tw[idx]), th[idx], tw[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += loss.item()
        if epoch % 3 == 2:
            print(f"epoch {epoch+1} loss={tot/math.ceil(len(tw)/args.batch_size):.4f} dev_uas={uas(model, dw, dh):.4f}")

    print(f"dev_uas={uas(model, dw, dh):.4f}")


if __name__ == "__main__":
    main()
