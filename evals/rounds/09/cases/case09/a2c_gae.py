import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from gridworld import MOVES, VecGrid


def mlp(n_in, n_out, hidden=64):
    return nn.Sequential(nn.Linear(n_in, hidden), nn.Tanh(), nn.Linear(hidden, n_out))


def gae(rewards, values, dones, last_value, gamma, lam):
    """rewards/values/dones: (T, N) tensors; returns advantages and returns."""
    T = rewards.shape[0]
    adv = torch.zeros_like(rewards)
    running = torch.zeros_like(last_value)
    next_value = last_value
    for t in reversed(range(T)):
        nonterminal = 1.0 - dones[t]
        delta = rewards[t] + gamma * next_value * nonterminal - values[t]
        running = delta + gamma * lam * nonterminal * running
        adv[t] = running
        next_value = values[t]
    return adv, adv + values


def greedy_eval(actor, n_states, env_proto, horizon=50):
    ok, returns = 0, []
    for start in env_proto.free:
        pos, ret = np.array(start), 0.0
        for _ in range(horizon):
            s = torch.tensor([pos[0] * env_proto.w + pos[1]])
            with torch.no_grad():
                a = actor(F.one_hot(s, n_states).float()).argmax(-1).item()
            nxt = pos + MOVES[a]
            if 0 <= nxt[0] < env_proto.h and 0 <= nxt[1] < env_proto.w and env_proto.grid[nxt[0], nxt[1]] != "#":
                pos = nxt
            if tuple(pos) == env_proto.goal:
                ret += 1.0
                ok += 1
                break
            ret -= env_proto.step_cost
        returns.append(ret)
    return ok / len(env_proto.free), float(np.mean(returns))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--updates", type=int, default=400)
    ap.add_argument("--n-envs", type=int, default=16)
    ap.add_argument("--rollout", type=int, default=5)
    ap.add_argument("--gamma", type=float, default=0.98)
    ap.add_argument("--lam", type=float, default=0.95)
    ap.add_argument("--actor-lr", type=float, default=3e-3)
    ap.add_argument("--critic-lr", type=float, default=5e-3)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    env = VecGrid(args.n_envs, rng)
    S = env.n_states
    actor, critic = mlp(S, 4), mlp(S, 1)
    actor_opt = torch.optim.Adam(actor.parameters(), lr=args.actor_lr)
    critic_opt = torch.optim.Adam(critic.parameters(), lr=args.critic_lr)

    obs = env.obs()
    for update in range(1, args.updates + 1):
        states, actions, rewards, dones, values = [], [], [], [], []
        with torch.no_grad():
            for _ in range(args.rollout):
                x = F.one_hot(torch.from_numpy(obs), S).float()
                dist = torch.distributions.Categorical(logits=actor(x))
                a = dist.sample()
                values.append(critic(x).squeeze(-1))
                states.append(x)
                actions.append(a)
                obs, r, d = env.step(a.numpy())
                rewards.append(torch.tensor(r, dtype=torch.float32))
                dones.append(torch.tensor(d, dtype=torch.float32))
            last_value = critic(F.one_hot(torch.from_numpy(obs), S).float()).squeeze(-1)

        states = torch.stack(states)           # (T, N, S)
        actions = torch.stack(actions)
        values = torch.stack(values)
        adv, returns = gae(torch.stack(rewards), values, torch.stack(dones), last_value,
                           args.gamma, args.lam)

        # actor: policy gradient with normalised advantages and an entropy bonus
        dist = torch.distributions.Categorical(logits=actor(states))
        norm_adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        policy_loss = -(dist.log_prob(actions) * norm_adv).mean() - args.entropy * dist.entropy().mean()

        # critic: regress the state values on the GAE returns
        value_loss = F.mse_loss(values, returns)

        actor_opt.zero_grad()
        critic_opt.zero_grad()
        (policy_loss + 0.5 * value_loss).backward()
        actor_opt.step()
        critic_opt.step()

        if update % 50 == 0:
            succ, ret = greedy_eval(actor, S, env)
            print(f"update {update:4d} policy_loss {policy_loss.item():+.3f} "
                  f"value_loss {value_loss.item():.4f} greedy_success {succ:.3f} return {ret:+.3f}")

    succ, ret = greedy_eval(actor, S, env)
    print(f"mean_return={ret:.4f}")
    print(f"greedy_success={succ:.4f}")


if __name__ == "__main__":
    main()
