import torch
import torch.nn as nn

from .freezing import count_trainable, freeze_backbone, unfreeze_backbone


def run_epoch(model, loader, criterion, optimizer=None):
    training = optimizer is not None
    model.train(training)
    total_loss, total_correct, total = 0.0, 0, 0
    with torch.set_grad_enabled(training):
        for tiles, defect in loader:
            logits = model(tiles)
            loss = criterion(logits, defect)
            if training:
                optimizer.zero_grad(set_to_none=True)
                loss.backward()
                optimizer.step()
            total_loss += loss.item() * defect.size(0)
            total_correct += (logits.argmax(1) == defect).sum().item()
            total += defect.size(0)
    return total_loss / total, total_correct / total


def train(model, train_loader, test_loader, cfg, log=print):
    tcfg = cfg["train"]
    optimizer = torch.optim.AdamW(model.parameters(), lr=tcfg["lr"], weight_decay=tcfg["weight_decay"])
    criterion = nn.CrossEntropyLoss()
    warmup = tcfg.get("freeze_backbone_epochs", 0)

    if warmup > 0:
        frozen = freeze_backbone(model)
        log(f"head warm-up: froze {frozen} backbone parameters for {warmup} epoch(s)")

    history = []
    for epoch in range(tcfg["epochs"]):
        if warmup > 0 and epoch == warmup:
            unfreeze_backbone(model)
            log(f"unfroze backbone, {count_trainable(model)} trainable parameters")
        tr_loss, tr_acc = run_epoch(model, train_loader, criterion, optimizer)
        te_loss, te_acc = run_epoch(model, test_loader, criterion)
        history.append({"epoch": epoch + 1, "train_loss": tr_loss, "test_loss": te_loss, "test_acc": te_acc})
        log(f"epoch {epoch + 1:02d}/{tcfg['epochs']}  train_loss={tr_loss:.4f} train_acc={tr_acc:.3f}  "
            f"test_loss={te_loss:.4f} test_acc={te_acc:.3f}")
    return history
