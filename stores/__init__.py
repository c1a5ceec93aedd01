"""The stores behind long-term memory.

- ``base``: the interfaces (:class:`FactIndex`, the ledger's role protocols and :class:`FactLedger`).
- ``chroma_store``: the fact index on Chroma.
- ``sql_store``: the fact ledger in SQL; ``sql_erasure`` its erasure half; ``sql_dialects`` SQLite
  and PostgreSQL; ``sql_schema`` the tables and migrations; ``sql_migrations`` applies them.
- ``postgres``: the shared connection pool and LangGraph's Postgres checkpointer.
- ``data_dir``: the embedded data folder and its lock.
- ``long_term``: :class:`LongTermMemory`, the memory pipeline on an index and a ledger.
"""
