import argparse
import json

import numpy as np
import torch
from features import make_utterances, sample_pairs
from siamese import ContrastiveLoss, Encoder, Siamese


def auc(scores, labels):
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = labels == 1
    return (ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / (pos.sum() * (~pos).sum())


@torch.no_grad()
def verify(model, x, pairs, margin):
    model.eval()
    a, b, same = pairs
    d = model.distance(x[a], x[b]).numpy()
    model.train()
    acc = float(((d < margin / 2) == (same == 1)).mean())
    return acc, float(auc(-d, same)), float(d[same == 1].mean()), float(d[same == 0].mean())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(seed)

    d = cfg["data"]
    xtr, spk_tr = make_utterances(d["n_train_speakers"], d["utts_per_speaker"], d["dim"], seed=d["seed"])
    xva, spk_va = make_utterances(d["n_val_speakers"], d["utts_per_speaker"], d["dim"], seed=d["seed"] + 1)
    mu, sd = xtr.mean(0), xtr.std(0)
    xtr = torch.from_numpy((xtr - mu) / sd)
    xva = torch.from_numpy((xva - mu) / sd)
    val_pairs = sample_pairs(spk_va, 3000, np.random.default_rng(0))

    model = Siamese(Encoder(d["dim"], **cfg["model"]))
    criterion = ContrastiveLoss(cfg["loss"]["margin"])
    o = cfg["optim"]
    opt = torch.optim.Adam(model.parameters(), lr=o["lr"])

    for epoch in range(1, o["epochs"] + 1):
        a, b, same = sample_pairs(spk_tr, o["pairs_per_epoch"], rng)
        perm = rng.permutation(len(a))
        running = 0.0
        for k in range(0, len(perm), o["batch_size"]):
            idx = perm[k:k + o["batch_size"]]
            z1, z2 = model(xtr[a[idx]], xtr[b[idx]])
            loss = criterion(z1, z2, torch.from_numpy(same[idx]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item() * len(idx)
        acc, roc, d_pos, d_neg = verify(model, xva, val_pairs, cfg["loss"]["margin"])
        print(f"epoch {epoch:2d} loss={running / len(perm):.4f} val_acc={acc:.3f} val_auc={roc:.3f} "
              f"d_same={d_pos:.3f} d_diff={d_neg:.3f}")

    acc, roc, _, _ = verify(model, xva, val_pairs, cfg["loss"]["margin"])
    print(f"val_auc={roc:.4f}")
    print(f"METRIC val_verif_acc={acc:.4f}")


if __name__ == "__main__":
    main()
