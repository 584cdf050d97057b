"""A loss on a no-grad forward's output, added to the loss the program backward's: the
critic's values collected in a rollout under no_grad and regressed on their returns. The
term counts and trains nothing; the critic's optimizer steps and never changes it. The
same term on a network no optimizer holds (a frozen teacher) starves nothing, and values
recomputed with grad on are the healthy form."""

from __future__ import annotations

from conftest import planner_report

SCRIPT = """import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
actor, critic = nn.Linear(6, 3), nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-2)
critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-2)
w = torch.randn(6)
for update in range(150):
    states = torch.randn(32, 6)
    with torch.no_grad():
        values = torch.cat([critic(chunk).squeeze(-1) for chunk in states.split(8)])
        actions = torch.distributions.Categorical(logits=actor(states)).sample()
    returns = states @ w + 0.1 * torch.randn(32)
    advantage = returns - values
    logp = actor(states).log_softmax(-1).gather(1, actions[:, None]).squeeze(1)
    policy_loss = -(logp * advantage).mean()
    value_loss = F.mse_loss(VALUES, returns)
    actor_opt.zero_grad()
    critic_opt.zero_grad()
    (policy_loss + 0.5 * value_loss).backward()
    actor_opt.step()
    critic_opt.step()
print(f"value_loss={value_loss.item():.4f}")
"""


def test_values_from_a_no_grad_rollout_leave_the_critic_untrained(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("VALUES", "values"))
    found = [f for f in report.findings if f.status == "confirmed"]
    assert [f.category for f in found] == ["no_grad_training"], report.findings
    assert found[0].location.line == 13  # the critic's call under no_grad
    assert any("never received a gradient" in o.text for o in found[0].evidence)


def test_values_recomputed_with_grad_are_healthy(tmp_path):
    report = planner_report(tmp_path, SCRIPT.replace("VALUES", "critic(states).squeeze(-1)"))
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings


def test_a_frozen_teacher_s_loss_added_to_the_total_is_no_finding(tmp_path):
    # the same term on a network no optimizer holds: a constant, by design
    script = (
        SCRIPT.replace("VALUES", "critic(states).squeeze(-1)")
        .replace(
            "    (policy_loss + 0.5 * value_loss).backward()",
            "    with torch.no_grad():\n        guess = teacher(states).squeeze(-1)\n"
            "    (policy_loss + 0.5 * value_loss + 0.0 * F.mse_loss(guess, returns)).backward()",
        )
        .replace("w = torch.randn(6)\n", "w = torch.randn(6)\nteacher = nn.Linear(6, 1)\n")
    )
    report = planner_report(tmp_path, script)
    assert not [f for f in report.findings if f.status == "confirmed"], report.findings
