import torch
from torch.utils.data import TensorDataset


def simulate_buildings(n, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 16, generator=g)
    outdoor_temp, humidity, occupancy, floor_area = x[:, 0], x[:, 1], x[:, 2], x[:, 3]
    insulation, hour_sin, hour_cos, solar = x[:, 4], x[:, 5], x[:, 6], x[:, 7]
    heating = torch.relu(-outdoor_temp) * (1.5 - 0.5 * torch.tanh(insulation))
    cooling = torch.relu(outdoor_temp - 0.5) * (1 + 0.3 * humidity)
    base = 2.0 + 0.8 * floor_area + 0.6 * occupancy * (hour_sin > 0).float()
    y = base + 1.4 * heating + 1.1 * cooling - 0.4 * solar * hour_cos
    y = y + 0.1 * x[:, 8:].sum(dim=1) * 0.1
    y = y + 0.15 * torch.randn(n, generator=g)
    return TensorDataset(x, y.unsqueeze(1))
