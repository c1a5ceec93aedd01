"""The run context as JSON clients (``langgraph dev``, the SDK, Studio) send it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graph.server import ServerContext


def test_json_context_becomes_a_server_context_with_a_parsed_clock():
    # LangGraph builds a dataclass context from the JSON dict as ``context_schema(**context)``.
    ctx = ServerContext(**{"user_id": "alice", "now": "2025-03-01T09:00:00Z", "approval": "never"})
    assert ctx.clock() == datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
    assert ctx.approval == "never"


@pytest.mark.parametrize(("context", "words"), [({"user_id": "a", "now": "yesterday"}, "ISO 8601"),
                                                ({"user_id": " "}, "user_id"),
                                                ({"user_id": "a", "approval": "sometimes"}, "approval")])
def test_bad_json_context_is_refused_with_what_to_send(context, words):
    with pytest.raises(ValueError, match=words):
        ServerContext(**context)
