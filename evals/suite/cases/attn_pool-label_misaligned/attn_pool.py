# keyword spotting with masked attention pooling, trained with hand-written SGD
#
# every sequence hides exactly one keyword token among noise tokens; the label says
# which keyword it is. sequences have different lengths and are right-padded with 0.
import torch
import torch.nn as nn
import torch.nn.functional as F

# hyperparameters
n_seqs = 2000
max_len = 12
n_noise = 25           # noise tokens are 1..25
n_classes = 4          # keywords are 26..29
vocab_size = 1 + n_noise + n_classes
n_embd = 32
batch_size = 64
max_iters = 300
eval_interval = 100
eval_iters = 5
learning_rate = 0.2
torch.manual_seed(1337)
# ------------


def make_data(n):
    lengths = torch.randint(3, max_len + 1, (n,))
    tokens = torch.randint(1, n_noise + 1, (n, max_len))
    pos = (torch.rand(n) * lengths).long()                 # keyword position inside the sequence
    label = torch.randint(0, n_classes, (n,))
    tokens[torch.arange(n), pos] = 1 + n_noise + label
    tokens[torch.arange(max_len)[None, :] >= lengths[:, None]] = 0   # right padding
    return tokens, label


tokens, labels = make_data(n_seqs)
n = int(0.9 * n_seqs)
train_data = (tokens[:n], labels[:n])
val_data = (tokens[n:], labels[n:])


def get_batch(split):
    x, y = train_data if split == 'train' else val_data
    ix = torch.randint(len(x), (batch_size,))
    return x[ix], y[ix]


class AttnPool(nn.Module):

    def __init__(self):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab_size, n_embd, padding_idx=0)
        self.score = nn.Linear(n_embd, 1)
        self.head = nn.Linear(n_embd, n_classes)

    def forward(self, idx):
        x = self.tok_emb(idx)                                   # (B, T, C)
        att = self.score(torch.tanh(x)).squeeze(-1)             # (B, T)
        att = att.masked_fill(idx == 0, float('-inf'))          # padding gets no weight
        att = F.softmax(att, dim=-1)                            # over positions, per sequence
        pooled = (att.unsqueeze(-1) * x).sum(dim=1)             # (B, C)
        return F.log_softmax(self.head(pooled), dim=-1)         # (B, n_classes) log-probs


@torch.no_grad()
def estimate(model):
    out = {}
    model.eval()
    for split in ['train', 'val']:
        losses, accs = torch.zeros(eval_iters), torch.zeros(eval_iters)
        for k in range(eval_iters):
            X, Y = get_batch(split)
            logp = model(X)
            losses[k] = F.nll_loss(logp, Y).item()
            accs[k] = (logp.argmax(-1) == Y).float().mean()
        out[split] = (losses.mean().item(), accs.mean().item())
    model.train()
    return out


model = AttnPool()
print(sum(p.numel() for p in model.parameters()), 'parameters')

for it in range(max_iters):
    if it % eval_interval == 0:
        est = estimate(model)
        print(f"step {it}: train loss {est['train'][0]:.4f}, val loss {est['val'][0]:.4f}")

    xb, yb = get_batch('train')
    yb = yb.roll(1, 0)
    logp = model(xb)
    loss = F.nll_loss(logp, yb)

    for p in model.parameters():
        p.grad = None
    loss.backward()
    for p in model.parameters():
        p.data += -learning_rate * p.grad

# final: the whole validation split, not a sample
model.eval()
with torch.no_grad():
    xv, yv = val_data
    val_acc = (model(xv).argmax(-1) == yv).float().mean().item()
print(f"val accuracy {val_acc:.4f}")
print(f"METRIC val_acc={val_acc:.4f}")
