"""The reference web client: static ES modules and CSS, no Python (served by service/http/web.py)."""
