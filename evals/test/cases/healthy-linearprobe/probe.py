"""Stage 2: linear probe on top of a frozen encoder."""
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from networks import LinearProbe


def freeze(module):
    module.requires_grad_(False)
    module.eval()
    return module


@torch.no_grad()
def probe_accuracy(encoder, head, images, labels):
    encoder.eval()
    head.eval()
    logits = head(encoder(images))
    return (logits.argmax(1) == labels).float().mean().item()


def train_probe(encoder, code_dim, n_classes, train_xy, *, epochs, lr, batch_size, seed):
    encoder = freeze(encoder)
    head = LinearProbe(code_dim, n_classes)
    opt = torch.optim.Adam(head.parameters(), lr=lr)
    loader = DataLoader(TensorDataset(*train_xy), batch_size=batch_size, shuffle=True,
                        generator=torch.Generator().manual_seed(seed))
    for _ in range(epochs):
        head.train()
        for images, labels in loader:
            with torch.no_grad():
                codes = encoder(images)
            loss = F.cross_entropy(head(codes), labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return head
