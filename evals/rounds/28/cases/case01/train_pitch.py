import argparse
import json

import torch

from model import PitchRegressor
from strikes import make_set

MIDI_CENTER = 89.5
MIDI_SPREAD = 6.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="pitch.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    Xtr, ytr = map(torch.from_numpy, make_set(cfg["n_train"], seed))
    Xva, yva = map(torch.from_numpy, make_set(cfg["n_val"], seed + 1))
    mean, std = Xtr.mean(), Xtr.std()
    Xtr, Xva = (Xtr - mean) / std, (Xva - mean) / std

    model = PitchRegressor(cfg["channels"])
    with torch.no_grad():
        model(Xtr[:2])                    # materialize the lazily sized head
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])

    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), cfg["batch_size"]):
            idx = perm[i:i + cfg["batch_size"]]
            pred = model(Xtr[idx])
            loss = torch.nn.functional.smooth_l1_loss(pred, (ytr[idx] - MIDI_CENTER) / MIDI_SPREAD)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            mae = (model(Xva) * MIDI_SPREAD + MIDI_CENTER - yva).abs().mean().item()
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1} loss={loss.item():.4f} val_mae_semitones={mae:.3f}")
    print(f"val_mae_semitones={mae:.4f}")


if __name__ == "__main__":
    main()
