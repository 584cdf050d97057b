"""Train a DQN agent on the gridworld and report the greedy success rate."""
import argparse
import random

import numpy as np
import torch

from agent import DQNAgent, ReplayBuffer
from env import GridWorld


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--total-steps", type=int, default=3000)
    p.add_argument("--learning-starts", type=int, default=300)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--buffer-size", type=int, default=20000)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--gamma", type=float, default=0.9)
    p.add_argument("--eps-start", type=float, default=1.0)
    p.add_argument("--eps-end", type=float, default=0.05)
    p.add_argument("--eps-decay-steps", type=int, default=2000)
    p.add_argument("--target-sync", type=int, default=100)
    p.add_argument("--log-every", type=int, default=1000)
    return p.parse_args()


def epsilon_at(step, args):
    frac = min(1.0, step / args.eps_decay_steps)
    return args.eps_start + frac * (args.eps_end - args.eps_start)


@torch.no_grad()
def evaluate(agent, env):
    """Greedy rollout from every free cell; returns success rate and mean return."""
    successes, returns = 0, []
    for start in env.free:
        obs = env.reset(start=start)
        total, done, reward = 0.0, False, 0.0
        while not done:
            q = agent.online(torch.as_tensor(obs).unsqueeze(0))
            obs, reward, done = env.step(int(q.argmax(dim=1)))
            total += reward
        successes += int(reward == 1.0)
        returns.append(total)
    return successes / len(env.free), float(np.mean(returns))


def main():
    args = parse_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    env = GridWorld(seed=args.seed)
    eval_env = GridWorld(seed=args.seed + 1)
    agent = DQNAgent(env.n_states, env.n_actions, lr=args.lr, gamma=args.gamma)
    buffer = ReplayBuffer(args.buffer_size, env.n_states, seed=args.seed)

    obs = env.reset()
    episode_return, episode_returns, losses = 0.0, [], []
    for step in range(1, args.total_steps + 1):
        action = agent.act(obs, epsilon_at(step, args), rng)
        next_obs, reward, done = env.step(action)
        buffer.push(obs, action, reward, next_obs, done)
        episode_return += reward
        obs = next_obs
        if done:
            episode_returns.append(episode_return)
            episode_return = 0.0
            obs = env.reset()

        if step >= args.learning_starts:
            losses.append(agent.update(buffer.sample(args.batch_size)))
        if step % args.target_sync == 0:
            agent.sync_target()
        if step % args.log_every == 0:
            recent = np.mean(episode_returns[-50:]) if episode_returns else float("nan")
            mean_loss = np.mean(losses[-500:]) if losses else float("nan")
            print(f"step {step:5d}  eps {epsilon_at(step, args):.2f}  "
                  f"return(last50) {recent:+.3f}  td_loss {mean_loss:.4f}")

    success, mean_return = evaluate(agent, eval_env)
    print(f"greedy mean_return={mean_return:.3f}")
    print(f"success_rate={success:.3f}")


if __name__ == "__main__":
    main()
