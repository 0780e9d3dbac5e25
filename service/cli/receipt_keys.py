"""`cya receipt-keys`: make a receipt key ring, and rotate its signing key (docs/receipts.md)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from service.receipts.keyring import KeyRing, new_key_ring_document, rotated


@click.group("receipt-keys")
def receipt_keys() -> None:
    """The keys that sign receipts."""


def _write(path: Path, content: bytes) -> None:
    """Replaces `path` with `content`, readable by its owner alone."""
    temp = path.with_name(f".{path.name}.new")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(content)
    temp.replace(path)


@receipt_keys.command("new")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
def new(path: Path) -> None:
    """Write a fresh key ring to PATH (refused if it exists): set CYA_RECEIPT_KEYS to its
    content, or CYA_RECEIPT_KEYS_FILE to PATH, on every API process."""
    if path.exists():
        raise click.ClickException(f"{path} exists: rotate it instead")
    _write(path, new_key_ring_document())
    click.echo(f"signing key {KeyRing.from_document(path.read_bytes()).signing_key_id}")


@receipt_keys.command("rotate")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def rotate(path: Path) -> None:
    """Add a new signing key to the ring at PATH; the old one is retired (its public key stays
    listed, so the receipts it signed keep verifying). Roll it out to every API process."""
    before = KeyRing.from_document(path.read_bytes()).signing_key_id
    _write(path, rotated(path.read_bytes()))
    after = KeyRing.from_document(path.read_bytes()).signing_key_id
    click.echo(f"signing key {after} (retired: {before})")
