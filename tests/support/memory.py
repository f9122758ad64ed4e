"""The memory a process and its descendants hold, read from /proc: what the fuzz and
hostile-client tests watch on a server and its workers."""

from __future__ import annotations

from pathlib import Path


def family_rss(pid: int) -> dict[int, int]:
    """Bytes resident in a process and in each of its descendants (the workers)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        children = [int(child) for task in Path(f"/proc/{pid}/task").iterdir()
                    for child in (task / "children").read_text().split()]
    except (FileNotFoundError, ProcessLookupError):  # ended while read
        return {}
    found = {pid: next(int(line.split()[1]) * 1024 for line in status.splitlines()
                       if line.startswith("VmRSS:"))}
    for child in children:
        found.update(family_rss(child))
    return found
