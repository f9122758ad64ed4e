"""Builds the compiled Beleaguered Fortress kernel; everything else is in pyproject.toml.

FORTRESS_SOLVER_SANITIZE=1 builds it with AddressSanitizer and UBSan (`make test-asan`).
"""

import os

from pybind11.setup_helpers import Pybind11Extension
from setuptools import setup

SANITIZE = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=all"]
sanitize = os.environ.get("FORTRESS_SOLVER_SANITIZE") == "1"

kernel = Pybind11Extension(
    "solver.beleaguered._kernel",
    ["solver/beleaguered/_kernel.cpp"],
    cxx_std=17,
    extra_compile_args=(SANITIZE + ["-O1", "-g"]) if sanitize else ["-O2"],
    extra_link_args=SANITIZE if sanitize else [],
)

setup(ext_modules=[kernel])
