import torch


def predict_grade(cum_logits):
    probs = torch.sigmoid(cum_logits)
    return probs.argmax(dim=1)


def grade_metrics(cum_logits, y):
    pred = predict_grade(cum_logits)
    acc = (pred == y).float().mean().item()
    mae = (pred - y).abs().float().mean().item()
    return acc, mae
