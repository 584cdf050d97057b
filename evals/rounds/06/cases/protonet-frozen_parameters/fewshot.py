import argparse
import json

import torch
import torch.nn as nn
import torch.nn.functional as F

from signatures import SignatureWorld


class ProtoNet(nn.Module):
    def __init__(self, d_in, hidden, embed_dim, learn_scale=True):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Linear(d_in, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, embed_dim),
        )
        # metric scaling (Oreshkin et al.): a learned temperature on the distances
        self.log_scale = nn.Parameter(torch.zeros(()), requires_grad=learn_scale)

    def logits(self, support, query):
        n_way, k_shot, d = support.shape
        protos = self.encoder(support.reshape(-1, d)).reshape(n_way, k_shot, -1).mean(dim=1)
        q = self.encoder(query)
        dists = torch.cdist(q, protos).pow(2)
        return -dists * self.log_scale.exp()


def setup_model(cfg, d_in):
    model = ProtoNet(d_in, cfg["hidden"], cfg["embed_dim"], cfg["learn_scale"])
    if cfg["pretrained"]:
        model.encoder.load_state_dict(torch.load(cfg["pretrained"]))
    if cfg["freeze_encoder"]:
        # fine-tuning from a checkpoint: keep the embedding fixed, adapt the metric only
        model.encoder.requires_grad_(False)
    return model


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="episodes.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    world = SignatureWorld(seed=3)
    base, novel = torch.arange(60), torch.arange(60, 80)
    d_in = world.sample(0, 1).shape[1]
    model = setup_model(cfg, d_in)
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])

    for ep in range(1, cfg["train_episodes"] + 1):
        s, q, qy = world.episode(base, cfg["n_way"], cfg["k_shot"], cfg["n_query"])
        loss = F.cross_entropy(model.logits(s, q), qy)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if ep % 200 == 0:
            print(f"episode {ep}: loss={loss.item():.4f}")

    model.eval()
    correct = total = 0
    with torch.no_grad():
        for _ in range(cfg["test_episodes"]):
            s, q, qy = world.episode(novel, cfg["n_way"], cfg["k_shot"], cfg["n_query"])
            correct += (model.logits(s, q).argmax(dim=1) == qy).sum().item()
            total += len(qy)
    print(f"novel_acc={correct / total:.4f}")


if __name__ == "__main__":
    main()
