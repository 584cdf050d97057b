import torch
from torch.utils.data import DataLoader

from promoter.model import ReadClassifier
from promoter.reads import ReadDataset, collate_reads

SEED = 3
EPOCHS = 5
BATCH_SIZE = 64
LR = 0.1
CLIP = 5.0


def run_epoch(model, loader, criterion, optimizer=None):
    training = optimizer is not None
    model.train(training)
    total_loss, correct, count = 0.0, 0, 0
    with torch.set_grad_enabled(training):
        for ids, lengths, labels in loader:
            logits = model(ids, lengths)
            loss = criterion(logits, labels)
            if training:
                optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
                optimizer.step()
            total_loss += loss.item() * len(labels)
            correct += ((logits > 0).float() == labels).sum().item()
            count += len(labels)
    return total_loss / count, correct / count


def main():
    torch.manual_seed(SEED)
    train_ds = ReadDataset(2000, seed=SEED)
    val_ds = ReadDataset(600, seed=SEED + 100)
    train_loader = DataLoader(train_ds, batch_size=BATCH_SIZE, shuffle=True, collate_fn=collate_reads)
    val_loader = DataLoader(val_ds, batch_size=256, collate_fn=collate_reads)

    model = ReadClassifier()
    optimizer = torch.optim.Adam(model.parameters(), lr=LR)
    criterion = torch.nn.BCEWithLogitsLoss()

    for epoch in range(1, EPOCHS + 1):
        tr_loss, tr_acc = run_epoch(model, train_loader, criterion, optimizer)
        va_loss, va_acc = run_epoch(model, val_loader, criterion)
        print(f"epoch {epoch}: train_loss={tr_loss:.4f} train_acc={tr_acc:.3f} val_loss={va_loss:.4f} val_acc={va_acc:.3f}")
    print(f"val_acc {va_acc:.4f}")


if __name__ == "__main__":
    main()
