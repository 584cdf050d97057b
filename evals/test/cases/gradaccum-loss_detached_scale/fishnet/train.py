import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Subset

from fishnet.model import FishNet, combine_losses
from fishnet.survey import SPECIES, FishSurvey


def get_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=15)
    p.add_argument("--micro-batch", type=int, default=32)
    p.add_argument("--accum-steps", type=int, default=4)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--reg-weight", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


@torch.no_grad()
def validate(model, loader):
    model.eval()
    correct, abs_err, n = 0, 0.0, 0
    for x, species, log_w in loader:
        species_logits, log_w_pred = model(x)
        correct += (species_logits.argmax(1) == species).sum().item()
        abs_err += (log_w_pred.exp() - log_w.exp()).abs().sum().item()
        n += len(x)
    model.train()
    return correct / n, abs_err / n


def main():
    args = get_args()
    torch.manual_seed(args.seed)
    survey = FishSurvey(n=3000, seed=args.seed)
    idx = torch.randperm(len(survey))
    val_idx, train_idx = idx[:600], idx[600:]
    mean, std = survey.x[train_idx].mean(0), survey.x[train_idx].std(0)
    survey.standardize(mean, std)

    train_loader = DataLoader(Subset(survey, train_idx.tolist()), batch_size=args.micro_batch, shuffle=True)
    val_loader = DataLoader(Subset(survey, val_idx.tolist()), batch_size=256)

    model = FishNet(n_species=len(SPECIES))
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    loss_weights = {"species": 1.0, "weight": args.reg_weight}

    for epoch in range(1, args.epochs + 1):
        model.train()
        optimizer.zero_grad()
        totals = {"species": 0.0, "weight": 0.0, "total": 0.0}
        for i, (x, species, log_w) in enumerate(train_loader):
            species_logits, log_w_pred = model(x)
            losses = {
                "species": F.cross_entropy(species_logits, species),
                "weight": F.smooth_l1_loss(log_w_pred, log_w),
            }
            loss, logs = combine_losses(losses, loss_weights)
            (loss / args.accum_steps).backward()
            for k in totals:
                totals[k] += logs[k]

            if (i + 1) % args.accum_steps == 0 or (i + 1) == len(train_loader):
                optimizer.step()
                optimizer.zero_grad()

        n_batches = len(train_loader)
        acc, mae = validate(model, val_loader)
        print(f"epoch {epoch:2d} | loss {totals['total'] / n_batches:.4f} "
              f"(species {totals['species'] / n_batches:.4f}, weight {totals['weight'] / n_batches:.4f}) "
              f"| val_acc {acc:.3f} | val_mae_g {mae:.1f}")

    acc, mae = validate(model, val_loader)
    print(f"final: val_acc={acc:.4f} val_mae_g={mae:.1f}")


if __name__ == "__main__":
    main()
