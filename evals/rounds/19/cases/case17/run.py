import argparse

import torch

from mosseg.losses import pixel_ce
from mosseg.metrics import confusion, miou
from mosseg.net import TinyFCN
from mosseg.tiles import make_tiles


def main():
    p = argparse.ArgumentParser(description="train the moss segmenter")
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()

    torch.manual_seed(a.seed)
    xtr, ytr = make_tiles(640, seed=10 + a.seed)
    xva, yva = make_tiles(160, seed=777)
    xtr, ytr, xva, yva = (torch.from_numpy(t) for t in (xtr, ytr, xva, yva))

    # class frequencies -> mild inverse weighting (moss/lichen are the minority)
    freq = torch.bincount(ytr.reshape(-1), minlength=3).float()
    weights = (freq.sum() / (3 * freq)).clamp(max=4.0)

    net = TinyFCN()
    opt = torch.optim.Adam(net.parameters(), lr=a.lr)
    for ep in range(a.epochs):
        net.train()
        order = torch.randperm(len(xtr))
        for i in range(0, len(xtr), a.batch_size):
            j = order[i:i + a.batch_size]
            loss = pixel_ce(net(xtr[j]), ytr[j], weights)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
        net.eval()
        with torch.no_grad():
            cm = confusion(net(xva), yva, 3)
        acc = (cm.diag().sum() / cm.sum()).item()
        print(f"[{ep + 1}/{a.epochs}] loss {loss.item():.3f} pix_acc {acc:.3f} miou {miou(cm):.3f}")

    print(f"val_pix_acc={acc:.4f}")
    print(f"val_miou={miou(cm):.4f}")


if __name__ == "__main__":
    main()
