"""Synthetic customer table for the lifetime-value model.

Each customer has RFM-style history features; next-year spend is zero for
non-buyers (hurdle) and log-normal for buyers.
"""
import numpy as np

FEATURES = ["recency_days", "n_orders", "avg_basket", "tenure_months",
            "email_opens", "returns_rate", "is_app_user", "region_north"]


def make_customers(n, seed):
    rng = np.random.default_rng(seed)
    recency = rng.exponential(90, n)
    n_orders = rng.poisson(4, n) + 1
    avg_basket = np.exp(rng.normal(3.5, 0.6, n))
    tenure = rng.uniform(1, 60, n)
    opens = rng.poisson(6, n)
    returns = rng.beta(2, 12, n)
    app = rng.random(n) < 0.4
    north = rng.random(n) < 0.5

    z = (1.2 - 0.012 * recency + 0.25 * np.log(n_orders) + 0.08 * opens
         + 0.6 * app - 2.0 * returns)
    p_buy = 1 / (1 + np.exp(-z))
    buys = rng.random(n) < p_buy
    log_amt = (0.9 * np.log(avg_basket) + 0.45 * np.log(n_orders) + 0.01 * tenure
               + 0.3 * north - 1.5 * returns + rng.normal(0, 0.35, n))
    spend = np.where(buys, np.exp(log_amt), 0.0)

    X = np.stack([recency, n_orders, avg_basket, tenure, opens, returns, app, north], 1)
    return X.astype(np.float32), spend.astype(np.float32)


def standardize(train, *others):
    # log-compress the heavy tailed counts / amounts first
    def tf(a):
        a = a.copy()
        a[:, [0, 1, 2, 4]] = np.log1p(a[:, [0, 1, 2, 4]])
        return a
    train = tf(train)
    mu, sd = train.mean(0), train.std(0) + 1e-6
    return [(train - mu) / sd] + [(tf(o) - mu) / sd for o in others]
