"""Shared fixtures: the repository's root, and the `searchlab` command
line (the Rust CLI) whose answers the Python bindings must match."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Callable, Dict, List

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def root() -> Path:
    """The repository's root: problems/ and benchmarks/ are read from it."""
    return ROOT


@pytest.fixture(scope="session")
def cli() -> Callable[..., Dict[str, Any]]:
    """Runs `searchlab plan ... --json` (the binary SEARCHLAB_CLI names, or
    `cargo run -p searchlab`) and returns its JSON answer."""
    binary = os.environ.get("SEARCHLAB_CLI")
    command: List[str] = [binary] if binary else ["cargo", "run", "-q", "-p", "searchlab", "--"]

    def run(*args: str) -> Dict[str, Any]:
        done = subprocess.run(
            [*command, "plan", *args, "--json"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode in (0, 3, 4), done.stderr + done.stdout
        return json.loads(done.stdout)

    return run
