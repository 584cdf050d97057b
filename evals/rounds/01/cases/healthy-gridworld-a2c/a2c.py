import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from gridworld import FREE, LavaGrid, MAX_STEPS, SIZE, observe, optimal_return
import gridworld


def net(d_in, d_out, hidden=64):
    return nn.Sequential(nn.Linear(d_in, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                         nn.Linear(hidden, d_out))


@torch.no_grad()
def greedy_eval(actor):
    """Run the greedy policy once from every free cell, return the mean episode return."""
    pos = torch.tensor(FREE)
    ret = torch.zeros(len(pos))
    alive = torch.ones(len(pos), dtype=torch.bool)
    for _ in range(MAX_STEPS):
        a = actor(observe(pos)).argmax(-1)
        new = (pos + gridworld.MOVES[a]).clamp(0, SIZE - 1)
        goal = (new[:, 0] == gridworld.GOAL[0]) & (new[:, 1] == gridworld.GOAL[1])
        lava = gridworld._lava[new[:, 0], new[:, 1]]
        r = torch.full((len(pos),), gridworld.STEP_COST)
        r[goal], r[lava] = gridworld.GOAL_REWARD, gridworld.LAVA_REWARD
        ret += r * alive
        alive &= ~(goal | lava)
        pos = new
    return ret.mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--rollout", type=int, default=8)
    ap.add_argument("--updates", type=int, default=500)
    ap.add_argument("--gamma", type=float, default=0.97)
    ap.add_argument("--lr-actor", type=float, default=1e-3)
    ap.add_argument("--lr-critic", type=float, default=3e-3)
    ap.add_argument("--entropy", type=float, default=0.03)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    g = torch.Generator().manual_seed(args.seed)
    env = LavaGrid(args.envs, g)
    actor, critic = net(SIZE * SIZE, 4), net(SIZE * SIZE, 1)
    opt_actor = torch.optim.Adam(actor.parameters(), lr=args.lr_actor)
    opt_critic = torch.optim.Adam(critic.parameters(), lr=args.lr_critic)

    obs = env.obs()
    t0 = time.time()
    for update in range(1, args.updates + 1):
        logps, values, rewards, dones, ents = [], [], [], [], []
        for _ in range(args.rollout):
            logits = actor(obs)
            dist = torch.distributions.Categorical(logits=logits)
            action = dist.sample()
            values.append(critic(obs).squeeze(-1))
            logps.append(dist.log_prob(action))
            ents.append(dist.entropy())
            obs, r, d = env.step(action)
            rewards.append(r)
            dones.append(d.float())

        # n-step returns, bootstrapped from the critic's estimate of the last state
        with torch.no_grad():
            ret = critic(obs).squeeze(-1)
        returns = []
        for r, d in zip(reversed(rewards), reversed(dones)):
            ret = r + args.gamma * ret * (1.0 - d)
            returns.append(ret)
        returns = torch.stack(returns[::-1])
        values, logps, ents = torch.stack(values), torch.stack(logps), torch.stack(ents)

        advantage = (returns - values).detach()
        actor_loss = -(logps * advantage).mean() - args.entropy * ents.mean()
        critic_loss = F.mse_loss(values, returns)

        opt_actor.zero_grad()
        actor_loss.backward()
        nn.utils.clip_grad_norm_(actor.parameters(), 10.0)
        opt_actor.step()

        opt_critic.zero_grad()
        critic_loss.backward()
        opt_critic.step()

        if update % 100 == 0:
            print(f"update {update:4d} actor_loss {actor_loss.item():+.4f} critic_loss {critic_loss.item():.4f} "
                  f"entropy {ents.mean().item():.3f} eval_return {greedy_eval(actor):+.3f} [{time.time() - t0:.1f}s]")
    print(f"optimal_return={optimal_return():.4f}")
    print(f"eval_return={greedy_eval(actor):.4f}")


if __name__ == "__main__":
    main()
