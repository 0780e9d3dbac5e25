"""The bot's function from its file, and the command line's seat counts: shared by
`cya-bot play` and `cya-bot simulate`."""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from pathlib import Path

from cya_client.bot.runner import Choose


def load_choose(path: Path, function: str = "choose") -> Choose:
    """The bot's function, from its Python file."""
    spec = importlib.util.spec_from_file_location(f"cya_bot_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    choose = getattr(module, function, None)
    if not callable(choose):
        raise SystemExit(f"{path} defines no function {function}(view, legal)")
    found: Choose = choose
    return found


def players(text: str) -> int:
    """`4p` or `4`: the number of seats."""
    match = re.fullmatch(r"([2-6])p?", text.strip())
    if not match:
        raise argparse.ArgumentTypeError("the number of seats, 2p to 6p")
    return int(match.group(1))
