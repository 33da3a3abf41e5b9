"""Run every ``bench/*_bench.py`` in turn (``make bench``); non-zero if any of them fails."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def main() -> int:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(BENCH.parent), os.environ.get("PYTHONPATH")]))}
    failed = []
    for script in sorted(BENCH.glob("*_bench.py")):
        print(f"== {script.name}", flush=True)
        started = time.perf_counter()
        code = subprocess.call([sys.executable, str(script), *sys.argv[1:]], cwd=BENCH.parent, env=env)
        print(f"== {script.name}: exit {code} after {time.perf_counter() - started:.1f} s", flush=True)
        if code:
            failed.append(script.name)
    if failed:
        print("failed: " + ", ".join(failed), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
