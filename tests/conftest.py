"""Settings of every test run: hypothesis keeps no example database and draws from one
seed per run, printed in the header and again with a failure, so a red run is repeated
on purpose and never by a stored example; the `timing` tests are left to `make test-timing`."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import settings

SEED_VARIABLE = "FORTRESS_TEST_SEED"

# No deadline either: how long an example takes is a benchmark's question, not a test's.
settings.register_profile("fortress", database=None, deadline=None, print_blob=True)
settings.load_profile("fortress")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """The run's seed: --hypothesis-seed, else $FORTRESS_TEST_SEED, else a fresh one. It
    goes to the environment too, where the workers of `pytest -n` read it."""
    seed = (config.getoption("hypothesis_seed") or os.environ.get(SEED_VARIABLE)
            or str(random.randrange(2**32)))
    os.environ[SEED_VARIABLE] = config.option.hypothesis_seed = str(seed)


def pytest_report_header(config: pytest.Config) -> str:
    return f"hypothesis seed {config.option.hypothesis_seed} ({_repeat(config)})"


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """The seed again at the end, where a quiet run (`-q`, no header) shows it too."""
    failed = bool(terminalreporter.stats.get("failed") or terminalreporter.stats.get("error"))
    terminalreporter.write_line(f"hypothesis seed {config.option.hypothesis_seed}: "
                                f"{_repeat(config)}", red=failed, bold=failed)


def _repeat(config: pytest.Config) -> str:
    seed = config.option.hypothesis_seed
    return (f"repeat the run with `{SEED_VARIABLE}={seed} make test`, or one test with "
            f"`.venv/bin/python -m pytest --hypothesis-seed={seed} TEST_ID`")
