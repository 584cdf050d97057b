def main() -> None:  # replaced by the typer app
    raise SystemExit("investigate: not built yet")
