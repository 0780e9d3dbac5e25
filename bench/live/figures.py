"""The run's figures from what the load processes and the servers reported, and the targets."""

from __future__ import annotations

from typing import Any

from soaking.lag import INF, buckets, worst

TARGETS = {"p99_command_ms": 100.0, "p99_delivery_ms": 250.0, "kib_per_stream": 64.0,
           "loop_stalls_over_100ms": 0, "missed_events": 0}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1) \
        if ordered else 0.0


def lag(before: list[str], after: list[str]) -> dict[str, Any]:
    """Loop lag between two scrapes of every API process: stalls over 100 ms and the worst
    bucket (a histogram has no maximum)."""
    stalls, worst_ms = 0, 0.0
    for b, a in zip(before, after, strict=True):
        start, end = buckets(b), buckets(a)
        added = {le: n - start.get(le, 0.0) for le, n in end.items()}
        stalls += int(added.get(INF, 0.0) - added.get(0.1, 0.0))
        worst_ms = max(worst_ms, worst(added) * 1000)
    return {"stalls_over_100ms": stalls, "worst_ms_bound": worst_ms}


def judged(reports: list[dict[str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for report in reports:
        for key, value in report.items():
            merged[key] = merged.get(key, [] if isinstance(value, list) else 0) + value
    return {
        "commands": merged["commands"], "refused_commands": merged["refused"],
        "unanswered_commands": merged["unanswered"],
        "skipped_due": merged["skipped"],
        "p50_command_ms": pct(merged["latencies"], 0.5),
        "p99_command_ms": pct(merged["latencies"], 0.99),
        "p50_delivery_ms": pct(merged["from_send"], 0.5),
        "p99_delivery_ms": pct(merged["from_send"], 0.99),
        "p99_delivery_after_answer_ms": pct(merged["from_answer"], 0.99),
        # How late the load processes sent (their own loop behind): part of the command p99.
        "p99_send_late_ms": pct(merged["send_late"], 0.99),
        "undelivered_commands": merged["undelivered_commands"],
        "missed_events": merged["missed_events"],
        "out_of_order_streams": merged["out_of_order_streams"],
        "streams_lost": merged["streams_lost"],
    }


def met(figures: dict[str, Any]) -> dict[str, bool]:
    return {
        "games": figures["games"] >= figures["games_asked"],
        "streams": figures["streams"] >= 2 * figures["games_asked"],
        "p99_command_ms": figures["p99_command_ms"] <= TARGETS["p99_command_ms"],
        "p99_delivery_ms": figures["p99_delivery_ms"] <= TARGETS["p99_delivery_ms"],
        "kib_per_stream": figures["kib_per_stream"] <= TARGETS["kib_per_stream"],
        "loop_stalls_over_100ms": figures["loop_stalls_over_100ms"]
        <= TARGETS["loop_stalls_over_100ms"],
        "missed_events": figures["missed_events"] + figures["out_of_order_streams"]
        + figures["streams_lost"] <= TARGETS["missed_events"],
        "half_rate_sent": figures["commands"] >= 0.9 * figures["rate_per_s"]
        * figures["seconds"],
    }
