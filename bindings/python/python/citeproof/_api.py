"""The Python API: :class:`Cleaner` and :class:`Validator` over one configured engine,
module-level :func:`clean` and :func:`validate`, and MicroTraitLLM's
:func:`check_citations` and :func:`validate_articles`."""

from __future__ import annotations

import dataclasses
import json
import os
import threading
import warnings
from collections.abc import Mapping
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from . import _native
from ._articles import article_dicts
from ._types import ArticleValidation, CleanResult, ValidationResult, ValidationSummary
from . import errors as errors_module
from .errors import InvalidInputError

PathLike = Union[str, "os.PathLike[str]"]

__all__ = [
    "Cleaner",
    "Validator",
    "clean",
    "validate",
    "check_citations",
    "validate_articles",
]


def _engine(config: Optional[PathLike], settings: Optional[Mapping[str, Any]]) -> Any:
    if settings is not None and not isinstance(settings, Mapping):
        raise InvalidInputError("settings: expected a mapping of dotted configuration keys")
    engine = _native.Engine(
        os.fspath(config) if config is not None else None,
        json.dumps(dict(settings)) if settings is not None else None,
    )
    for warning in engine.warnings:
        warnings.warn(warning, RuntimeWarning, stacklevel=3)
    return engine


def _options(options: Optional[Mapping[str, Any]]) -> Optional[Dict[str, Any]]:
    if options is None:
        return None
    if not isinstance(options, Mapping):
        raise InvalidInputError(f"options: expected a mapping, found {type(options).__name__}")
    return dict(options)


def _text(value: Any, name: str, optional: bool = False) -> Optional[str]:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise InvalidInputError(f"{name}: expected a string, found {type(value).__name__}")
    return value


class _Configured:
    """Built from a configuration: ``config`` (a ``citeproof.toml``) or the nearest one
    from the current folder, the ``CITEPROOF_*`` environment, then ``settings``."""

    def __init__(
        self,
        config: Optional[PathLike] = None,
        *,
        settings: Optional[Mapping[str, Any]] = None,
    ) -> None:
        self._engine = _engine(config, settings)

    @classmethod
    def _of(cls, engine: Any) -> Any:
        configured = cls.__new__(cls)
        configured._engine = engine
        return configured


