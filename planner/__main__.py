"""`python -m planner`: the command line."""

from planner.cli import main

raise SystemExit(main())
