import torch

N_BORROWERS = 3000
N_DENSE = 6


def make_loans(n, seed, habit_seed=42):
    hg = torch.Generator().manual_seed(habit_seed)
    habit = torch.randn(N_BORROWERS, generator=hg) * 3.0 + 1.0          # days
    sensitivity = 0.5 + torch.rand(N_BORROWERS, generator=hg)

    g = torch.Generator().manual_seed(seed)
    borrower = torch.randint(0, N_BORROWERS, (n,), generator=g)
    loan_weeks = torch.randint(1, 5, (n,), generator=g).float()
    n_items = torch.randint(1, 9, (n,), generator=g).float()
    distance_km = torch.rand(n, generator=g) * 15
    holiday = (torch.rand(n, generator=g) < 0.15).float()
    renewals = torch.randint(0, 3, (n,), generator=g).float()
    weekday = torch.randint(0, 7, (n,), generator=g).float()

    raw = habit[borrower] + sensitivity[borrower] * (0.6 * n_items + 0.25 * distance_km + 4.0 * holiday) \
        - 1.2 * loan_weeks - 1.5 * renewals + 0.3 * (weekday >= 5).float()
    delay = torch.nn.functional.softplus(raw, beta=1.5) + 0.8 * torch.rand(n, generator=g)
    dense = torch.stack([loan_weeks / 4, n_items / 8, distance_km / 15, holiday, renewals / 2, (weekday >= 5).float()], 1)
    return borrower, dense, delay
