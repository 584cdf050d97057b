import torch
import torch.nn as nn


class Emissions(nn.Module):
    def __init__(self, vocab, n_tags, dim=32, width=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.conv = nn.Conv1d(dim, dim, width, padding=width // 2)
        self.out = nn.Linear(dim, n_tags)

    def forward(self, tokens):                       # (L,) -> (L, n_tags)
        h = self.emb(tokens).T.unsqueeze(0)
        h = torch.relu(self.conv(h)).squeeze(0).T
        return self.out(h)


def sequence_nll(emissions, tags, transitions):
    """-log p(tags | tokens) for one sentence. emissions (L, K), tags (L,), transitions (K, K)."""
    gold = emissions[0, tags[0]] + sum(
        transitions[tags[i - 1], tags[i]] + emissions[i, tags[i]] for i in range(1, len(tags)))
    alpha = emissions[0]
    for i in range(1, len(tags)):
        alpha = torch.logsumexp(alpha[:, None] + transitions, dim=0) + emissions[i]
    return torch.logsumexp(alpha, dim=0) - gold


@torch.no_grad()
def viterbi(emissions, transitions):
    score = emissions[0]
    back = []
    for i in range(1, len(emissions)):
        total = score[:, None] + transitions
        best, idx = total.max(dim=0)
        back.append(idx)
        score = best + emissions[i]
    path = [int(score.argmax())]
    for idx in reversed(back):
        path.append(int(idx[path[-1]]))
    return path[::-1]
