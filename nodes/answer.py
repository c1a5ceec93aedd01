"""``answer``: reply to the user, with the injected memories as fenced, labelled data blocks; it may
call tools (the ``tools`` node runs them and comes back here) up to a bound per turn."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage
from langchain_core.runnables import Runnable, RunnableLambda
from langchain_core.tools import BaseTool

from memory_agent.graph.state import AgentState
from memory_agent.memory.gate import memory_block, session_block
from memory_agent.nodes.tools import tool_rounds
from memory_agent.prompts import load_prompt

MAX_HISTORY_MESSAGES = 20
#: Answers per turn that may call tools (``Settings.max_tool_rounds`` overrides it); the next answer is
#: asked without tools, so a turn always ends with a reply.
DEFAULT_MAX_TOOL_ROUNDS = 4


def history(messages: Sequence[BaseMessage], limit: int = MAX_HISTORY_MESSAGES) -> list[BaseMessage]:
    """The last ``limit`` messages, without tool results cut off from the call that asked for them (a
    provider refuses a ``ToolMessage`` whose ``AIMessage`` is not in the prompt)."""
    window = list(messages)[-limit:]
    while window and isinstance(window[0], ToolMessage):
        window.pop(0)
    return window


def after_answer(state: AgentState) -> str:
    """The edge after ``answer``: ``tools`` when its reply calls tools, else ``propose_facts``."""
    messages = state.get("messages") or []
    last = messages[-1] if messages else None
    return "tools" if isinstance(last, AIMessage) and last.tool_calls else "propose_facts"


def _bind(model: BaseChatModel, tools: Sequence[BaseTool]) -> Runnable | None:
    """``model.bind_tools(tools)``, or ``None`` when there are no tools or the model cannot call tools
    (it then answers without them, as before)."""
    if not tools:
        return None
    try:
        return model.bind_tools(list(tools))
    except NotImplementedError:
        return None


def make_answer(model: BaseChatModel, tools: Sequence[BaseTool] = (), max_tool_rounds: int = DEFAULT_MAX_TOOL_ROUNDS):
    """Build the node: system prompt + memory block (if any) + session block (if any) + the last 20
    messages (with this turn's tool calls and results) → one reply. Both blocks are rendered only by
    :mod:`memory_agent.memory.gate` (normalised, screened, fenced and escaped); tool results arrive
    already rendered by it (``nodes/tools.py``).

    With ``tools`` and a model that supports ``bind_tools``, the reply may call tools (``after_answer``
    routes it to ``tools``) while the turn has had fewer than ``max_tool_rounds`` tool-calling answers;
    then the model is asked without tools and any tool call it still makes is dropped.
    Runs sync (``invoke``) and async (``ainvoke``: the model's own async call).

    State out: ``messages`` gains one ``AIMessage``. Model errors propagate (the turn fails,
    nothing is written, the thread stays as it was before the turn's nodes ran).
    """
    with_tools = _bind(model, tools)

    def prepare(state: AgentState) -> tuple[Runnable, list[BaseMessage], bool]:
        prompt: list[BaseMessage] = [SystemMessage(load_prompt("system"))]
        if state.get("memories"):
            prompt.append(SystemMessage(memory_block(state["memories"], state.get("memories_left_out", 0))))
        if state.get("session"):
            prompt.append(SystemMessage(session_block(state["session"])))
        messages = state.get("messages", [])
        prompt.extend(history(messages))
        may_call = with_tools is not None and tool_rounds(messages) < max_tool_rounds
        return (with_tools if may_call else model), prompt, may_call

    def finish(reply: BaseMessage, may_call: bool) -> dict:
        text = reply.content if isinstance(reply.content, str) else str(reply.content)
        calls = list(getattr(reply, "tool_calls", None) or []) if may_call else []
        return {"messages": [AIMessage(content=text, tool_calls=calls, id=reply.id)]}

    def answer(state: AgentState) -> dict:
        runnable, prompt, may_call = prepare(state)
        return finish(runnable.invoke(prompt), may_call)

    async def aanswer(state: AgentState) -> dict:
        runnable, prompt, may_call = prepare(state)
        return finish(await runnable.ainvoke(prompt), may_call)

    return RunnableLambda(answer, afunc=aanswer, name="answer")
