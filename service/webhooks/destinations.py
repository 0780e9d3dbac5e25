"""Where the service may send a request: a URL it can send as written, to a host whose every
address is a public one. Judged when a URL is registered, and again at every connection
(`outbound.py`), on the address the host resolves to then.

The URL is parsed by httpx, the client that sends it, so what is judged is what would be
sent. httpx refuses control characters (CR, LF, tab, NUL: header injection), but it quietly
percent-encodes a space and takes port 0 or 65536: those are refused here too, as mistakes
that would only fail later, at every delivery.

An address is judged by where a packet to it finally goes. An IPv6 address that carries an
IPv4 address reaches that IPv4 address through a translator or a tunnel: on an IPv6-only
cluster with NAT64, `64:ff9b::a9fe:a9fe` is the cloud's metadata service, 169.254.169.254. So
the IPv4 address it carries is judged instead (NAT64's well-known prefix stays usable: DNS64
answers with it for every IPv4-only name), and the prefixes whose IPv4 address cannot be told
for sure, or that no public receiver uses, are refused whatever they carry.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from ipaddress import IPv4Address, IPv6Address, IPv6Network, ip_address
from typing import Final

import httpx

MAX_URL_LENGTH = 2048


class UrlRefused(ValueError):
    """A URL the service will not send to; the message says why."""


def _last_32_bits(ip: IPv6Address) -> IPv4Address | None:
    return IPv4Address(int(ip) & 0xFFFF_FFFF)


def _sixtofour(ip: IPv6Address) -> IPv4Address | None:
    return ip.sixtofour


Carried = Callable[[IPv6Address], IPv4Address | None]
# (prefix, its name, the IPv4 address it carries); None: refused, whatever it carries.
EMBEDDING: Final[tuple[tuple[IPv6Network, str, Carried | None], ...]] = (
    (IPv6Network("::ffff:0:0/96"), "IPv4-mapped", _last_32_bits),  # RFC 4291
    (IPv6Network("::ffff:0:0:0/96"), "IPv4-translated", _last_32_bits),  # RFC 2765 (SIIT)
    (IPv6Network("64:ff9b::/96"), "NAT64", _last_32_bits),  # RFC 6052's well-known prefix
    (IPv6Network("2002::/16"), "6to4", _sixtofour),  # RFC 3056
    # RFC 8215: where the IPv4 address sits in it is each network's own choice.
    (IPv6Network("64:ff9b:1::/48"), "local-use NAT64", None),
    # RFC 4380: a tunnel through a relay to a client behind a NAT; its server and client
    # addresses are both IPv4 addresses, and nothing public is reached through it.
    (IPv6Network("2001::/32"), "Teredo", None),
    # RFC 4291 deprecated IPv4-compatible addresses; `::` and `::1` are in it too.
    (IPv6Network("::/96"), "IPv4-compatible", None),
)
# Every public IPv6 address is in it (IANA allocates nothing else for the internet).
GLOBAL_UNICAST: Final = IPv6Network("2000::/3")


def check_url_form(url: str) -> httpx.URL:
    """The URL parsed, if it is one the service may send to as written (scheme, host, port, no
    user info, no space or control character); where it leads is judged by
    `resolve_allowed`."""
    if len(url) > MAX_URL_LENGTH:
        raise UrlRefused(f"A URL may be at most {MAX_URL_LENGTH} characters long.")
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise UrlRefused(f"Not a URL: {exc}") from None
    if any(c.isspace() for c in url):  # httpx would send %20: the URL holds a typo
        raise UrlRefused("The URL may not contain spaces.")
    if parsed.scheme not in ("http", "https"):
        raise UrlRefused("The URL's scheme must be http or https.")
    if not parsed.host:
        raise UrlRefused("The URL has no host.")
    if parsed.userinfo:
        raise UrlRefused("The URL may not carry a user name or password.")
    if parsed.port is not None and not 0 < parsed.port < 65536:
        raise UrlRefused(f"The URL's port must be 1 to 65535, not {parsed.port}.")
    return parsed


def reached(address: str) -> IPv4Address | IPv6Address:
    """The address a packet to `address` finally reaches: the address itself, or the IPv4
    address an IPv6 one carries (`EMBEDDING`). UrlRefused for a prefix refused outright."""
    ip = ip_address(address.split("%", 1)[0])  # without an IPv6 zone (`fe80::1%eth0`)
    if isinstance(ip, IPv6Address):
        for prefix, name, carried in EMBEDDING:
            if ip in prefix:
                v4 = None if carried is None else carried(ip)
                if v4 is None:
                    raise UrlRefused(f"{address} is a {name} address: refused.")
                return v4
    return ip


def refusal(address: str) -> str | None:
    """Why a connection to `address` is refused, or None when it may be made."""
    try:
        ip = reached(address)
    except UrlRefused as exc:
        return str(exc)
    public = ip.is_global and not ip.is_multicast and (
        not isinstance(ip, IPv6Address) or (ip in GLOBAL_UNICAST and not ip.is_site_local))
    if public:
        return None
    via = "" if ip == ip_address(address.split("%", 1)[0]) else f" (which reaches {ip})"
    return (f"{address}{via} is a private, loopback, link-local or reserved address: "
            "refused.")


async def resolve_allowed(host: str, port: int, allow_private: bool) -> str:
    """The address to connect to for `host`: refused when any address it resolves to may not
    be connected to (`refusal`), unless `allow_private`."""
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(
            host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise UrlRefused(f"The host {host!r} does not resolve ({exc}).") from None
    addresses = [str(info[4][0]) for info in infos]
    if not addresses:
        raise UrlRefused(f"The host {host!r} does not resolve.")
    if not allow_private:
        for address in addresses:
            why = refusal(address)
            if why is not None:
                raise UrlRefused(f"The host {host!r} resolves to {why}")
    return addresses[0]


async def check_url(url: str, allow_private: bool) -> httpx.URL:
    """The URL parsed, if the service may send to it: its form, and every address its host
    resolves to now (at registration; each connection is judged again)."""
    parsed = check_url_form(url)
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    await resolve_allowed(parsed.host, port, allow_private)
    return parsed
