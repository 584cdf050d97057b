"""House-price data: generated once into data/houses.csv, then always read from the CSV."""
import csv
import math
import os
import random

import torch
from torch.utils.data import Dataset

FEATURES = ["sqft", "bedrooms", "age", "distance_km"]
TARGET = "price"


def write_houses_csv(path, n_rows=1000, seed=2024):
    rng = random.Random(seed)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["id"] + FEATURES + [TARGET])
        for i in range(n_rows):
            sqft = rng.uniform(500, 3500)
            bedrooms = rng.randint(1, 5)
            age = rng.uniform(0, 80)
            dist = rng.uniform(0.5, 30)
            # price in k$: bigger, newer and closer is dearer; the distance effect saturates
            price = (40 + 0.11 * sqft + 12 * bedrooms - 1.1 * age
                     - 160 * (1 - math.exp(-dist / 8)) + rng.gauss(0, 15))
            writer.writerow([i, round(sqft, 1), bedrooms, round(age, 1), round(dist, 2), round(price, 2)])


def load_rows(path):
    if not os.path.exists(path):
        print(f"{path} not found, generating it")
        write_houses_csv(path)
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Standardizer:
    """z = (x - mean) / std with statistics fitted on the training rows only."""

    def fit(self, x):
        self.mean = x.mean(dim=0)
        self.std = x.std(dim=0)
        return self

    def transform(self, x):
        return (x - self.mean) / self.std

    def inverse(self, z):
        return z * self.std + self.mean


def raw_tensors(rows):
    x = torch.tensor([[float(r[c]) for c in FEATURES] for r in rows])
    y = torch.tensor([float(r[TARGET]) for r in rows])
    return x, y


class HousesDataset(Dataset):
    def __init__(self, rows, x_scaler, y_scaler):
        x, y = raw_tensors(rows)
        self.x = x_scaler.transform(x)
        self.y = y_scaler.transform(y)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]
