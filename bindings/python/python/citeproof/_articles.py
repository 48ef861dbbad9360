"""Retrieved articles from Python — mappings or objects with MicroTraitLLM's ``Article``
attributes — as the JSON objects the library reads. Only the fields the library knows are
sent; everything else is ignored, as the CLI ignores unknown fields."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Iterable, List

from . import _native
from .errors import InvalidInputError

#: The fields read from each article (``pmcid``, ``doi``, ``title``, ``abstract``,
#: ``journal``, ``year``, ``citation_count``, ``is_peer_reviewed``, ``is_retracted``,
#: and ``pmid``, ``arxiv``, ``url``, ``authors``).
ARTICLE_FIELDS = tuple(_native.article_fields())


def article_dicts(items: Iterable[Any], name: str) -> List[dict]:
    """Each item as a JSON-ready dict of its Article fields; ``name`` names the argument
    in error messages (``retrieved_articles[2].year: ...``)."""
    if isinstance(items, (str, bytes, Mapping)):
        raise InvalidInputError(f"{name}: expected a list of articles, found {type(items).__name__}")
    try:
        items = list(items)
    except TypeError:
        raise InvalidInputError(
            f"{name}: expected a list of articles, found {type(items).__name__}"
        ) from None
    return [_article_dict(item, f"{name}[{i}]") for i, item in enumerate(items)]


def _article_dict(item: Any, where: str) -> dict:
    if isinstance(item, Mapping):
        fields = {key: item[key] for key in ARTICLE_FIELDS if key in item}
    else:
        fields = {}
        if not isinstance(item, (str, bytes, int, float)) and item is not None:
            for key in ARTICLE_FIELDS:
                value = getattr(item, key, None)
                # A method is not a field (`str.title`).
                if value is not None and not callable(value):
                    fields[key] = value
        if not fields:
            raise InvalidInputError(
                f"{where}: expected a mapping or an object with Article attributes "
                f"({', '.join(ARTICLE_FIELDS[:6])}, ...), found {type(item).__name__}"
            )
    return {key: _plain(value, f"{where}.{key}") for key, value in fields.items()}


def _plain(value: Any, where: str) -> Any:
    """A value as JSON can carry it: numbers of any numeric type (NumPy's included),
    dates as ISO text, sequences as lists."""
    if value is None or isinstance(value, (bool, str, int, float)):
        return value
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    if hasattr(value, "__index__"):
        return value.__index__()
    if hasattr(value, "__float__") and not isinstance(value, (list, tuple)):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v, f"{where}[{i}]") for i, v in enumerate(value)]
    raise InvalidInputError(f"{where}: cannot read a {type(value).__name__}")
