import torch
import torch.nn as nn


class FlightScorer(nn.Module):
    def __init__(self, n_wines, n_guests, dim=32):
        super().__init__()
        self.wine = nn.Embedding(n_wines, dim)
        self.phi = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.guest = nn.Embedding(n_guests, dim)
        self.rho = nn.Sequential(nn.Linear(2 * dim, 64), nn.ReLU(), nn.Linear(64, 1))
        self.last_flight_vec = None

    @staticmethod
    def masked_mean(h, mask):
        m = mask.unsqueeze(-1).float()
        return (h * m).sum(1) / m.sum(1).clamp(min=1.0)

    def forward(self, wines, mask, guests):
        h = self.phi(self.wine(wines))
        flight = self.masked_mean(h, mask)
        # keep a copy around for the nearest-flight lookup in recommend.py
        self.last_flight_vec = flight.detach()
        z = torch.cat([self.last_flight_vec, self.guest(guests)], dim=-1)
        return self.rho(z).squeeze(-1)