class Cleaner(_Configured):
    """Cleans LLM answers: checks every citation marker against the retrieved articles
    (``sources``: the closed world, no network) or the scholarly record (open world),
    removes hallucinated and mismatched ones, marks retracted ones, renumbers the rest and
    rewrites the reference list — as ``citeproof clean`` does.

    The configuration is read as the CLI reads it: ``config`` (a ``citeproof.toml``) or
    the nearest one from the current folder, the ``CITEPROOF_*`` environment, then
    ``settings``, dotted keys in the place of command-line flags
    (``{"resolve.enabled": False, "verify.local-embedding-model": "/models/minilm",
    "clean.mismatch": "mark"}``). Build one and reuse it: it holds the sentence model, the
    HTTP clients and the cache. It is safe to share between threads, and releases the GIL
    while it works.
    """


    @property
    def has_sentence_model(self) -> bool:
        """Whether a local sentence model is loaded (needed for cosine similarity)."""
        return bool(self._engine.has_sentence_model)

    @property
    def resolves(self) -> bool:
        """Whether references without ``sources`` are resolved (else they are ``unverified``)."""
        return bool(self._engine.resolves)

    @property
    def alignment(self) -> str:
        """How citing text is compared with articles (``embedded-lexical``, ...)."""
        return str(self._engine.alignment)

    def clean(
        self,
        answer: str,
        *,
        references: Optional[str] = None,
        sources: Optional[Iterable[Any]] = None,
        options: Optional[Mapping[str, Any]] = None,
    ) -> CleanResult:
        """Clean one answer.

        ``references``: the reference list when it is not the answer's trailing section.
        ``sources``: the retrieved articles (mappings or objects with MicroTraitLLM's
        Article fields); given, a citation of anything else is ``not_found``.
        ``options``: the ``[clean]`` options for this call (``threshold``, ``mismatch``,
        ``preset``, ...), as in ``POST /v1/clean``.
        """
        request: Dict[str, Any] = {"answer": _text(answer, "answer")}
        if references is not None:
            request["references"] = _text(references, "references")
        if sources is not None:
            request["sources"] = article_dicts(sources, "sources")
        if options is not None:
            request["options"] = _options(options)
        return CleanResult.from_dict(json.loads(self._engine.clean(json.dumps(request))))

    def clean_many(
        self,
        answers: Iterable[Union[str, Mapping[str, Any]]],
        *,
        references: Optional[str] = None,
        sources: Optional[Iterable[Any]] = None,
        options: Optional[Mapping[str, Any]] = None,
        workers: Optional[int] = None,
        errors: str = "raise",
    ) -> List[Union[CleanResult, errors_module.CiteproofError]]:
        """Clean many answers at once, in parallel, sharing this cleaner's resolver,
        cache and model; the results come back in the order given.

        Each answer is a string or a mapping with ``answer`` and, optionally, its own
        ``references``, ``sources`` and ``options``; the keyword arguments apply to the
        answers that do not give their own. ``workers``: threads (default: one per CPU);
        the GIL is released for the whole batch. ``errors="raise"`` raises the first
        failure (by position) once every answer is done; ``errors="return"`` puts the
        exception in that answer's place instead, so one bad answer loses nothing else.
        """
        if errors not in ("raise", "return"):
            raise InvalidInputError('errors: expected "raise" or "return"')
        if workers is not None and (not isinstance(workers, int) or workers < 1):
            raise InvalidInputError("workers: expected a positive integer")
        shared_sources = None if sources is None else article_dicts(sources, "sources")
        requests = []
        for i, item in enumerate(answers):
            given = {"answer": item} if isinstance(item, str) else dict(item) if isinstance(item, Mapping) else None
            if given is None or not isinstance(given.get("answer"), str):
                raise InvalidInputError(f"answers[{i}]: expected a string or a mapping with an `answer` string")
            request: Dict[str, Any] = {"answer": given["answer"]}
            own_references = given.get("references", references)
            if own_references is not None:
                request["references"] = _text(own_references, f"answers[{i}].references")
            if "sources" in given:
                request["sources"] = article_dicts(given["sources"], f"answers[{i}].sources")
            elif shared_sources is not None:
                request["sources"] = shared_sources
            own_options = given.get("options", options)
            if own_options is not None:
                request["options"] = _options(own_options)
            requests.append(request)
        items = json.loads(self._engine.clean_many(json.dumps(requests), workers))
        results: List[Any] = []
        for item in items:
            if "ok" in item:
                results.append(CleanResult.from_dict(item["ok"]))
                continue
            failure = getattr(errors_module, item["error"]["kind"], errors_module.CiteproofError)
            results.append(failure(item["error"]["message"]))
        if errors == "raise":
            for result in results:
                if isinstance(result, Exception):
                    raise result
        return results

    def validator(self) -> "Validator":
        """A :class:`Validator` sharing this cleaner's configuration, model and clients."""
        return Validator._of(self._engine)

    def __repr__(self) -> str:
        return f"citeproof.Cleaner({self._engine!r})"


