import os

import torch

from .common import ART, args, world
from .model import RouteTimeModel
from .scaling import FeatureScaler


def main():
    a = args()
    feats, _, _, (idx, mask), t = world(a.seed)
    scaler = FeatureScaler.from_json(os.path.join(ART, "scaler.json"))
    x = torch.tensor(scaler.transform(feats))
    model = RouteTimeModel(x.shape[1])
    model.load_state_dict(torch.load(os.path.join(ART, "model.pt")))
    model.eval()
    with torch.no_grad():
        pred = model(x, torch.tensor(idx), torch.tensor(mask))
    t = torch.tensor(t)
    mape = ((pred - t) / t).abs().mean().item()
    print(f"routes={len(t)} mean_true={t.mean():.0f}s mean_pred={pred.mean():.0f}s")
    print(f"val_mape={mape:.4f}")


if __name__ == "__main__":
    main()
