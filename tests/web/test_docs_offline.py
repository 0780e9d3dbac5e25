"""Issue 27: /docs works without internet: the API reference's scripts and styles come from
the service itself (a pinned copy), never from a CDN."""

from __future__ import annotations

from playwright.sync_api import Route, expect

from .conftest import Server


def test_the_api_reference_renders_with_only_the_server_reachable(people, server: Server):
    reader = people("reader")
    reader.allowed_errors.append("net::ERR_")  # whatever tries to leave is refused (below)
    outside: list[str] = []

    def only_the_server(route: Route) -> None:
        if route.request.url.startswith(server.url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    reader.context.route("**/*", only_the_server)
    page = reader.page
    page.goto("/docs")
    expect(page.get_by_text("Create a player and its API key").first).to_be_visible(timeout=20_000)
    expect(page.get_by_text("The calling player").first).to_be_visible()

    page.goto("/docs/swagger")
    expect(page.locator(".opblock-summary-operation-id", has_text="createGame")
           .or_(page.get_by_text("/v1/games/{game_id}/commands").first).first).to_be_visible()
    assert not outside, f"the docs reached out to {outside}"
