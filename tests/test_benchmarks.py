"""Every benchmark starts as the README and the docs say to run it: from the repository's root,
`.venv/bin/python bench/NAME.py`, and `--help` exits 0 at once. Run that way a script's own
folder comes first on the import path, so a script named like a module of the standard
library (`bench/http.py` was) broke every other one that imported it, `bench/store.py` too."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", ROOT / "deploy" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
RUN = re.compile(r"(?:\.venv/bin/)?python3? (bench/\w+\.py)")


def _documented() -> set[str]:
    return {script for doc in DOCS for script in RUN.findall(doc.read_text())}


def test_given_every_benchmark_then_the_docs_say_how_to_run_it():
    scripts = {f"bench/{path.name}" for path in (ROOT / "bench").glob("*.py")}

    assert sorted(scripts - _documented()) == []
    assert sorted(_documented() - scripts) == [], "the docs run a benchmark that is gone"


def test_given_each_benchmark_run_as_documented_then_its_help_exits_0():
    # `.venv/bin/python` as written, where the tests run from that environment.
    venv = ROOT / ".venv" / "bin" / "python"
    python = str(venv) if venv.exists() else sys.executable
    runs = {script: subprocess.Popen([python, script, "--help"], cwd=ROOT, text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for script in sorted(_documented())}

    for script, run in runs.items():
        out, err = run.communicate(timeout=60)
        assert run.returncode == 0 and out.startswith("usage:"), (script, err[-2000:])
