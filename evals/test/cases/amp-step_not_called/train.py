import math

import torch
from torch.utils.data import DataLoader, random_split

from energy.config import TrainConfig
from energy.data import simulate_buildings
from energy.model import EnergyRegressor


def evaluate(model, loader, device, amp_dtype):
    model.eval()
    sq_err, total, ys = 0.0, 0, []
    with torch.no_grad(), torch.autocast(device_type=device, dtype=amp_dtype):
        for x, y in loader:
            pred = model(x.to(device)).float()
            sq_err += ((pred - y.to(device)) ** 2).sum().item()
            total += len(y)
            ys.append(y)
    ys = torch.cat(ys)
    mse = sq_err / total
    r2 = 1 - mse / ys.var(unbiased=False).item()
    model.train()
    return math.sqrt(mse), r2


def main(cfg: TrainConfig):
    torch.manual_seed(cfg.seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    amp_dtype = torch.float16 if device == "cuda" else torch.bfloat16

    dataset = simulate_buildings(cfg.n_samples, seed=cfg.seed)
    n_val = int(len(dataset) * cfg.val_fraction)
    train_set, val_set = random_split(dataset, [len(dataset) - n_val, n_val],
                                      generator=torch.Generator().manual_seed(cfg.seed))
    train_loader = DataLoader(train_set, batch_size=cfg.micro_batch_size, shuffle=True, drop_last=True)
    val_loader = DataLoader(val_set, batch_size=512)

    model = EnergyRegressor(hidden=cfg.hidden, n_blocks=cfg.n_blocks).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    scaler = torch.amp.GradScaler(enabled=(device == "cuda"))
    loss_fn = torch.nn.MSELoss()

    global_step = 0
    running = 0.0
    optimizer.zero_grad(set_to_none=True)
    for epoch in range(1, cfg.epochs + 1):
        model.train()
        for micro_step, (x, y) in enumerate(train_loader):
            x, y = x.to(device), y.to(device)
            with torch.autocast(device_type=device, dtype=amp_dtype):
                pred = model(x)
                loss = loss_fn(pred.float(), y) / cfg.grad_accum_steps
            scaler.scale(loss).backward()
            running += loss.item()

            if (global_step + 1) % cfg.grad_accum_steps == 0:
                scaler.unscale_(optimizer)
                torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.max_grad_norm)
                scaler.step(optimizer)
                scaler.update()
                optimizer.zero_grad(set_to_none=True)
                global_step += 1
                if global_step % cfg.log_every == 0:
                    print(f"step {global_step:5d} | loss {running / cfg.log_every:.4f}")
                    running = 0.0

        rmse, r2 = evaluate(model, val_loader, device, amp_dtype)
        print(f"epoch {epoch:2d} | val_rmse {rmse:.4f} | val_r2 {r2:.4f}")

    rmse, r2 = evaluate(model, val_loader, device, amp_dtype)
    print(f"final | val_rmse {rmse:.4f} | val_r2 {r2:.4f}")


if __name__ == "__main__":
    main(TrainConfig())
