"""The TypeScript SDK's package (clients/typescript) made ready for a test: its locked packages
installed (`npm ci`, whose `prepare` compiles dist/) when they are missing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "clients" / "typescript"


def npm_ci() -> Path:
    """The package's folder, its node_modules installed from the committed lockfile."""
    assert shutil.which("node") and shutil.which("npm"), "Node 20 and npm are needed"
    if not (PACKAGE / "node_modules" / ".package-lock.json").exists():
        done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=PACKAGE,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
    return PACKAGE


def build() -> Path:
    """dist/ compiled from the sources as they are now."""
    done = subprocess.run(["npx", "tsc", "-p", "tsconfig.json"], cwd=npm_ci(),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return PACKAGE / "dist"
