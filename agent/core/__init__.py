"""The investigation itself: the protocol state machine, its stages and guardrails, the
findings ledger, the session that runs the stages, the planner and the conclusion."""
