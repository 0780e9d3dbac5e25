"""The curve of bench/scale.py as a PNG (matplotlib, no screen)."""

from __future__ import annotations

from typing import Any


def draw(sizes: list[int], rows: list[dict[str, Any]], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (latency, cost) = plt.subplots(1, 2, figsize=(11, 4.2))
    for key in sorted(k for k in rows[0] if k.endswith("_p99_ms")):
        latency.plot(sizes, [r[key] for r in rows], marker="o", label=key[:-len("_p99_ms")])
    latency.set(xscale="log", yscale="log", xlabel="finished games in the store",
                ylabel="p99 latency (ms)", title="Latency as the store grows")
    latency.legend(fontsize=7)
    cost.plot(sizes, [r["rebuild_ms_per_game"] for r in rows], marker="o",
              label="rebuild, ms per game")
    cost.plot(sizes, [r["sweep_scan_ms"] for r in rows], marker="o", label="sweep scan, ms")
    cost.set(xscale="log", yscale="log", xlabel="finished games in the store",
             title="Rebuild and sweep as the store grows")
    cost.legend(fontsize=7)
    for axis in (latency, cost):
        axis.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
