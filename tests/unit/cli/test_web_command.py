"""``memory-agent web``: which listen addresses count as loopback (anything else gets the warning and
serves any Host name)."""

from __future__ import annotations

import pytest

from memory_agent.cli.web import is_loopback


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"])
def test_loopback_addresses(host):
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.10", "example.com", ""])
def test_other_addresses_are_not_loopback(host):
    assert not is_loopback(host)
