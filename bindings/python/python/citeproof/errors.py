"""The exceptions citeproof raises. Every one is a :class:`CiteproofError`."""

from __future__ import annotations

__all__ = ["CiteproofError", "ConfigError", "InvalidInputError"]


class CiteproofError(Exception):
    """Something could not be done (a model that cannot be loaded, an internal error)."""


class ConfigError(CiteproofError):
    """The configuration is wrong: a file, a key, a value, or a ``settings`` entry."""


class InvalidInputError(CiteproofError, ValueError):
    """A request is wrong: an option, an article, an empty query. The message names it."""
