"""The web client (`service/web/`) at `/`, and the API reference's scripts at `/vendor/...`.

Static files only: the client calls `/v1` like any third party, so nothing here knows the
game. They need no key, and the rate limiter skips them (`UNLIMITED`): a page load fetches a
dozen files, which would eat a player's quota for nothing. The router's `/{path}` route sits
below `/v1` and `/docs`, whose own routes match first.
"""

from __future__ import annotations

from pathlib import Path

from litestar.datastructures import CacheControlHeader
from litestar.openapi.plugins import OpenAPIRenderPlugin, ScalarRenderPlugin, SwaggerRenderPlugin
from litestar.router import Router
from litestar.static_files import create_static_files_router

WEB_DIR = Path(__file__).resolve().parent.parent / "web"

# The route option the rate limiter's config names in `exclude_opt_key`.
UNLIMITED = "unlimited"

# Pinned copies of the API reference renderers (service/web/vendor/README.md), so /docs works
# without internet instead of loading `@latest` from a CDN.
SCALAR = "/vendor/scalar-api-reference-1.76.0"
SWAGGER = "/vendor/swagger-ui-dist-5.35.0"
# Litestar's default icon tag points at a CDN too.
FAVICON = '<link rel="icon" type="image/svg+xml" href="/favicon.svg">'


def web_router() -> Router:
    # no-cache: revalidate each time (ETag), since the files keep their names across versions.
    return create_static_files_router(
        path="/", directories=[WEB_DIR], html_mode=True, name="web",
        cache_control=CacheControlHeader(no_cache=True), opt={UNLIMITED: True},
        include_in_schema=False,
    )


def docs_render_plugins() -> list[OpenAPIRenderPlugin]:
    """Scalar at /docs, Swagger UI at /docs/swagger, both from the vendored copies. Scalar's
    own fonts would come from its CDN: the page uses the system's instead."""
    return [
        ScalarRenderPlugin(path="/", js_url=f"{SCALAR}/standalone.js",
                           css_url="/docs.css", options={"withDefaultFonts": False},
                           favicon=FAVICON),
        SwaggerRenderPlugin(path="/swagger", js_url=f"{SWAGGER}/swagger-ui-bundle.js",
                            css_url=f"{SWAGGER}/swagger-ui.css",
                            standalone_preset_js_url=f"{SWAGGER}/swagger-ui-standalone-preset.js",
                            favicon=FAVICON),
    ]
