"""What the tests share, one idea a module: test modules and conftest.py files import
from here, never from one another, and nothing here depends on the benchmarks (the
scripts under bench/ may use this package). No module here is a test module (no
test_*.py), so pytest collects nothing from it.
"""
