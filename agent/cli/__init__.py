"""The `investigate` command line: the typer app, the run command, the subcommands and the
progress display on stderr."""
