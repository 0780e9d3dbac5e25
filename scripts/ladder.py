"""The bot ladder (issue 29): the levels against each other on duplicate-seated deals.

    .venv/bin/python scripts/ladder.py            # the full ladder (about 40 min on 2 cores)
    .venv/bin/python scripts/ladder.py --quick    # the 2-player ismcts target, ≤ 10 min
    .venv/bin/python scripts/ladder.py --write-docs docs/bots.md

Same as `cya ladder`. Exits 1 when a target is missed.
"""

from __future__ import annotations

from service.cli.ladder import ladder

if __name__ == "__main__":
    ladder()
