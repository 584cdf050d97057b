import numpy as np

FEATURES = ["approach_mps", "last_stride_cm", "contact_ms", "takeoff_deg", "mass_kg"]


def simulate_jumps(n, seed):
    rng = np.random.default_rng(seed)
    speed = rng.normal(9.6, 0.6, n)
    stride = rng.normal(215, 18, n)
    contact = rng.normal(120, 14, n)
    angle = rng.normal(21, 2.5, n)
    mass = rng.normal(74, 8, n)
    # impulse needed to turn the approach into the takeoff angle, spread over
    # the contact time (plus a bit of stride-length dependent braking)
    vz = speed * np.tan(np.radians(angle))
    force = mass * (vz / (contact / 1000.0) + 9.81) + 2.0 * (stride - 215)
    force = force + rng.normal(0, 120, n)
    X = np.column_stack([speed, stride, contact, angle, mass]).astype(np.float32)
    return X, (force / 1000.0).astype(np.float32)     # kN