class Validator(_Configured):
    """Scores retrieved articles for RAG pre-filtering — recency, journal reputation,
    citation count, relevance to the query, identifier accessibility — as
    ``citeproof validate-sources`` does, configured the same way as :class:`Cleaner`.
    Identifiers are resolved unless resolution is off (``settings={"resolve.enabled":
    False}``, ``CITEPROOF_NO_RESOLVE=1``) or ``options={"check_identifiers": False}``.
    """


    def validate(
        self,
        query: str,
        articles: Iterable[Any],
        *,
        options: Optional[Mapping[str, Any]] = None,
    ) -> ValidationResult:
        """Validate ``articles`` (mappings or objects with Article fields) for ``query``;
        ``options`` are the ``[validate]`` options for this call (``keep_all``,
        ``weights``, ``current_year``, ...)."""
        result, _ = self._run(query, articles, options)
        return result

    def _run(
        self, query: str, articles: Iterable[Any], options: Optional[Mapping[str, Any]]
    ) -> Tuple[ValidationResult, List[Dict[str, Any]]]:
        items = list(articles) if not isinstance(articles, (str, bytes, Mapping)) else articles
        request: Dict[str, Any] = {
            "query": _text(query, "query"),
            "articles": article_dicts(items, "articles"),
        }
        if options is not None:
            request["options"] = _options(options)
        out = json.loads(self._engine.validate(json.dumps(request)))
        validated = out["validated"]
        result = ValidationResult(
            articles=tuple(
                ArticleValidation.from_dict(v, items[v["index"]]) for v in validated["articles"]
            ),
            summary=ValidationSummary.from_dict(validated["summary"]),
            _json=validated,
        )
        return result, out["annotations"]

    def __repr__(self) -> str:
        return f"citeproof.Validator({self._engine!r})"


_default_lock = threading.Lock()
_default_engine: Optional[Any] = None


def _default() -> Any:
    """The engine of the current folder's configuration, built on first use."""
    global _default_engine
    with _default_lock:
        if _default_engine is None:
            _default_engine = _engine(None, None)
        return _default_engine


def _cleaner(cleaner: Optional[Cleaner]) -> Cleaner:
    return cleaner if cleaner is not None else Cleaner._of(_default())


def clean(
    answer: str,
    *,
    references: Optional[str] = None,
    sources: Optional[Iterable[Any]] = None,
    options: Optional[Mapping[str, Any]] = None,
    cleaner: Optional[Cleaner] = None,
) -> CleanResult:
    """:meth:`Cleaner.clean` with ``cleaner``, or with one built from the current folder's
    configuration on first use."""
    return _cleaner(cleaner).clean(answer, references=references, sources=sources, options=options)


def validate(
    query: str,
    articles: Iterable[Any],
    *,
    options: Optional[Mapping[str, Any]] = None,
    validator: Optional[Validator] = None,
) -> ValidationResult:
    """:meth:`Validator.validate` with ``validator``, or with the default configuration."""
    validator = validator if validator is not None else Validator._of(_default())
    return validator.validate(query, articles, options=options)


def check_citations(
    answer_body: str,
    ref_text: Optional[str],
    retrieved_articles: Optional[Iterable[Any]],
    similarity_threshold: float = 0.6,
    *,
    cleaner: Optional[Cleaner] = None,
    options: Optional[Mapping[str, Any]] = None,
) -> Tuple[str, List[Dict[str, Any]]]:
    """MicroTraitLLM's ``check_citations``: clean ``answer_body`` (the answer without its
    reference list) against ``ref_text`` (the list, ``[n] ...`` lines) and the
    ``retrieved_articles``; return ``(cleaned_answer, report_list)``.

    With a local sentence model configured (``CITEPROOF_EMBEDDING_MODEL``, or
    ``verify.local-embedding-model``), a citation is valid from a cosine similarity of
    ``similarity_threshold`` between the 200 characters around its marker and the
    article's title and abstract — MicroTraitLLM's measure (the ``microtrait`` preset).
    Without one, cosine cannot be computed: the embedded backend's calibrated score is used
    with its own fitted threshold, and a ``RuntimeWarning`` says so.

    Each report entry is a dict with every field of the CLI's JSON report (``marker``,
    ``number``, ``line``, ``column``, ``span``, ``status``, ``action``, ``new_number``,
    ``reason``, ``record``) plus MicroTraitLLM's keys: ``raw_citation`` (``"[n]"``),
    ``identifier`` as a string (the PMCID/DOI, or ``None``; its scheme in
    ``identifier_scheme``) and ``similarity`` as a float (0.0 when not computed). Statuses
    are ``valid``, ``mismatch``, ``not_found``, ``retracted``, ``unverified`` and
    ``not_indexed`` (a book, thesis or other work the indexes hold only partly).
    ``retrieved_articles=None`` checks the references in the scholarly record instead.
    """
    cleaner = _cleaner(cleaner)
    if isinstance(similarity_threshold, bool) or not isinstance(similarity_threshold, (int, float)):
        raise InvalidInputError(
            f"similarity_threshold: expected a number, found {type(similarity_threshold).__name__}"
        )
    settings: Dict[str, Any] = {}
    if cleaner.has_sentence_model:
        settings = {"preset": "microtrait", "threshold": float(similarity_threshold)}
    else:
        warnings.warn(
            "citeproof: no local sentence model is configured, so cosine similarity (and "
            "similarity_threshold) cannot be used; citations are aligned with the embedded "
            f"backend's calibrated score ({cleaner.alignment}) and its fitted threshold. Set "
            "CITEPROOF_EMBEDDING_MODEL to an all-MiniLM-L6-v2 folder for MicroTraitLLM's measure.",
            RuntimeWarning,
            stacklevel=2,
        )
    settings.update(_options(options) or {})
    answer = _text(answer_body, "answer_body")
    references = _text(ref_text, "ref_text", optional=True)
    sources = None
    if retrieved_articles is not None:
        sources = article_dicts(retrieved_articles, "retrieved_articles")
    try:
        result = cleaner.clean(answer, references=references, sources=sources, options=settings)
    except InvalidInputError as e:
        # The library names the request's field; name the argument instead.
        message = str(e)
        if message.startswith("sources"):
            raise InvalidInputError("retrieved_articles" + message[len("sources"):]) from None
        raise
    return result.cleaned, [_microtrait_entry(c) for c in result.report.to_dict()["citations"]]


