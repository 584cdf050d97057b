import argparse
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from bandit.agent import Agent
from bandit.env import AdSlotEnv


@dataclass
class Config:
    steps: int = 1000
    batch: int = 64
    policy_lr: float = 3e-3
    critic_lr: float = 1e-2
    entropy_coef: float = 0.01
    hidden: int = 64
    env_seed: int = 0
    seed: int = 0


def parse() -> Config:
    cfg = Config()
    ap = argparse.ArgumentParser()
    for k, v in vars(cfg).items():
        ap.add_argument("--" + k.replace("_", "-"), type=type(v), default=v)
    return Config(**vars(ap.parse_args()))


@torch.no_grad()
def uplift(agent, env, ctx):
    """Fraction of the best-vs-random gap captured by the greedy policy."""
    r = env.expected_reward(ctx)
    chosen = r.gather(1, agent.greedy(ctx).unsqueeze(1)).squeeze(1)
    rand, best = r.mean(1), r.max(1).values
    return ((chosen - rand).sum() / (best - rand).sum()).item()


def main():
    cfg = parse()
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(1)
    env = AdSlotEnv(seed=cfg.env_seed)
    val_ctx = env.contexts(4000, generator=torch.Generator().manual_seed(999))

    agent = Agent(env.dim, env.n_arms, cfg.hidden)
    policy_opt = torch.optim.Adam(agent.policy.parameters(), lr=cfg.policy_lr)
    critic_opt = torch.optim.Adam(agent.policy.parameters(), lr=cfg.critic_lr)

    for step in range(1, cfg.steps + 1):
        ctx = env.contexts(cfg.batch)
        dist = agent.dist(ctx)
        actions = dist.sample()
        rewards = env.step(ctx, actions)

        values = agent.value(ctx)
        advantage = (rewards - values).detach()
        policy_loss = -(advantage * dist.log_prob(actions)).mean() - cfg.entropy_coef * dist.entropy().mean()
        policy_opt.zero_grad()
        policy_loss.backward()
        policy_opt.step()

        critic_loss = F.mse_loss(values, rewards)
        critic_opt.zero_grad()
        critic_loss.backward()
        critic_opt.step()

        if step % 200 == 0:
            print(f"step {step:5d}  mean_reward {rewards.mean():7.3f}  critic_mse {critic_loss.item():8.3f}  "
                  f"entropy {dist.entropy().mean():.3f}  val_uplift {uplift(agent, env, val_ctx):.3f}")

    print(f"METRIC val_uplift={uplift(agent, env, val_ctx):.4f}")


if __name__ == "__main__":
    main()
