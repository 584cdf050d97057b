import torch
import torch.nn as nn

from letters import feature_table


class StepScorer(nn.Module):
    """Compares two words position by position, then pools the per-position evidence."""

    def __init__(self, word_len, emb_dim, hidden):
        super().__init__()
        self.letters = nn.Embedding.from_pretrained(feature_table(emb_dim))
        self.pos = nn.Parameter(torch.zeros(word_len, emb_dim))
        self.compare = nn.Sequential(
            nn.Linear(2 * emb_dim, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
        )
        self.head = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, a, b):
        ea = self.letters(a) + self.pos
        eb = self.letters(b) + self.pos
        pair = torch.cat([ea * eb, (ea - eb).abs()], dim=-1)
        per_pos = self.compare(pair)          # (B, L, H)
        return self.head(per_pos.sum(dim=1)).squeeze(-1)
