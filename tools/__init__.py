"""What the investigation uses on a repo: the code index and static checks, the sandbox
and the tracer, the records and the taxonomy."""
