"""What a run costs: a small table of known prices, overridable per run.

Prices are USD per 1,000 tokens (input, output), as published by the provider in 2025;
they change, so `--price-per-1k IN,OUT` overrides them. A model missing from the
table (a local vLLM/Ollama/llama.cpp model) has no known price: its cost is None and
no cost bound applies.
"""

from __future__ import annotations

# Longest matching prefix wins, so "gpt-4o-mini" is not priced as "gpt-4o".
PRICES_PER_1K: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.00015, 0.0006),
    "gpt-4o": (0.0025, 0.01),
    "gpt-4.1-nano": (0.0001, 0.0004),
    "gpt-4.1-mini": (0.0004, 0.0016),
    "gpt-4.1": (0.002, 0.008),
    "gpt-5-nano": (0.00005, 0.0004),
    "gpt-5-mini": (0.00025, 0.002),
    "gpt-5": (0.00125, 0.01),
    "o4-mini": (0.0011, 0.0044),
    "o3-mini": (0.0011, 0.0044),
    "o3": (0.002, 0.008),
}


def price_for(model: str) -> tuple[float, float] | None:
    name = model.split("/")[-1].lower()  # "openai/gpt-4o" as some proxies spell it
    matches = [p for p in PRICES_PER_1K if name.startswith(p)]
    return PRICES_PER_1K[max(matches, key=len)] if matches else None


def cost_usd(
    price: tuple[float, float] | None, prompt_tokens: int, completion_tokens: int
) -> float | None:
    if price is None:
        return None
    return round(prompt_tokens / 1000 * price[0] + completion_tokens / 1000 * price[1], 6)


def parse_price(text: str) -> tuple[float, float]:
    """`IN,OUT` (USD per 1k tokens) -> (in, out); one number means both."""
    parts = [p.strip() for p in text.split(",")]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise ValueError(f"--price-per-1k: {text!r} is not IN,OUT in USD per 1k tokens") from None
    if len(values) == 1:
        values *= 2
    if len(values) != 2 or any(v < 0 for v in values):
        raise ValueError(f"--price-per-1k: {text!r} is not IN,OUT in USD per 1k tokens")
    return values[0], values[1]
