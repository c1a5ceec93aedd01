"""``OfflineChatModel``: the LangChain chat-model adapter over the offline rules and answer composer."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.runnables import Runnable, RunnableLambda
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from memory_agent.core.facts import ProposedFacts
from memory_agent.models.offline.answers import compose_answer
from memory_agent.models.offline.extraction import propose_facts
from memory_agent.models.offline.tool_calls import compose_tool_answer, tool_calls_for

__all__ = ["OfflineChatModel"]


class OfflineChatModel(BaseChatModel):
    """A deterministic, rule-based stand-in for a chat model. It is NOT a language model.

    It finds first-person facts with regular-expression rules (:func:`extract_facts`) and composes
    answers only from the ``<memories>`` block it is given (:func:`compose_answer`). Use it to run
    the template, tests and demos without an API key; configure a real chat model for anything else.

    - ``invoke(messages) -> AIMessage``: the composed answer; ``stream`` gives it word by word.
    - ``bind_tools(tools)``: with tools bound, a message that asks for one by rule
      (:mod:`memory_agent.models.offline.tool_calls`) gets an ``AIMessage`` with ``tool_calls``; once the
      tools answered, the answer replays their results.
    - ``with_structured_output(ProposedFacts).invoke(messages) -> ProposedFacts``.
    """

    @property
    def _llm_type(self) -> str:
        return "offline-rule-based"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model": "offline-rule-based"}

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        names = {t.get("function", {}).get("name") for t in kwargs.get("tools") or [] if isinstance(t, dict)}
        calls = tool_calls_for(messages, names) if names else []
        if calls:
            return ChatResult(generations=[ChatGeneration(message=AIMessage(content="", tool_calls=calls))])
        text = compose_tool_answer(messages) or compose_answer(messages)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        """The same reply as ``invoke``, word by word (each word with the spaces after it); a tool-calling
        reply is one chunk holding the calls."""
        message = self._generate(messages, stop, **kwargs).generations[0].message
        if isinstance(message, AIMessage) and message.tool_calls:
            yield ChatGenerationChunk(message=AIMessageChunk(content="", tool_call_chunks=[
                {"name": c["name"], "args": json.dumps(c["args"]), "id": c["id"], "index": i}
                for i, c in enumerate(message.tool_calls)]))
            return
        for word in re.findall(r"\S+\s*", str(message.content)):
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=word))
            if run_manager is not None:
                run_manager.on_llm_new_token(word, chunk=chunk)
            yield chunk

    def bind_tools(self, tools: Sequence[dict[str, Any] | type | Callable | BaseTool], **kwargs: Any) -> Runnable:
        """This model with ``tools`` (LangChain tools, functions or OpenAI tool dicts) bound; ``tool_choice``
        and other ``kwargs`` are ignored (the rules decide)."""
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools])

    def with_structured_output(self, schema: Any, *, include_raw: bool = False, **kwargs: Any) -> Runnable:
        """A runnable that proposes facts by rule (:func:`propose_facts`).

        Args:
            schema: ``ProposedFacts`` or a subclass; ``kwargs`` (``method``, ``strict``) are ignored.
            include_raw: return ``{"raw": AIMessage, "parsed": ProposedFacts, "parsing_error": None}``.

        Raises:
            NotImplementedError: any other schema (the offline model can only propose facts).
        """
        if not (isinstance(schema, type) and issubclass(schema, ProposedFacts)):
            raise NotImplementedError(
                "OfflineChatModel (rule-based, not a language model) supports structured output only "
                f"with ProposedFacts, not {schema!r}; configure a real chat model for other schemas."
            )

        def run(value: Any) -> Any:
            parsed = schema.model_validate(propose_facts(value).model_dump())
            if not include_raw:
                return parsed
            raw = AIMessage(content=parsed.model_dump_json())
            return {"raw": raw, "parsed": parsed, "parsing_error": None}

        return RunnableLambda(run, name="OfflineChatModel.propose_facts")

