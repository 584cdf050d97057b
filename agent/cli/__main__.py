"""`python -m torch_investigate.agent.cli`: the same as the `investigate` command."""

from torch_investigate.agent.cli.main import main

main()
