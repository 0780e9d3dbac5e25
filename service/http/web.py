"""The web client (`service/web/`) at `/`, and the API reference's scripts at `/vendor/...`.

Static files only: the client calls `/v1` like any third party, so nothing here knows the
game. They need no key, and the rate limiter skips them (`UNLIMITED`): a page load fetches a
dozen files, which would eat a player's quota for nothing. The router's `/{path}` route sits
below `/v1` and `/docs`, whose own routes match first.

The files are read into memory when the app is built (7 MB, most of it the vendored API
reference): Litestar's local file system reads through anyio's worker threads, which idle out
after 10 s, and starting a new one blocks the event loop until it runs, which on a busy machine
took up to 360 ms (`bench/soak.py` saw it in the loop lag). Litestar still does the rest: paths,
`index.html`, the 404 page, ETags and HEAD.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any, Literal

from litestar.datastructures import CacheControlHeader
from litestar.openapi.plugins import OpenAPIRenderPlugin, ScalarRenderPlugin, SwaggerRenderPlugin
from litestar.router import Router
from litestar.static_files import create_static_files_router
from litestar.types import FileInfo, PathType

WEB_DIR = Path(__file__).resolve().parent.parent / "web"

# The route option the rate limiter's config names in `exclude_opt_key`.
UNLIMITED = "unlimited"

# Pinned copies of the API reference renderers (service/web/vendor/README.md), so /docs works
# without internet instead of loading `@latest` from a CDN.
SCALAR = "/vendor/scalar-api-reference-1.76.0"
SWAGGER = "/vendor/swagger-ui-dist-5.35.0"
# Litestar's default icon tag points at a CDN too.
FAVICON = '<link rel="icon" type="image/svg+xml" href="/favicon.svg">'


class FilesInMemory:
    """A directory's files, read once: Litestar's `FileSystemProtocol` with nothing to wait
    for, so serving them never leaves the event loop."""

    def __init__(self, root: Path) -> None:
        self.contents: dict[str, bytes] = {}
        self.infos: dict[str, FileInfo] = {}
        for path in [root, *root.rglob("*")]:
            info = path.stat()
            kind: Literal["file", "directory"] = "directory" if path.is_dir() else "file"
            self.infos[str(path)] = FileInfo(
                created=info.st_ctime, gid=info.st_gid, ino=info.st_ino, islink=False,
                mode=info.st_mode, mtime=info.st_mtime, name=str(path), nlink=info.st_nlink,
                size=info.st_size, type=kind, uid=info.st_uid)
            if stat.S_ISREG(info.st_mode):
                self.contents[str(path)] = path.read_bytes()

    async def info(self, path: PathType, **kwargs: Any) -> FileInfo:
        found = self.infos.get(os.path.normpath(path))
        if found is None:
            raise FileNotFoundError(path)
        return found

    async def open(self, file: PathType, mode: str = "rb", buffering: int = -1) -> OpenFile:
        return OpenFile(self.contents[os.path.normpath(file)])


class OpenFile:
    """What Litestar reads a file through: `async with`, then `await read(size)`."""

    def __init__(self, content: bytes) -> None:
        self.content, self.at = content, 0

    async def __aenter__(self) -> OpenFile:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def read(self, size: int = -1) -> bytes:
        end = len(self.content) if size < 0 else self.at + size
        chunk, self.at = self.content[self.at:end], min(end, len(self.content))
        return chunk


def web_router() -> Router:
    # no-cache: revalidate each time (ETag), since the files keep their names across versions.
    return create_static_files_router(
        path="/", directories=[WEB_DIR], file_system=FilesInMemory(WEB_DIR), html_mode=True,
        name="web",
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
