"""`cya`: the operator's command line (migrations, rebuilds, audits, simulations, workers)."""
