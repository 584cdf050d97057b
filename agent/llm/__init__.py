"""The LLM agent: any OpenAI-compatible endpoint walks the protocol through the toolbox.

    policy = LLMPolicy.from_env("gpt-4o-mini", max_steps=60)
    investigate(session, policy)
    report = session.report(llm=policy.usage)

Layout: `settings` (endpoint and bounds), `client` + `retry` (the network seam),
`prices` + `budget` (tokens and cost), `messages` (the typed conversation), `quoting`
(repo text as data), `briefing` (prompts rendered from `prompts/`), `execute` (one tool
call), `policy` (the loop), `trajectory` (save and replay), `options` + `progress`
(the command line's view).
"""

from torch_investigate.agent.llm.errors import LLMConfigError, LLMRequestError, LLMUnavailable
from torch_investigate.agent.llm.policy import LLMPolicy
from torch_investigate.agent.llm.settings import LLMSettings

__all__ = ["LLMConfigError", "LLMPolicy", "LLMRequestError", "LLMSettings", "LLMUnavailable"]
