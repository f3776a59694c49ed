"""The `planner` command line: every capability of the app, headless."""

from planner.cli.main import main

__all__ = ["main"]
