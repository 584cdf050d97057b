"""Synthetic SCADA table.

Columns: wind_speed [m/s], air_density [kg/m3], yaw_error [deg], nacelle_temp [C],
curtailed [0/1], power [kW]
"""
import numpy as np

COLUMNS = ["wind_speed", "air_density", "yaw_error", "nacelle_temp", "curtailed", "power"]
FEATURES = [0, 1, 2, 3]
FLAG = 4
TARGET = 5


def ideal_power(ws, rho, yaw, rated):
    cut_in, rated_ws, cut_out = 3.0, 12.0, 24.0
    frac = np.clip((ws - cut_in) / (rated_ws - cut_in), 0.0, 1.0) ** 3
    frac = frac * (rho / 1.225) * np.cos(np.deg2rad(yaw)) ** 2
    frac = np.minimum(frac, 1.0)
    frac[(ws < cut_in) | (ws > cut_out)] = 0.0
    return rated * frac


def make_table(n, curtailment_rate, rated, seed):
    rng = np.random.default_rng(seed)
    ws = rng.weibull(2.0, n) * 9.0
    rho = rng.normal(1.225, 0.04, n)
    yaw = rng.normal(0, 8, n)
    temp = 15 + 10 * (1.225 - rho) / 0.04 + rng.normal(0, 2, n)
    power = ideal_power(ws, rho, yaw, rated) + rng.normal(0, 25, n)
    curtailed = (rng.random(n) < curtailment_rate).astype(np.float64)
    cap = rated * rng.uniform(0.1, 0.4, n)
    power = np.where(curtailed > 0, np.minimum(power, cap), power)
    power = np.clip(power, 0, None)
    return np.stack([ws, rho, yaw, temp, curtailed, power], axis=1).astype(np.float32)
