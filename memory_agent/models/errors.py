"""The error raised when a configured chat model cannot be built."""

from __future__ import annotations

__all__ = ["ModelError"]


class ModelError(ValueError):
    """The configured chat model cannot be built (unknown provider or model, missing package or key)."""
