import json

import numpy as np
import torch

from common import ForceMLP, throws


def load():
    model = ForceMLP()
    model.load_state_dict(torch.load("model.pt"))
    return model, json.load(open("scaler.json"))


def main():
    torch.manual_seed(0)
    model, st = load()
    x, y = throws(800, 999)
    xs = torch.from_numpy(((x - np.array(st["x_mu"])) / np.array(st["x_sd"])).astype(np.float32))
    with torch.no_grad():
        pred = model(xs).numpy() * st["y_sd"] + st["y_mu"]
    mae = np.abs(pred - y).mean()
    print(f"val_mae_newtons={mae:.2f}")


if __name__ == "__main__":
    main()
