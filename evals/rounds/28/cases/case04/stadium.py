import numpy as np
import torch
from torch.utils.data import Dataset

EVENT_TYPES = ["football", "concert", "baseball", "monster_trucks"]


def simulate(n_gates, n_days, stock, seed):
    rng = np.random.default_rng(seed)
    gate_pull = np.random.default_rng(7).normal(0, 0.35, n_gates)   # fixed stadium layout
    rows = []
    for day in range(n_days):
        ev = rng.integers(len(EVENT_TYPES))
        weekday = day % 7
        kickoff = rng.integers(12, 22)
        temp = rng.normal(20, 8)
        attendance = rng.uniform(0.4, 1.0)
        for g in range(n_gates):
            lam = np.exp(4.9 + gate_pull[g] + 0.8 * (attendance - 0.7) + 0.25 * (ev == 0) - 0.2 * (ev == 1)
                         + 0.02 * (temp - 20) + 0.03 * (kickoff - 17) + 0.1 * (weekday >= 5))
            units = rng.poisson(lam)
            rows.append((g, ev, weekday, kickoff, temp, attendance, units, float(units > stock)))
    return np.array(rows, dtype=np.float64)


class CartDays(Dataset):
    def __init__(self, table, units_mean, units_std):
        self.gate = torch.tensor(table[:, 0], dtype=torch.long)
        ev = torch.nn.functional.one_hot(torch.tensor(table[:, 1], dtype=torch.long), len(EVENT_TYPES)).float()
        wd = torch.tensor(table[:, 2] >= 5, dtype=torch.float32)[:, None]
        num = torch.tensor(np.column_stack([(table[:, 3] - 17) / 3, (table[:, 4] - 20) / 8, (table[:, 5] - 0.7) / 0.17]),
                           dtype=torch.float32)
        self.x = torch.cat([ev, wd, num], dim=1)
        self.units = torch.tensor((table[:, 6] - units_mean) / units_std, dtype=torch.float32)
        self.sold_out = torch.tensor(table[:, 7], dtype=torch.float32)

    def __len__(self):
        return len(self.gate)

    def __getitem__(self, i):
        return {"gate": self.gate[i], "x": self.x[i], "units": self.units[i], "sold_out": self.sold_out[i]}
