import argparse

import numpy as np
import torch

from mixture import CholeskyGMM


def sample_blobs(n, rng, k=4, d=5):
    centers = rng.normal(0, 4, size=(k, d))
    covs = []
    for _ in range(k):
        a = rng.normal(size=(d, d))
        q, _ = np.linalg.qr(a)
        ev = np.array([4.0, 1.0, 0.3, 0.1, 0.05])
        covs.append(q @ np.diag(ev) @ q.T)
    weights = rng.dirichlet(np.full(k, 5.0))
    comp = rng.choice(k, size=n, p=weights)
    x = np.stack([rng.multivariate_normal(centers[c], covs[c]) for c in comp])
    return x.astype(np.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--components", type=int, default=4)
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=0.03)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    data = torch.from_numpy(sample_blobs(4000, np.random.default_rng(1234)))
    perm = torch.from_numpy(rng.permutation(len(data)))
    train, val = data[perm[:3000]], data[perm[3000:]]

    # farthest-point seeding of the means
    first = torch.randint(0, len(train), (1,)).item()
    chosen = [train[first]]
    for _ in range(args.components - 1):
        d2 = torch.cdist(train, torch.stack(chosen)).min(1).values
        chosen.append(train[d2.argmax()])
    init = torch.stack(chosen)
    gmm = CholeskyGMM(args.components, train.shape[1], init)
    opt = torch.optim.Adam(gmm.parameters(), lr=args.lr)

    for step in range(1, args.steps + 1):
        idx = torch.randint(0, len(train), (args.batch,))
        loss = -gmm.log_prob(train[idx]).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 300 == 0:
            with torch.no_grad():
                v = -gmm.as_distribution().log_prob(val).mean().item()
            print(f"step {step:5d} train_nll {loss.item():.3f} val_nll {v:.3f}")

    with torch.no_grad():
        v = -gmm.as_distribution().log_prob(val).mean().item()
        w = torch.softmax(gmm.logits, 0).numpy().round(3)
    print("mixing weights", w)
    print(f"val_nll={v:.4f}")


if __name__ == "__main__":
    main()
