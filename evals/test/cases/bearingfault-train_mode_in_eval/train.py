import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from datasets import FAULTS, N_BINS, get_datasets
from engine import evaluate, train_one_epoch
from models import SpectrumNet


def get_args_parser():
    parser = argparse.ArgumentParser(description="Bearing fault classification", add_help=True)
    parser.add_argument("--data-path", default="data")
    parser.add_argument("-b", "--batch-size", default=64, type=int)
    parser.add_argument("--epochs", default=12, type=int)
    parser.add_argument("--lr", default=0.05, type=float)
    parser.add_argument("--momentum", default=0.9, type=float)
    parser.add_argument("--wd", "--weight-decay", default=1e-4, type=float, dest="weight_decay")
    parser.add_argument("--seed", default=0, type=int)
    parser.add_argument("--output", default="", help="path to save the final checkpoint")
    return parser


def main(args):
    torch.manual_seed(args.seed)
    dataset, dataset_test = get_datasets(args.data_path)
    data_loader = DataLoader(dataset, batch_size=args.batch_size, shuffle=True, drop_last=True)
    data_loader_test = DataLoader(dataset_test, batch_size=100, shuffle=False)

    model = SpectrumNet(N_BINS, len(FAULTS))
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum,
                                weight_decay=args.weight_decay)
    lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=5, gamma=0.3)

    best = 0.0
    for epoch in range(args.epochs):
        train_one_epoch(model, criterion, optimizer, data_loader, epoch)
        lr_scheduler.step()
        best = max(best, evaluate(model, criterion, data_loader_test))
    print(f"best Acc@1 {best:.3f}")
    if args.output:
        torch.save({"model": model.state_dict(), "epoch": args.epochs}, args.output)


if __name__ == "__main__":
    main(get_args_parser().parse_args())
