import torch.nn as nn


def conv_block(cin, cout, k):
    return nn.Sequential(nn.Conv1d(cin, cout, k, padding=k // 2), nn.BatchNorm1d(cout),
                         nn.ReLU(), nn.MaxPool1d(2))


class DoorNet(nn.Module):
    def __init__(self, n_classes=4, ch=16, p_drop=0.3):
        super().__init__()
        self.body = nn.Sequential(conv_block(1, ch, 9), conv_block(ch, ch * 2, 7),
                                  conv_block(ch * 2, ch * 2, 5), nn.AdaptiveAvgPool1d(8))
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(p_drop), nn.Linear(ch * 2 * 8, n_classes))

    def forward(self, x):
        return self.head(self.body(x))
