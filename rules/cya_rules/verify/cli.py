"""`cya-verify HISTORY.ndjson [--receipts DIR] [--keys KEYS.json]`: verify a game offline
(docs/audit.md). Exit 0 when every check passed, 1 when one failed, 2 when it could not run
(a file missing or unreadable, receipts asked for without `cryptography`)."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

import msgspec

from cya_rules.log.history import HistoryError, read_history
from cya_rules.verify.receipts import (
    INSTALL_HINT,
    ReceiptsUnavailable,
    load_keys,
    load_receipts,
    receipts_path,
)
from cya_rules.verify.report import ReceiptsInput, render, verify_history

HISTORY_SUFFIX = ".history.ndjson"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="cya-verify", description="Verify a Cover Your Assets game offline: its hash "
        "chain, seeds, shuffles and rules, recorded times, and the receipts you kept.")
    p.add_argument("history", type=Path, help="the game's history: the body of GET "
                   f"/v1/games/{{id}}/history, saved as <game id>{HISTORY_SUFFIX}")
    p.add_argument("--game", help="the game's id (default: the history's file name before "
                   f"{HISTORY_SUFFIX})")
    p.add_argument("--receipts", type=Path, metavar="DIR", help="the directory where the SDK "
                   "kept receipts (<game id>.receipts.ndjson); needs --keys")
    p.add_argument("--keys", type=Path, metavar="KEYS.json",
                   help="the server's public keys: GET /v1/receipt-keys, saved")
    p.add_argument("--salt", help="the game's receipt salt, hex (the history's "
                   "Cya-Receipt-Salt header; default: the file <game id>.salt beside the "
                   "history)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    return p


def game_id_of(history: Path) -> str:
    name = history.name
    return name[: -len(HISTORY_SUFFIX)] if name.endswith(HISTORY_SUFFIX) else name.split(".")[0]


def _salt(args: argparse.Namespace, game_id: str) -> bytes | None:
    text = args.salt
    if text is None:
        beside = args.history.parent / f"{game_id}.salt"
        text = beside.read_text() if beside.exists() else None
    return None if text is None else bytes.fromhex(text.strip())


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if (args.receipts is None) != (args.keys is None):
        print("cya-verify: --receipts and --keys go together", file=sys.stderr)
        return 2
    game_id = args.game or game_id_of(args.history)
    try:
        lines = read_history(args.history.read_bytes())
        given = None
        if args.receipts is not None:
            found = receipts_path(args.receipts, game_id)
            given = ReceiptsInput(load_receipts(found) if found.exists() else [],
                                  load_keys(args.keys.read_bytes()), _salt(args, game_id))
        report = verify_history(game_id, lines, given, now=datetime.now(UTC))
    except ReceiptsUnavailable:
        print(f"cya-verify: receipts cannot be checked without cryptography: {INSTALL_HINT}",
              file=sys.stderr)
        return 2
    except (OSError, HistoryError, msgspec.DecodeError, msgspec.ValidationError,
            ValueError) as exc:
        print(f"cya-verify: {exc}", file=sys.stderr)
        return 2
    if args.json:
        sys.stdout.write(msgspec.json.encode(
            {"game_id": report.game_id, "ok": report.ok, "events": report.events,
             "checks": report.checks}).decode() + "\n")
    else:
        sys.stdout.write(render(report))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
