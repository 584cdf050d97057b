import numpy as np
import torch
from torch.utils.data import Dataset

SPECIES = ["bream", "perch", "pike", "roach", "smelt"]
# length scale (cm), height ratio, width ratio, weight coefficient
_SPECIES_SHAPE = {
    "bream": (30.0, 0.40, 0.15, 0.0135),
    "perch": (25.0, 0.27, 0.16, 0.0110),
    "pike": (42.0, 0.16, 0.10, 0.0060),
    "roach": (22.0, 0.26, 0.14, 0.0100),
    "smelt": (12.0, 0.17, 0.10, 0.0055),
}


class FishSurvey(Dataset):
    def __init__(self, n=3000, seed=0):
        rng = np.random.default_rng(seed)
        feats, species, weight = [], [], []
        for i in range(n):
            k = rng.integers(len(SPECIES))
            scale, h_ratio, w_ratio, coef = _SPECIES_SHAPE[SPECIES[k]]
            length = scale * rng.lognormal(0.0, 0.25)
            l1 = length * rng.normal(0.92, 0.01)
            l2 = length
            l3 = length * rng.normal(1.07, 0.01)
            height = length * h_ratio * rng.lognormal(0.0, 0.12)
            width = length * w_ratio * rng.lognormal(0.0, 0.12)
            girth = 2.6 * (height + width) * rng.lognormal(0.0, 0.05)
            w = coef * length ** 3 * (height / (h_ratio * length)) * rng.lognormal(0.0, 0.05)
            feats.append(np.log([l1, l2, l3, height, width, girth]))
            species.append(k)
            weight.append(np.log(w))
        self.x = torch.tensor(np.array(feats), dtype=torch.float32)
        self.species = torch.tensor(species, dtype=torch.long)
        self.log_weight = torch.tensor(weight, dtype=torch.float32)

    def standardize(self, mean, std):
        self.x = (self.x - mean) / std

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.species[i], self.log_weight[i]
