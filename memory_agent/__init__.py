"""memory-agent: a LangGraph agent template with long-term memory.

One import root. Layers, lowest first (a module imports only from layers below its own; the
contract is in pyproject.toml and ``lint-imports`` checks it):

- ``core``, ``prompts``: the fact record, the table of fact kinds, prompt texts.
- ``memory``: memory rules as pure functions (retrieval, reconcile, validation, screen, lifecycle, sessions).
- ``stores``, ``models``: the ledger and fact index behind small protocols, ``LongTermMemory``; chat
  models and the embedder.
- ``graph``, ``nodes``: the LangGraph state machine, one node per file.
- ``app``: the ``MemoryAgent`` facade, settings, the user's data.
- ``evals``: the eval harness (extra ``evals``).
- ``cli``, ``server``: the command line and the LangGraph server entry.

``graph``, ``nodes``, ``stores``, ``prompts`` and ``evals`` live at the repository's top level and are
linked into this package.
"""
