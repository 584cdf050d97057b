import torch
import torch.nn as nn

from utils import lengths_to_padding_mask
from vocab import BOS, PAD


class Encoder(nn.Module):
    def __init__(self, vocab, emb, hidden):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.rnn = nn.GRU(emb, hidden, batch_first=True, bidirectional=True)
        self.bridge = nn.Linear(2 * hidden, hidden)

    def forward(self, src, src_len):
        packed = nn.utils.rnn.pack_padded_sequence(self.emb(src), src_len, batch_first=True, enforce_sorted=False)
        out, h = self.rnn(packed)
        out, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True, total_length=src.size(1))
        h0 = torch.tanh(self.bridge(torch.cat([h[0], h[1]], dim=-1))).unsqueeze(0)
        return out, h0


class AttnDecoder(nn.Module):
    def __init__(self, vocab, emb, hidden):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.key = nn.Linear(2 * hidden, hidden, bias=False)
        self.combine = nn.Linear(hidden + 2 * hidden, hidden)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, dec_in, h, enc_out, src_pad):
        q, h = self.rnn(self.emb(dec_in), h)                     # (B, T, H)
        scores = torch.bmm(q, self.key(enc_out).transpose(1, 2))  # (B, T, S)
        scores = scores.masked_fill(src_pad.unsqueeze(1), float("-inf"))
        ctx = torch.bmm(scores.softmax(-1), enc_out)              # (B, T, 2H)
        return self.out(torch.tanh(self.combine(torch.cat([q, ctx], -1)))), h


class Seq2Seq(nn.Module):
    def __init__(self, vocab, emb, hidden):
        super().__init__()
        self.encoder = Encoder(vocab, emb, hidden)
        self.decoder = AttnDecoder(vocab, emb, hidden)

    def forward(self, src, src_len, dec_in):
        enc_out, h = self.encoder(src, src_len)
        src_pad = lengths_to_padding_mask(src_len, src.size(1))
        logits, _ = self.decoder(dec_in, h, enc_out, src_pad)
        return logits

    @torch.no_grad()
    def greedy(self, src, src_len, max_steps):
        enc_out, h = self.encoder(src, src_len)
        src_pad = lengths_to_padding_mask(src_len, src.size(1))
        tok = torch.full((src.size(0), 1), BOS, dtype=torch.long)
        outs = []
        for _ in range(max_steps):
            logits, h = self.decoder(tok, h, enc_out, src_pad)
            tok = logits.argmax(-1)
            outs.append(tok)
        return torch.cat(outs, dim=1)