def _microtrait_entry(entry: Dict[str, Any]) -> Dict[str, Any]:
    out = dict(entry)
    number = entry["number"]
    out["raw_citation"] = f"[{number}]" if number is not None else entry["marker"]
    identifier = entry["identifier"]
    out["identifier"] = identifier["value"] if identifier else None
    out["identifier_scheme"] = identifier["scheme"] if identifier else None
    if out["similarity"] is None:
        out["similarity"] = 0.0
    return out


def validate_articles(
    query: str,
    articles: Sequence[Any],
    *,
    validator: Optional[Validator] = None,
    options: Optional[Mapping[str, Any]] = None,
) -> List[Any]:
    """MicroTraitLLM's ``validate_articles``: score ``articles`` for ``query`` and return
    the ones kept (``low`` and ``invalid_id`` ones are filtered), in order.

    Objects get their ``validation_score`` and ``confidence_label`` attributes set (all of
    them, filtered ones too, as MicroTraitLLM does; a frozen dataclass is replaced by a
    copy) and are returned themselves. Mappings come back as new dicts: every key they
    had, plus ``validation_score``, ``confidence_label`` and the ``validation`` object
    explaining them — what ``citeproof validate-sources`` prints.
    """
    validator = validator if validator is not None else Validator._of(_default())
    items = list(articles) if not isinstance(articles, (str, bytes, Mapping)) else articles
    result, annotations = validator._run(query, items, options)
    kept: List[Any] = []
    for validation, annotation in zip(result.articles, annotations):
        item = _annotated(validation, annotation)
        if validation.kept:
            kept.append(item)
    return kept


def _annotated(validation: ArticleValidation, annotation: Dict[str, Any]) -> Any:
    item = validation.article
    if isinstance(item, Mapping):
        return {**item, **annotation}
    values = {
        "validation_score": annotation["validation_score"],
        "confidence_label": annotation["confidence_label"],
    }
    try:
        for name, value in values.items():
            setattr(item, name, value)
        return item
    except (AttributeError, TypeError, dataclasses.FrozenInstanceError):
        if dataclasses.is_dataclass(item) and all(
            name in {f.name for f in dataclasses.fields(item)} for name in values
        ):
            return dataclasses.replace(item, **values)
        raise InvalidInputError(
            f"articles[{validation.index}]: cannot set validation_score on a "
            f"{type(item).__name__}; pass mappings, or use Validator.validate()"
        ) from None
