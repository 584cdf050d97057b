"""Shared pieces of the LLM and chat tests: seeded repos and a policy run against a
scripted server."""

from __future__ import annotations

import shutil
from pathlib import Path

from torch_investigate.agent.core.policy import investigate
from torch_investigate.agent.core.session import Options, Session
from torch_investigate.agent.llm import LLMPolicy, LLMSettings
from torch_investigate.agent.llm.trajectory import Recorder

ROOT = Path(__file__).resolve().parents[2]
RINGS = ROOT / "evals" / "repos" / "rings"
KEY = "sk-test-abcdefghijklmnop1234"


def seeded_rings(tmp_path: Path, name: str = "rings_no_zero_grad") -> Path:
    """A copy of the rings template whose training loop never resets gradients."""
    repo = tmp_path / name
    shutil.copytree(RINGS, repo)
    train = repo / "train.py"
    text = train.read_text()
    assert "optimizer.zero_grad()\n" in text
    train.write_text(text.replace("            optimizer.zero_grad()\n", ""))
    return repo


def healthy_rings(tmp_path: Path) -> Path:
    repo = tmp_path / "rings"
    shutil.copytree(RINGS, repo)
    return repo


def settings(server, **kw) -> LLMSettings:
    kw.setdefault("model", "scripted")
    return LLMSettings(base_url=server.url, api_key=KEY, backoff_s=0.01, **kw)


def run_policy(repo: Path, server, static_only: bool = False, steps: int = 40, **kw):
    """(report, policy, recorder) of one LLM investigation."""
    policy = LLMPolicy(settings(server, **kw))
    recorder = Recorder(repo)
    with Session(repo, Options(steps=steps, static_only=static_only)) as session:
        investigate(session, policy, on_event=recorder)
        report = session.report(llm=policy.usage)
    return report, policy, recorder


def run_review(repo: Path, server, steps: int = 40, **kw):
    """(report, policy, recorder) of one review-mode investigation."""
    from torch_investigate.agent.llm.review import ReviewPolicy

    policy = ReviewPolicy(LLMPolicy(settings(server, **kw)))
    recorder = Recorder(repo)
    with Session(repo, Options(steps=steps)) as session:
        investigate(session, policy, on_event=recorder)
        report = session.report(llm=policy.usage)
    return report, policy, recorder


def run_planner(repo: Path, steps: int = 40):
    from torch_investigate.agent.core.planner import Planner

    with Session(repo, Options(steps=steps)) as session:
        investigate(session, Planner())
        return session.report()


class WalkedRepo:
    """One planner walk of a repo, kept open, so several scripted reviews start from the
    same walk (a review begins where the planner's walk ends: every stage closed, nothing
    concluded yet). Each `review` restores the walk's state first; probes run anew."""

    def __init__(self, repo: Path, steps: int = 40) -> None:
        import copy

        from torch_investigate.agent.core.planner import Planner
        from torch_investigate.agent.core.toolbox import dispatch

        self._copy = copy.deepcopy
        self.session = Session(repo, Options(steps=steps))
        self.session.policy_name = "planner"
        Planner().run(self.session, lambda name, args=None: dispatch(self.session, name, args))
        self._walk = self._state()

    def _state(self) -> dict:
        s = self.session
        return self._copy({
            "protocol": s.protocol, "candidates": s.candidates, "notes": s.notes,
            "facts": s.facts,
        })  # fmt: skip

    def review(self, script, **kw):
        """(report, policy, server, recorder) of one review through the real client."""
        from torch_investigate.agent.llm.review import ReviewPolicy

        from .server import ScriptedLLM

        state = self._copy(self._walk)
        s = self.session
        s.protocol, s.candidates, s.notes = state["protocol"], state["candidates"], state["notes"]
        s.facts = state["facts"]
        with ScriptedLLM(script) as server:
            policy = ReviewPolicy(LLMPolicy(settings(server, **kw)))
            recorder = Recorder(s.repo)
            investigate(s, policy, on_event=recorder)
            report = s.report(llm=policy.usage)
        return report, policy, server, recorder

    def close(self) -> None:
        self.session.close()
