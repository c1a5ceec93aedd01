"""``OfflineChatModel``: the LangChain chat-model adapter over the offline rules and answer composer."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableLambda

from memory_agent.core.facts import ProposedFacts
from memory_agent.models.offline.answers import compose_answer
from memory_agent.models.offline.extraction import propose_facts

__all__ = ["OfflineChatModel"]


class OfflineChatModel(BaseChatModel):
    """A deterministic, rule-based stand-in for a chat model. It is NOT a language model.

    It finds first-person facts with regular-expression rules (:func:`extract_facts`) and composes
    answers only from the ``<memories>`` block it is given (:func:`compose_answer`). Use it to run
    the template, tests and demos without an API key; configure a real chat model for anything else.

    - ``invoke(messages) -> AIMessage``: the composed answer (streaming falls back to it).
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
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=compose_answer(messages)))])

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

