"""The parts of bench/scale.py: template games played by the engine (`templates`), stores of
each size bulk-loaded from them (`fill`), the timed reads against a server on each
(`measure`), and the curve (`plot`)."""
