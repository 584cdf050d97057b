import torch.nn as nn
import torch.nn.functional as F


class CausalConv1d(nn.Conv1d):
    def __init__(self, cin, cout, kernel, dilation):
        super().__init__(cin, cout, kernel, dilation=dilation)
        self.left = (kernel - 1) * dilation

    def forward(self, x):
        return super().forward(F.pad(x, (self.left, 0)))


class ResidualBlock(nn.Module):
    def __init__(self, ch, kernel, dilation, dropout):
        super().__init__()
        self.conv = CausalConv1d(ch, 2 * ch, kernel, dilation)
        self.proj = nn.Conv1d(ch, ch, 1)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        a, b = self.conv(x).chunk(2, dim=1)
        return x + self.drop(self.proj(torch_tanh(a) * b.sigmoid()))


def torch_tanh(x):
    return x.tanh()


class CharTCN(nn.Module):
    def __init__(self, vocab_size, emb, channels, kernel, dilations, dropout):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb)
        self.inp = nn.Conv1d(emb, channels, 1)
        self.blocks = nn.ModuleList(ResidualBlock(channels, kernel, d, dropout) for d in dilations)
        self.out = nn.Conv1d(channels, vocab_size, 1)

    def forward(self, ids):                      # ids: (B, T) -> logits (B, T, V)
        h = self.inp(self.embed(ids).transpose(1, 2))
        for blk in self.blocks:
            h = blk(h)
        return self.out(F.gelu(h)).transpose(1, 2)

    @property
    def receptive_field(self):
        return 1 + sum(b.conv.left for b in self.blocks)
