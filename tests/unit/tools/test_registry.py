"""The tool registry: memory tools first, then the user's own; their schemas show the model no user."""

from __future__ import annotations

import pytest

from memory_agent.tools import agent_tools, registry
from memory_agent.tools.memory_tools import memory_tools
from memory_agent.tools.user_tools import calculator


def test_the_registry_lists_the_user_tools_and_refuses_two_of_one_name(monkeypatch):
    assert [t.name for t in agent_tools(None)] == ["current_time", "calculator"]
    monkeypatch.setattr(registry, "USER_TOOLS", [calculator, calculator])
    with pytest.raises(ValueError, match="share a name"):
        agent_tools(None)


def test_no_tool_schema_shows_the_model_a_user_or_the_runtime():
    tools = [*memory_tools(None), *agent_tools(None)]  # building the schemas reads no store
    assert len(tools) == 5
    for tool in tools:
        assert not {"user_id", "user", "runtime"} & set(tool.tool_call_schema.model_json_schema()["properties"])
