"""The reference web client: static ES modules and CSS (served by service/http/web.py)."""
