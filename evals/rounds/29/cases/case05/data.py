import numpy as np
import torch
from torch.utils.data import Dataset

NUMERIC = ["honey_ratio", "ferm_temp", "primary_days", "final_gravity", "ph",
           "nutrients", "age_months"]
N_STRAINS = 4


class BrewSet(Dataset):
    def __init__(self, rows, stats=None):
        num = np.array([[float(r[c]) for c in NUMERIC] for r in rows], np.float32)
        if stats is None:
            stats = (num.mean(0), num.std(0) + 1e-6)
        self.stats = stats
        num = (num - stats[0]) / stats[1]
        strain = np.array([int(float(r["strain"])) for r in rows])
        self.x = torch.from_numpy(np.concatenate([num, np.eye(N_STRAINS)[strain]], 1).astype(np.float32))
        self.grades = torch.tensor([int(r["grade"]) for r in rows])   # 1..5 as judged

    def __len__(self):
        return len(self.grades)

    def __getitem__(self, i):
        # the ordinal head works with 0-based levels
        return self.x[i], self.grades[i] - 1
