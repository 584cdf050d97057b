import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from pumpwatch.config import Config
from pumpwatch.model import PumpCNN
from pumpwatch.stream import STATES, PumpTelemetry


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for snippets, states in loader:
            correct += (model(snippets).argmax(dim=1) == states).sum().item()
            total += states.numel()
    return correct / total


def main(cfg=Config()):
    torch.manual_seed(cfg.seed)
    train_stream = PumpTelemetry(cfg.train_snippets, cfg.snippet_len, seed=cfg.seed)
    test_stream = PumpTelemetry(cfg.test_snippets, cfg.snippet_len, seed=cfg.seed + 7)
    train_loader = DataLoader(train_stream, batch_size=cfg.batch_size)
    test_loader = DataLoader(test_stream, batch_size=200)

    model = PumpCNN(channels=cfg.channels, n_states=len(STATES))
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    for epoch in range(cfg.epochs):
        train_stream.set_epoch(epoch)
        model.train()
        seen, loss_sum, hits = 0, 0.0, 0
        for snippets, states in train_loader:
            logits = model(snippets)
            loss = F.cross_entropy(logits, states)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            loss_sum += loss.item() * states.numel()
            hits += (logits.argmax(1) == states).sum().item()
            seen += states.numel()
        print(f"epoch {epoch + 1}/{cfg.epochs}  train_loss {loss_sum / seen:.4f}  train_acc {hits / seen:.3f}")

    print(f"test_acc {evaluate(model, test_loader):.4f}")


if __name__ == "__main__":
    main()
