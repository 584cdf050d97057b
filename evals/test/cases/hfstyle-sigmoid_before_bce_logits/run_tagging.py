import argparse
from dataclasses import fields

import torch

from tagger.data import TAGS, VOCAB_SIZE, PaddingCollator, TicketDataset
from tagger.modeling import TaggerConfig, TicketTagger
from tagger.trainer import Trainer, TrainingArguments, set_seed


def parse_args():
    parser = argparse.ArgumentParser()
    for f in fields(TrainingArguments):
        if f.type in (int, float, str):
            parser.add_argument(f"--{f.name}", type=f.type, default=None)
    cli = parser.parse_args()
    overrides = {k: v for k, v in vars(cli).items() if v is not None}
    return TrainingArguments(**overrides)


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    probs = torch.sigmoid(logits)
    preds = (probs > 0.5).float()
    tp = (preds * labels).sum()
    fp = (preds * (1 - labels)).sum()
    fn = ((1 - preds) * labels).sum()
    micro_f1 = (2 * tp / (2 * tp + fp + fn)).item()
    exact = (preds == labels).all(dim=1).float().mean().item()
    return {"micro_f1": round(micro_f1, 4), "exact_match": round(exact, 4)}


def main():
    args = parse_args()
    set_seed(args.seed)
    train_ds = TicketDataset(2400, seed=1)
    eval_ds = TicketDataset(600, seed=2)

    config = TaggerConfig(vocab_size=VOCAB_SIZE, num_labels=len(TAGS))
    model = TicketTagger(config)

    trainer = Trainer(
        model=model,
        args=args,
        train_dataset=train_ds,
        eval_dataset=eval_ds,
        data_collator=PaddingCollator(),
        compute_metrics=compute_metrics,
    )
    trainer.train()
    metrics = trainer.evaluate()
    print(" | ".join(f"{k} {v:.4f}" for k, v in metrics.items()))


if __name__ == "__main__":
    main()
