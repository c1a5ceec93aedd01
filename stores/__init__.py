"""The stores behind long-term memory.

- ``base``: the interfaces (:class:`FactIndex`, the ledger's role protocols and :class:`FactLedger`).
- ``chroma_store``: the fact index on Chroma.
- ``sql``: the fact ledger in SQL: ``ledger`` (``SQLFactLedger``), ``erasure`` its erasure half,
  ``dialects`` SQLite and PostgreSQL, ``schema`` the tables and migrations, ``migrations`` applies them.
- ``postgres``: the shared connection pool and LangGraph's Postgres checkpointer.
- ``data_dir``: the embedded data folder and its lock.
- ``long_term``: :class:`LongTermMemory`, the memory pipeline on an index and a ledger, with its
  parts ``fact_reads``, ``proposal_planning``, ``fact_writes``, ``session_memory`` and ``maintenance``.
"""
