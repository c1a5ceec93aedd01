"""The fact ledger on SQL: ``schema`` (tables and migrations), ``dialects`` (SQLite, PostgreSQL),
``migrations`` (the runner), ``erasure`` and ``ledger`` (``SQLFactLedger``)."""
