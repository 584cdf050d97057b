import torch
import torch.nn as nn


class ConvLSTMCell(nn.Module):
    def __init__(self, in_ch, hid_ch, k=3):
        super().__init__()
        self.hid_ch = hid_ch
        self.gates = nn.Conv2d(in_ch + hid_ch, 4 * hid_ch, k, padding=k // 2, padding_mode="circular")

    def forward(self, x, state):
        h, c = state
        i, f, o, g = self.gates(torch.cat([x, h], dim=1)).chunk(4, dim=1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return h, c


class Nowcaster(nn.Module):
    """Encode the input frames with a ConvLSTM, read the next frame off the last hidden state."""

    def __init__(self, hid_ch=12):
        super().__init__()
        self.cell = ConvLSTMCell(1, hid_ch)
        self.readout = nn.Sequential(
            nn.Conv2d(hid_ch, hid_ch, 3, padding=1, padding_mode="circular"), nn.ReLU(),
            nn.Conv2d(hid_ch, 1, 1),
        )

    def forward(self, frames):                      # frames: (B, T, H, W)
        B, T, H, W = frames.shape
        h = frames.new_zeros(B, self.cell.hid_ch, H, W)
        c = torch.zeros_like(h)
        for t in range(T):
            h, c = self.cell(frames[:, t:t + 1], (h, c))
        # predict the change w.r.t. the last observed frame
        return frames[:, -1] + self.readout(h).squeeze(1)
