import torch
import torch.nn as nn


class PointerNet(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.hidden = hidden
        self.embed = nn.Linear(1, hidden)
        self.encoder = nn.LSTM(hidden, hidden, batch_first=True)
        self.decoder = nn.LSTMCell(hidden, hidden)
        self.dec_start = nn.Parameter(torch.zeros(hidden))
        self.W_query = nn.Linear(hidden, hidden, bias=False)
        self.v = nn.Linear(hidden, 1, bias=False)
        self._ref_proj = None

    def ref_projection(self, enc):
        # built lazily so the same decoder works with encoders of another width
        if self._ref_proj is None or self._ref_proj.in_features != enc.size(-1):
            self.ref_proj = nn.Linear(enc.size(-1), self.hidden, bias=False)
        return self.ref_proj(enc)

    def forward(self, x, target=None):
        """x: (B, n) values. Returns log-probs (B, n_steps, n) over input positions."""
        B, n = x.shape
        emb = self.embed(x.unsqueeze(-1))
        enc, (h, c) = self.encoder(emb)
        h, c = h[0], c[0]
        ref = self.ref_projection(enc)
        inp = self.dec_start.expand(B, -1)
        chosen = torch.zeros(B, n, dtype=torch.bool)
        out = []
        for t in range(n):
            h, c = self.decoder(inp, (h, c))
            scores = self.v(torch.tanh(ref + self.W_query(h).unsqueeze(1))).squeeze(-1)
            scores = scores.masked_fill(chosen, float("-inf"))
            logp = torch.log_softmax(scores, dim=-1)
            out.append(logp)
            idx = target[:, t] if target is not None else logp.argmax(dim=-1)
            chosen = chosen | nn.functional.one_hot(idx, n).bool()
            inp = emb[torch.arange(B), idx]
        return torch.stack(out, dim=1)
