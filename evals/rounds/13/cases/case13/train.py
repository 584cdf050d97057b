import argparse
import json
import zlib

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset, random_split

N_BUCKETS = 4096
PAD = 0


def bucket(token):
    return 1 + zlib.crc32(token.encode()) % (N_BUCKETS - 1)


def hash_tokens(text, bigrams=True):
    toks = text.lower().split()
    ids = [bucket(t) for t in toks]
    if bigrams:
        ids += [bucket(a + "_" + b) for a, b in zip(toks, toks[1:])]
    return ids


class ReviewSet(Dataset):
    def __init__(self, path):
        rows = [json.loads(line) for line in open(path)]
        self.ids = [torch.tensor(hash_tokens(r["text"])) for r in rows]
        self.y = torch.tensor([r["helpful_share"] for r in rows])

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.ids[i], self.y[i]


def collate(batch):
    ids, y = zip(*batch)
    return pad_sequence(ids, batch_first=True, padding_value=PAD), torch.stack(y)


class HashedBoW(nn.Module):
    def __init__(self, dim=48):
        super().__init__()
        self.emb = nn.Embedding(N_BUCKETS, dim, padding_idx=PAD)
        self.mlp = nn.Sequential(nn.Linear(dim + 1, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, ids):
        mask = (ids != PAD).float().unsqueeze(-1)
        summed = (self.emb(ids) * mask).sum(1)
        length = mask.sum(1)
        h = torch.cat([summed / 10.0, torch.log1p(length)], -1)
        return torch.sigmoid(self.mlp(h).squeeze(-1))


def train_one_epoch(model, loader, opt, sched, loss_fn):
    model.train()
    total = 0.0
    for ids, y in loader:
        loss = loss_fn(model(ids), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        total += loss.item() * len(y)
    return total / len(loader.dataset)


@torch.no_grad()
def r2_score(model, loader):
    model.eval()
    preds, ys = zip(*[(model(ids), y) for ids, y in loader])
    p, y = torch.cat(preds), torch.cat(ys)
    return 1 - ((p - y) ** 2).sum().item() / ((y - y.mean()) ** 2).sum().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="reviews.jsonl")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--lr-step", type=int, default=4, help="halve the lr every N epochs")
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    ds = ReviewSet(args.data)
    n_val = len(ds) // 5
    train_ds, val_ds = random_split(ds, [len(ds) - n_val, n_val],
                                    generator=torch.Generator().manual_seed(args.seed))
    train_dl = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True, collate_fn=collate)
    val_dl = DataLoader(val_ds, batch_size=256, collate_fn=collate)

    model = HashedBoW()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=args.lr_step, gamma=0.5)
    loss_fn = nn.MSELoss()

    for epoch in range(args.epochs):
        tr = train_one_epoch(model, train_dl, opt, sched, loss_fn)
        print(f"epoch {epoch + 1:2d} lr {opt.param_groups[0]['lr']:.2e} train_mse {tr:.4f} val_r2 {r2_score(model, val_dl):.4f}")

    print(f"val_r2={r2_score(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
