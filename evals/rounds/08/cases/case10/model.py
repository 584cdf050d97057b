import torch
import torch.nn as nn
import torch.nn.functional as F


class LockedDropout(nn.Module):
    """Variational dropout: one mask per sequence, shared over time steps."""

    def forward(self, x, p):
        if not self.training or p == 0:
            return x
        # x: (T, B, H)
        mask = x.new_empty(1, x.size(1), x.size(2)).bernoulli_(1 - p) / (1 - p)
        return x * mask


class WeightDropLSTM(nn.Module):
    """Single-layer LSTM with DropConnect on the hidden-to-hidden matrix.

    Written as an explicit loop so the dropped weight can be resampled once
    per forward call (AWD-LSTM style) without patching cuDNN internals.
    """

    def __init__(self, n_in, n_hid, weight_p=0.3):
        super().__init__()
        self.n_hid = n_hid
        self.weight_p = weight_p
        self.w_ih = nn.Linear(n_in, 4 * n_hid)
        self.w_hh = nn.Parameter(torch.empty(4 * n_hid, n_hid))
        nn.init.orthogonal_(self.w_hh)

    def forward(self, x, state):
        h, c = state
        w_hh = F.dropout(self.w_hh, p=self.weight_p, training=self.training)
        gates_x = self.w_ih(x)  # precompute input projections for all steps
        outs = []
        for t in range(x.size(0)):
            g = gates_x[t] + h @ w_hh.t()
            i, f, gg, o = g.chunk(4, dim=-1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(gg)
            h = torch.sigmoid(o) * torch.tanh(c)
            outs.append(h)
        return torch.stack(outs), (h, c)


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp=48, nhid=96, nlayers=2, dropouti=0.1, dropouth=0.15,
                 dropout=0.2, wdrop=0.3):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        sizes = [ninp] + [nhid] * (nlayers - 1) + [ninp]
        self.rnns = nn.ModuleList(
            [WeightDropLSTM(sizes[l], sizes[l + 1], wdrop) for l in range(nlayers)]
        )
        self.lockdrop = LockedDropout()
        self.decoder = nn.Linear(ninp, ntoken)
        self.dropouti, self.dropouth, self.dropout = dropouti, dropouth, dropout
        self.sizes = sizes

    def init_hidden(self, bsz):
        return [(torch.zeros(bsz, s), torch.zeros(bsz, s)) for s in self.sizes[1:]]

    def forward(self, inp, hidden):
        emb = self.lockdrop(self.encoder(inp), self.dropouti)
        out = emb
        new_hidden = []
        for l, rnn in enumerate(self.rnns):
            out, h = rnn(out, hidden[l])
            new_hidden.append(h)
            if l != len(self.rnns) - 1:
                out = self.lockdrop(out, self.dropouth)
        out = self.lockdrop(out, self.dropout)
        return self.decoder(out), new_hidden
