"""Verify a game offline, with the rules and not the server (`cya-verify`, docs/audit.md): the
hash chain, the seeds, every shuffle, the rules replayed, the recorded times, and the signed
receipts a player kept. The log's checks (`log`, `seeds`) are the ones the server's
`GET /verify` runs; the receipts' (`receipts`) need `cryptography` (`cya-rules[receipts]`)."""
