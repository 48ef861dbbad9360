"""Cleaning at scale on an existing distributed engine (Dask, Ray, Spark, a process
pool): :func:`clean_partition` cleans one partition of answers with one
:class:`~citeproof.Cleaner` per worker process — built on first use with the given
configuration and reused for every later partition, so its resolver, cache (point it at
PostgreSQL to share it between machines) and sentence model are loaded once — and
returns plain dictionaries, which every engine can move between processes.

With Dask (docs/distributed.md)::

    import dask.bag as db
    from citeproof.distributed import clean_partition

    bag = db.from_sequence(answers, npartitions=64)
    results = bag.map_partitions(clean_partition, settings={"clean.mismatch": "mark"}).compute()

Each answer is a string or a mapping with ``answer`` and optionally ``references``,
``sources`` and ``options``, as :meth:`Cleaner.clean_many` takes them; each result is
``{"ok": <CleanResult.to_dict()>}`` or ``{"error": {"kind", "message"}}``.
"""

from __future__ import annotations

import json
import threading
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple

from ._api import Cleaner
from .errors import CiteproofError

__all__ = ["clean_partition", "worker_cleaner"]

_lock = threading.Lock()
_cleaners: Dict[Tuple[Optional[str], str], Cleaner] = {}


def worker_cleaner(config: Optional[str] = None, settings: Optional[Mapping[str, Any]] = None) -> Cleaner:
    """This process's cleaner for a configuration, built once."""
    key = (config, json.dumps(dict(settings or {}), sort_keys=True))
    with _lock:
        cleaner = _cleaners.get(key)
        if cleaner is None:
            cleaner = Cleaner(config=config, settings=settings)
            _cleaners[key] = cleaner
        return cleaner


def clean_partition(
    answers: Iterable[Any],
    config: Optional[str] = None,
    settings: Optional[Mapping[str, Any]] = None,
    workers: Optional[int] = None,
) -> List[Dict[str, Any]]:
    """Clean one partition; one result per answer, in order. A failed answer gets an
    ``error`` entry and the rest of the partition is still cleaned."""
    cleaner = worker_cleaner(config, settings)
    results = cleaner.clean_many(list(answers), workers=workers, errors="return")
    out: List[Dict[str, Any]] = []
    for result in results:
        if isinstance(result, CiteproofError):
            out.append({"error": {"kind": type(result).__name__, "message": str(result)}})
        else:
            out.append({"ok": result.to_dict()})
    return out
