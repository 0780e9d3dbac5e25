"""A control for the loop lag: a bare event loop (uvloop, as the API's) in a process of its
own at the service's priority, doing nothing but the probe's 50 ms naps. What it measures is
the machine's own scheduling delay (other processes on its cores), which the service's
probe measures too: a stall of the service's loop is only what it shows beyond this.

    python -m bench.soaking.control OUT.json   # writes its figures once a second
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

NAP_S = 0.05  # as the service's probe (service/http/metrics.py)


async def measure(out: Path) -> None:
    loop = asyncio.get_running_loop()
    worst, over_100ms, samples, written = 0.0, 0, 0, time.monotonic()
    while True:
        asked = loop.time() + NAP_S
        await asyncio.sleep(NAP_S)
        late = max(loop.time() - asked, 0.0)
        worst, samples = max(worst, late), samples + 1
        over_100ms += late > 0.1
        if time.monotonic() - written >= 1.0:
            out.write_text(json.dumps({"max_ms": round(worst * 1000, 1),
                                       "over_100ms": over_100ms, "samples": samples}))
            written = time.monotonic()


def main() -> None:
    try:
        import uvloop

        uvloop.run(measure(Path(sys.argv[1])))
    except ImportError:
        asyncio.run(measure(Path(sys.argv[1])))


if __name__ == "__main__":
    main()
