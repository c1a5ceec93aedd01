"""Which messages read as English: the embedder (all-MiniLM-L6-v2) and the English rules read no other."""

from __future__ import annotations

import pytest

from memory_agent.memory.text import reads_english, written_in_english


@pytest.mark.parametrize("text", [
    "I moved to Berlin last week.", "Any nice running routes near me?", "Plan my gym sessions for next week.",
    "Vegan now.", "Thanks!", "ok so basically my cat died lol", "Sorry, it is Jayden with a y",
])
def test_english_messages(text):
    assert written_in_english(text)


@pytest.mark.parametrize("text", [
    "最近はエニタイムフィットネスの中目黒店に通っています。", "Привет, я теперь живу в Казани",
    "Ich wohne in Hannover, in der List.", "Me mudé a Valencia el mes pasado.",
    "Wo kann ich am Samstag in meiner Nähe gut frühstücken gehen?", "انتقلت إلى دبي الشهر الماضي",
    "Egyébként csütörtökönként úszni járok reggel hatkor.",
])
def test_messages_in_other_languages(text):
    assert not written_in_english(text)


def test_function_words_tell_english_evidence_apart():
    assert reads_english(["we", "moved", "off", "mysql", "and", "everything", "is", "on", "postgres", "now"])
    assert not reads_english(["j'habite", "à", "lyon", "depuis", "deux", "ans"])
    assert not reads_english([])
