#!/usr/bin/env python
# coding: utf-8

# # Char-level GRU LM on shipping logs
# Small corpus generated below; the goal is a quick bits-per-char baseline.

# In[1]:


import math
import random
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
amp_dtype = torch.float16 if device == "cuda" else torch.bfloat16
device, amp_dtype


# ## Corpus

# In[2]:


ports = ["oslo", "genoa", "lagos", "busan", "tampa", "perth", "hull", "kobe"]
goods = ["coffee", "steel", "grain", "timber", "copper", "rubber", "salt"]
verbs = ["loaded", "unloaded", "inspected", "delayed", "cleared"]
ships = ["aurora", "belle", "condor", "dune", "elsa", "fjord"]


def log_line():
    ship, port, good = random.choice(ships), random.choice(ports), random.choice(goods)
    tons = random.choice(["120", "450", "800", "1200", "75", "300"])
    if random.random() < 0.5:
        return f"the {ship} {random.choice(verbs)} {tons} tons of {good} at {port}."
    return f"at {port} the {ship} was {random.choice(verbs)} with {good}."


text = " ".join(log_line() for _ in range(1000))
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
print(len(text), "chars,", len(chars), "symbols")
print(text[:160])


# In[3]:


n_val = len(data) // 10
train_data, val_data = data[:-n_val], data[-n_val:]


def batchify(d, n_streams):
    steps = len(d) // n_streams
    return d[: steps * n_streams].view(n_streams, steps)


BATCH_STREAMS = 16
BPTT = 48
train_streams = batchify(train_data, BATCH_STREAMS).to(device)
val_streams = batchify(val_data, 4).to(device)
train_streams.shape, val_streams.shape


# ## Model

# In[4]:


class CharGRU(nn.Module):
    def __init__(self, vocab, emb=32, hidden=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.drop = nn.Dropout(0.1)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, idx, hidden=None):
        h, hidden = self.rnn(self.emb(idx), hidden)
        return self.out(self.drop(h)), hidden


model = CharGRU(len(chars)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=4e-3, weight_decay=0.01)
scaler = torch.amp.GradScaler(enabled=(device == "cuda"))
ACCUM = 2
EPOCHS = 4
sum(p.numel() for p in model.parameters())


# In[5]:


@torch.no_grad()
def evaluate(streams):
    model.eval()
    hidden, total, count = None, 0.0, 0
    for i in range(0, streams.size(1) - 1, BPTT):
        seq_len = min(BPTT, streams.size(1) - 1 - i)
        x = streams[:, i:i + seq_len]
        y = streams[:, i + 1:i + 1 + seq_len]
        with torch.autocast(device_type=device, dtype=amp_dtype):
            logits, hidden = model(x, hidden)
        total += F.cross_entropy(logits.float().reshape(-1, logits.size(-1)), y.reshape(-1), reduction="sum").item()
        count += y.numel()
    model.train()
    return total / count


# ## Training: TBPTT + accumulation

# In[6]:


t0 = time.time()
for epoch in range(EPOCHS):
    model.train()
    hidden = None
    optimizer.zero_grad(set_to_none=True)
    n_chunks, running = 0, 0.0
    for chunk, i in enumerate(range(0, train_streams.size(1) - 1, BPTT)):
        seq_len = min(BPTT, train_streams.size(1) - 1 - i)
        x = train_streams[:, i:i + seq_len]
        y = train_streams[:, i + 1:i + 1 + seq_len]
        if hidden is not None:
            hidden = hidden.detach()
        with torch.autocast(device_type=device, dtype=amp_dtype):
            logits, hidden = model(x, hidden)
            loss = F.cross_entropy(logits.float().reshape(-1, logits.size(-1)), y.reshape(-1))
        scaler.scale(loss / ACCUM).backward()
        running += loss.item()
        n_chunks += 1
        if (chunk + 1) % ACCUM == 0:
            scaler.unscale_(optimizer)
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad(set_to_none=True)
    if n_chunks % ACCUM:
        scaler.unscale_(optimizer)
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
    val_loss = evaluate(val_streams)
    print(f"epoch {epoch + 1}: train {running / n_chunks:.3f} | val {val_loss:.3f} | {time.time() - t0:.0f}s")


# ## Results

# In[7]:


val_loss = evaluate(val_streams)
print(f"val_loss {val_loss:.4f} | val_bpc {val_loss / math.log(2):.4f} | uniform bpc {math.log2(len(chars)):.2f}")


# In[8]:


@torch.no_grad()
def sample(prefix="the ", n=80, temperature=0.7):
    model.eval()
    idx = torch.tensor([[stoi[c] for c in prefix]], device=device)
    logits, hidden = model(idx)
    out = prefix
    for _ in range(n):
        probs = F.softmax(logits[0, -1].float() / temperature, dim=-1)
        nxt = torch.multinomial(probs, 1)
        out += itos[nxt.item()]
        logits, hidden = model(nxt.view(1, 1), hidden)
    return out


print(sample())
