"""What an LLM investigation costs in prompt tokens, pinned under the README's budgets.

The scripted server reports an estimate of each request (about four characters per token
of its messages and tool schemas), so these numbers move when the prompts, the tool
schemas, the tool results or the conversation's elision change. Measured on the bundled
example: `.venv/bin/python tests/fakellm/measure.py`.
"""

import json

from fakellm.measure import measure_review, measure_walk
from fakellm.server import estimate_tokens

from torch_investigate.agent.llm.briefing import system_prompt
from torch_investigate.agent.llm.policy import TOOL_SCHEMAS
from torch_investigate.agent.llm.quoting import DataFence
from torch_investigate.prompts import load_all

REVIEW_BUDGET = 40_000  # a short review of the bundled example (the planner walks first)
WALK_BUDGET = 80_000  # the model walks all eight stages of the bundled example
FIXED_BUDGET = 3_500  # the system prompt and tool schemas every request carries (README)


def test_what_every_request_carries_is_small():
    system = system_prompt(load_all(), DataFence(), max_failures=4)
    body = {"messages": [{"role": "system", "content": system}], "tools": TOOL_SCHEMAS}
    assert estimate_tokens(body) < FIXED_BUDGET
    sent = json.dumps(TOOL_SCHEMAS)
    assert '"title": "' not in sent and '"default": null' not in sent and '"anyOf"' not in sent
    record = next(t for t in TOOL_SCHEMAS if t["function"]["name"] == "record_finding")
    assert record["function"]["parameters"]["properties"]["status"]["enum"] == [
        "confirmed", "plausible", "refuted",
    ]  # fmt: skip


def test_a_short_review_of_the_bundled_example_stays_under_budget():
    review = measure_review()
    print(review.line())
    assert review.stop_reason == "finished" and review.root_cause == "F1"
    assert review.requests == 4
    assert review.prompt_tokens < REVIEW_BUDGET


def test_a_full_walk_of_the_bundled_example_stays_under_budget():
    walk = measure_walk()
    print(walk.line())
    assert walk.stop_reason == "finished" and walk.root_cause == "F1"
    assert walk.requests >= 16  # every stage was worked: checks, records, advance
    assert walk.prompt_tokens < WALK_BUDGET
    # elision bounds the conversation: the last request is not much larger than the first
    assert walk.largest_request < 2.5 * FIXED_BUDGET
