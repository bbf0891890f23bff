"""Peak memory of a studbook command as a whole process (the figure ``/usr/bin/time -v`` gives)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

_RUN = ("import resource, subprocess, sys\n"
        "stdin = open(sys.argv[1], 'rb') if sys.argv[1] else subprocess.DEVNULL\n"
        "done = subprocess.run([sys.executable, '-m', 'studbook', *sys.argv[2:]], stdin=stdin,\n"
        "                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)\n")  # fmt: skip


def peak_rss(args: list[str], stdin: Path | None = None, timeout: int = 600) -> tuple[int, int]:
    """(exit status, peak resident MB) of ``studbook ARGS [< stdin]`` in a fresh interpreter."""
    out = subprocess.run([sys.executable, "-c", _RUN, str(stdin or ""), *args], capture_output=True, text=True,
                         timeout=timeout, check=True).stdout.split()  # fmt: skip
    return int(out[0]), int(out[1])
