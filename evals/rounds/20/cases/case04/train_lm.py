import argparse
import math
import random

import torch
import torch.nn.functional as F

from grammar import PAD, VOCAB, sample_programs
from lm import SexprLM, pad_batch, shift_for_lm


@torch.no_grad()
def evaluate(model, programs, bs=128):
    model.eval()
    nll, correct, count = 0.0, 0, 0
    for i in range(0, len(programs), bs):
        tokens = pad_batch(programs[i:i + bs])
        x, y = tokens[:, :-1], tokens[:, 1:]
        logits = model(x)
        real = y != PAD
        nll += F.cross_entropy(logits[real], y[real], reduction="sum").item()
        correct += (logits.argmax(-1)[real] == y[real]).sum().item()
        count += real.sum().item()
    model.train()
    return correct / count, math.exp(nll / count)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    train = sample_programs(4000, seed=args.seed)
    val = sample_programs(300, seed=args.seed + 7919)

    model = SexprLM(len(VOCAB))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)

    for step in range(1, args.steps + 1):
        batch = rng.sample(train, args.batch_size)
        inputs, targets = shift_for_lm(pad_batch(batch))
        logits = model(inputs)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1), ignore_index=-100)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if step % 150 == 0:
            acc, ppl = evaluate(model, val)
            print(f"step {step} loss {loss.item():.3f} val_tok_acc {acc:.3f} val_ppl {ppl:.2f}")

    acc, ppl = evaluate(model, val)
    print(f"val_ppl={ppl:.3f}")
    print(f"val_tok_acc={acc:.4f}")


if __name__ == "__main__":
    main()
