import argparse
import json
import torch
import torch.nn as nn
from imu import strokes, summary_features


def mlp(d_in, layers, act=nn.ReLU):
    mods, d = [], d_in
    for width in layers:
        mods += [nn.Linear(d, width), act()]
        d = width
    return nn.Sequential(*mods)


def standardize(train, *others):
    mu, sd = train.mean(0, keepdim=True), train.std(0, keepdim=True) + 1e-6
    return [(train - mu) / sd] + [(o - mu) / sd for o in others], (mu, sd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cfg", default="settings.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.cfg))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)
    torch.set_num_threads(1)

    s_tr, p_tr = strokes(cfg["n_train"], cfg["window"], seed=10)
    s_va, p_va = strokes(cfg["n_val"], cfg["window"], seed=11)
    f_tr, f_va = torch.from_numpy(summary_features(s_tr)), torch.from_numpy(summary_features(s_va))
    p_tr, p_va = torch.from_numpy(p_tr)[:, None], torch.from_numpy(p_va)[:, None]
    (f_tr, f_va), _ = standardize(f_tr, f_va)
    (y_tr, y_va), (ymu, ysd) = standardize(p_tr, p_va)

    model = mlp(f_tr.shape[1], cfg["layers"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    g = torch.Generator().manual_seed(seed)
    for ep in range(cfg["epochs"]):
        perm = torch.randperm(len(f_tr), generator=g)
        for i in range(0, len(perm), 64):
            b = perm[i:i + 64]
            loss = nn.functional.mse_loss(model(f_tr[b]), y_tr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            pred = model(f_va) * ysd + ymu
            mae = (pred - p_va).abs().mean().item()
        if ep % 5 == 4:
            print(f"epoch {ep+1} mse {loss.item():.4f} val_mae_w {mae:.2f}")
    print(f"val_mae_w={mae:.2f}")


if __name__ == "__main__":
    main()
