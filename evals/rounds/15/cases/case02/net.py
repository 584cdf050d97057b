import torch
import torch.nn as nn
import torch.nn.functional as F

MAX_SEEDS = 16


def encode(board):
    """One-hot seed counts per pit (counts >= 15 share the last bucket)."""
    return F.one_hot(board.clamp(max=MAX_SEEDS - 1).long(), MAX_SEEDS).flatten(1).float()


def move_mlp(n_in, hidden, n_pits):
    return nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, n_pits))


class LegalMoveHead(nn.Module):
    """Move logits with empty pits masked out."""

    def __init__(self, n_in, hidden, n_pits=6):
        super().__init__()
        self.mlp = move_mlp(n_in, hidden, n_pits)

    def forward(self, z, board):
        return self.mlp(z).masked_fill(board[:, :6] == 0, -1e4)


class KalahNet(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        n_in = 14 * MAX_SEEDS
        self.hidden = hidden
        self.trunk = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(),
                                   nn.Linear(hidden, hidden), nn.ReLU())
        self.value_head = nn.Linear(hidden, 1)
        # the move head sees the board and the (stop-gradient) value features, so the
        # imitation target cannot pull the value trunk around
        self.move_head = move_mlp(n_in + hidden, hidden, 6)
        self.masked = False

    def use_legal_mask(self):
        self.move_head = LegalMoveHead(14 * MAX_SEEDS + self.hidden, self.hidden)
        self.masked = True

    def forward(self, board):
        x = encode(board)
        h = self.trunk(x)
        value = self.value_head(h).squeeze(-1)
        z = torch.cat([x, h.detach()], dim=1)
        moves = self.move_head(z, board) if self.masked else self.move_head(z)
        return value, moves
