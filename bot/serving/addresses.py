"""Who sent a request: the client's address, behind trusted reverse proxies, and whether it is
one of Telegram's.

`X-Forwarded-For` is written by whoever sends the request: a client can put any address in it.
Each proxy appends the address it received the request from, so only the right end of the list
was written by proxies we trust. The client is therefore the peer itself, unless the peer is a
trusted proxy (`QUIZ_TRUSTED_PROXIES`); then, walking the list from the right, the first address
that is not a trusted proxy. Every address left of it is the client's own writing and never
believed. An entry that is not an address ends the walk as an unknown client (None), which no
allowlist lets in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from ipaddress import IPv4Address, IPv6Address, ip_address, ip_network

from bot.config import Network

Address = IPv4Address | IPv6Address

# Where Telegram sends webhook requests from (core.telegram.org/bots/webhooks)
TELEGRAM_NETWORKS: tuple[Network, ...] = (
    ip_network("149.154.160.0/20"),
    ip_network("91.108.4.0/22"),
)


def parse_address(text: str) -> Address | None:
    """An IP address as a socket or a proxy writes it (an IPv4 address mapped into IPv6, as a
    dual-stack socket gives it, is that IPv4 address); None if `text` is not one."""
    try:
        address = ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(address, IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def within(address: Address, networks: Iterable[Network]) -> bool:
    return any(address in network for network in networks)


def client_address(
    peer: str | None, forwarded_for: Sequence[str], trusted: Sequence[Network]
) -> Address | None:
    """The client's address: the peer's, or, when the peer is a trusted proxy, the right-most
    address of `X-Forwarded-For` (every such header, in order) that is not a trusted proxy
    (the left-most if all are). None when it cannot be known."""
    address = parse_address(peer) if peer else None
    if address is None or not within(address, trusted):
        return address
    hops = [hop for header in forwarded_for for hop in header.split(",")]
    for hop in reversed(hops):
        found = parse_address(hop)
        if found is None:
            return None
        if not within(found, trusted):
            return found
        address = found
    return address
