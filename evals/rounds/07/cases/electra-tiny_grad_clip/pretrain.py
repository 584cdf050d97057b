import argparse
import configparser
import time

import torch
import torch.nn.functional as F

from corpus import MASK, phrase_corpus
from nets import Discriminator, Generator


def corrupt(tokens, generator, mask_prob, gen_rng):
    """Mask positions, let the generator propose tokens there. Returns the masked input,
    the corrupted sequence and the replaced-token labels."""
    mask = torch.rand(tokens.shape, generator=gen_rng) < mask_prob
    masked = tokens.masked_fill(mask, MASK)
    logits = generator(masked)
    with torch.no_grad():
        probs = F.softmax(logits.detach(), dim=-1)
        sampled = torch.multinomial(probs.view(-1, probs.shape[-1]), 1, generator=gen_rng).view(tokens.shape)
    corrupted = torch.where(mask, sampled, tokens)
    replaced = (corrupted != tokens).float()
    return logits, mask, corrupted, replaced


def roc_auc(scores, labels):
    order = torch.argsort(scores)
    ranks = torch.empty_like(scores)
    ranks[order] = torch.arange(1, len(scores) + 1, dtype=scores.dtype)
    pos = labels.bool()
    n_pos, n_neg = pos.sum().item(), (~pos).sum().item()
    return ((ranks[pos].sum().item() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="electra.ini")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = configparser.ConfigParser()
    cfg.read(args.config)
    d, g, dc, t = cfg["data"], cfg["generator"], cfg["discriminator"], cfg["train"]
    seed = args.seed if args.seed is not None else t.getint("seed")
    torch.manual_seed(seed)
    rng = torch.Generator().manual_seed(seed)

    V, L = d.getint("vocab"), d.getint("seq_len")
    train = phrase_corpus(d.getint("n_train"), L, V, seed=1)
    test = phrase_corpus(d.getint("n_test"), L, V, seed=2)

    gen = Generator(V, g.getint("dim"), L)
    disc = Discriminator(V, dc.getint("dim"), L)
    g_opt = torch.optim.Adam(gen.parameters(), lr=g.getfloat("lr"))
    d_opt = torch.optim.SGD(disc.parameters(), lr=dc.getfloat("lr"), momentum=dc.getfloat("momentum"), nesterov=True)
    bs, mp = t.getint("batch_size"), t.getfloat("mask_prob")

    t0 = time.time()
    for epoch in range(t.getint("epochs")):
        gen.train(), disc.train()
        perm = torch.randperm(len(train), generator=rng)
        for i in range(0, len(perm), bs):
            x = train[perm[i:i + bs]]
            g_logits, mask, corrupted, replaced = corrupt(x, gen, mp, rng)

            g_loss = F.cross_entropy(g_logits[mask], x[mask])
            g_opt.zero_grad()
            g_loss.backward()
            g_opt.step()

            d_loss = F.binary_cross_entropy_with_logits(disc(corrupted), replaced)
            d_opt.zero_grad()
            d_loss.backward()
            torch.nn.utils.clip_grad_norm_(disc.parameters(), dc.getfloat("clip_norm"))
            d_opt.step()

        gen.eval(), disc.eval()
        with torch.no_grad():
            _, _, corrupted, replaced = corrupt(test, gen, mp, torch.Generator().manual_seed(123))
            auc = roc_auc(disc(corrupted).flatten(), replaced.flatten())
        print(f"epoch {epoch}  g_loss {g_loss.item():.3f}  d_loss {d_loss.item():.4f}  rtd_auc {auc:.4f}")
    print(f"{time.time() - t0:.1f}s")
    print(f"METRIC rtd_auc={auc:.4f}")


if __name__ == "__main__":
    main()
