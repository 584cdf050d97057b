import argparse
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from agent import GateAgent
from canal import Canal


@dataclass
class A2CConfig:
    seed: int = 0
    n_envs: int = 128
    delay: int = 2
    horizon: int = 32
    rollout: int = 8
    updates: int = 600
    gamma: float = 0.9
    lr_policy: float = 1e-3
    lr_value: float = 1e-2
    entropy_coef: float = 0.03


@torch.no_grad()
def evaluate(agent, cfg, episodes=4):
    gen = torch.Generator().manual_seed(12345)
    env = Canal(cfg.n_envs, cfg.delay, cfg.horizon, gen)
    total, steps = 0.0, 0
    for _ in range(episodes):
        obs, done = env.reset(), False
        while not done:
            a, _, _ = agent.act(obs, greedy=True)
            obs, r, done = env.step(a)
            if env.t > cfg.delay:          # skip water released before the episode
                total += r.mean().item()
                steps += 1
    return total / steps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--updates", type=int, default=A2CConfig.updates)
    ap.add_argument("--seed", type=int, default=A2CConfig.seed)
    args = ap.parse_args()
    cfg = A2CConfig(seed=args.seed, updates=args.updates)
    torch.manual_seed(cfg.seed)
    gen = torch.Generator().manual_seed(cfg.seed)

    env = Canal(cfg.n_envs, cfg.delay, cfg.horizon, gen)
    agent = GateAgent(obs_dim=2 * cfg.delay + 1)
    policy_opt = torch.optim.Adam(agent.policy.parameters(), lr=cfg.lr_policy)
    value_opt = torch.optim.Adam(agent.policy.parameters(), lr=cfg.lr_value)

    obs = env.reset()
    for update in range(1, cfg.updates + 1):
        logps, ents, rewards, values = [], [], [], []
        for _ in range(cfg.rollout):
            action, logp, ent = agent.act(obs)
            values.append(agent.v(obs))
            obs, r, truncated = env.step(action)
            logps.append(logp); ents.append(ent); rewards.append(r)
            if truncated:
                # time limit only: the canal keeps flowing, so keep bootstrapping
                env.t = 0
        with torch.no_grad():
            bootstrap = agent.v(obs)
        # one-step TD targets and advantages
        next_values = torch.stack(values[1:] + [bootstrap]).detach()
        rewards = torch.stack(rewards)
        values = torch.stack(values)
        td_target = rewards + cfg.gamma * next_values
        advantage = (td_target - values).detach()
        advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)

        policy_loss = -(torch.stack(logps) * advantage).mean() - cfg.entropy_coef * torch.stack(ents).mean()
        policy_opt.zero_grad()
        policy_loss.backward()
        policy_opt.step()

        value_loss = F.mse_loss(values, td_target)
        value_opt.zero_grad()
        value_loss.backward()
        value_opt.step()

        if update % 100 == 0:
            print(f"update {update}  policy_loss {policy_loss.item():+.4f}  value_loss {value_loss.item():.4f}"
                  f"  mean_r {rewards.mean().item():+.3f}")
    print(f"eval_reward={evaluate(agent, cfg):.4f}")


if __name__ == "__main__":
    main()
