"""How well the investigator does: the benchmark, bug seeding, and the suites it scores."""
