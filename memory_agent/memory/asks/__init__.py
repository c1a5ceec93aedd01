"""How a request refers to one side of the user's own life, per aspect
(:mod:`memory_agent.memory.aspects`): English first, then "my <noun>" in each language of
:data:`~memory_agent.memory.asks.grammar.LANGUAGES`, then the phrasings that are no possessive ("near
me", "the book I'm reading", "what can I do on Sunday"). Word lists only; the table that pairs each
with the facts it finds, and the matching, stay in ``aspects``.

- :mod:`.grammar`: how each language says "my <noun>", and the helpers that build a request pattern;
- :mod:`.places`: home, work, who the user is, their tech;
- :mod:`.daily`: food and drink, leisure, fitness, their week;
- :mod:`.life`: studies, reading, travel, money;
- :mod:`.people`: pets, family, vehicles, how to reach them.
"""
