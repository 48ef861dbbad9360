"""Typed results: frozen dataclasses with exactly the fields of the CLI's JSON report
(``citeproof clean --format json``, ``citeproof validate-sources --format json``).
``to_dict()`` gives that JSON back, as the library wrote it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Literal, Optional, Tuple

Status = Literal[
    "valid", "mismatch", "doubtful", "not_found", "retracted", "unverified", "not_indexed"
]
Action = Literal["kept", "removed", "marked"]
Label = Literal["high", "medium", "low", "invalid_id", "unknown"]
Access = Literal[
    "resolved", "not_found", "other_work", "retracted", "unverified", "not_checked", "no_identifier"
]


@dataclass(frozen=True)
class Identifier:
    """A persistent identifier: ``scheme`` is ``doi``, ``pmcid``, ``pmid``, ``arxiv``, ..."""

    scheme: str
    value: str

    @classmethod
    def from_dict(cls, d: Optional[Dict[str, Any]]) -> Optional["Identifier"]:
        return None if d is None else cls(scheme=d["scheme"], value=d["value"])


@dataclass(frozen=True)
class Record:
    """The record a citation matched: a retrieved article (``source == "sources"``, with
    its 0-based ``index``) or what resolution found (``crossref``, ``corpus``, ...)."""

    source: str
    index: Optional[int]
    title: str
    doi: Optional[str]
    pmcid: Optional[str]
    pmid: Optional[str]
    arxiv: Optional[str]
    url: Optional[str]
    venue: Optional[str]
    year: Optional[int]
    is_retracted: bool

    @classmethod
    def from_dict(cls, d: Optional[Dict[str, Any]]) -> Optional["Record"]:
        return None if d is None else cls(**{k: d[k] for k in cls.__dataclass_fields__})


@dataclass(frozen=True)
class RivalEvidence:
    """Another article that holds the citing sentence better than the cited one."""

    name: str
    title: str
    score: float
    passage: Optional[str] = None
    found: Tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "RivalEvidence":
        return cls(
            name=d["name"],
            title=d["title"],
            score=d["score"],
            passage=d.get("passage"),
            found=tuple(d.get("found", ())),
        )


@dataclass(frozen=True)
class Evidence:
    """What the judge's verdict on one occurrence rests on."""

    score: float
    """The scorer's calibrated score of the sentence against the cited work."""
    passage: Optional[str] = None
    """The cited work's passage (title or abstract sentence) closest to the sentence."""
    found: Tuple[str, ...] = ()
    """Specific terms of the sentence (numbers, entities, rare terms) the work holds."""
    missing: Tuple[str, ...] = ()
    """Specific terms of the sentence the work lacks."""
    rival: Optional[RivalEvidence] = None

    @classmethod
    def from_dict(cls, d: Optional[Dict[str, Any]]) -> Optional["Evidence"]:
        if d is None:
            return None
        return cls(
            score=d["score"],
            passage=d.get("passage"),
            found=tuple(d.get("found", ())),
            missing=tuple(d.get("missing", ())),
            rival=RivalEvidence.from_dict(d["rival"]) if d.get("rival") else None,
        )


@dataclass(frozen=True)
class Citation:
    """One citation number at one place of the answer, in body order."""

    marker: str
    """The marker as written (``[1, 3]``, ``[^2]``, ``(Smith et al., 2020)``)."""
    number: Optional[int]
    line: int
    column: int
    span: Tuple[int, int]
    """``[start, end)`` byte offsets of the marker in the UTF-8 answer."""
    identifier: Optional[Identifier]
    status: Status
    similarity: Optional[float]
    action: Action
    new_number: Optional[int]
    reason: str
    record: Optional[Record]
    evidence: Optional[Evidence] = None
    """What the judge's verdict rests on (the ``score`` metric only)."""

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "Citation":
        return cls(
            marker=d["marker"],
            number=d["number"],
            line=d["line"],
            column=d["column"],
            span=(d["span"][0], d["span"][1]),
            identifier=Identifier.from_dict(d["identifier"]),
            status=d["status"],
            similarity=d["similarity"],
            action=d["action"],
            new_number=d["new_number"],
            reason=d["reason"],
            record=Record.from_dict(d["record"]),
            evidence=Evidence.from_dict(d.get("evidence")),
        )


@dataclass(frozen=True)
class CleanSummary:
    citations: int
    valid: int
    mismatch: int
    doubtful: int
    not_found: int
    retracted: int
    unverified: int
    not_indexed: int
    kept: int
    removed: int
    marked: int
    references_kept: int
    references_removed: int
    world: Literal["closed", "open"]
    alignment: str
    threshold: float
    doubt_threshold: Optional[float] = None
    """The support below which a found article is doubtful (``score`` metric only)."""

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "CleanSummary":
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


@dataclass(frozen=True)
class CleanReport:
    citations: Tuple[Citation, ...]
    summary: CleanSummary
    _json: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "CleanReport":
        return cls(
            citations=tuple(Citation.from_dict(c) for c in d["citations"]),
            summary=CleanSummary.from_dict(d["summary"]),
            _json=d,
        )

    def to_dict(self) -> Dict[str, Any]:
        """``{"citations": [...], "summary": {...}}``, as ``citeproof clean --report`` writes."""
        return self._json


@dataclass(frozen=True)
class CleanResult:
    cleaned: str
    """The answer with its bad markers removed or marked and the rest renumbered."""
    references: Optional[str]
    """The rewritten reference list, when it was given separately."""
    report: CleanReport
    _json: Dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "CleanResult":
        return cls(
            cleaned=d["cleaned"],
            references=d.get("references"),
            report=CleanReport.from_dict(d["report"]),
            _json=d,
        )

    def to_dict(self) -> Dict[str, Any]:
        """``{"cleaned", "report"}`` (and ``references``), as ``citeproof clean --format json``."""
        return self._json


@dataclass(frozen=True)
class Component:
    """One scored component: its score (``None`` when it could not be scored), its
    normalised weight, what it adds to the validation score, and why."""

    score: Optional[float]
    weight: float
    contribution: float
    explanation: str

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "Component":
        return cls(**{k: d[k] for k in cls.__dataclass_fields__})


@dataclass(frozen=True)
class Components:
    recency: Component
    reputation: Component
    citations: Component
    relevance: Component

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "Components":
        return cls(**{k: Component.from_dict(d[k]) for k in cls.__dataclass_fields__})


@dataclass(frozen=True)
class IdentifierCheck:
    """Whether the article's identifiers resolve to it."""

    status: Access
    identifier: Optional[Identifier]
    record: Optional[Record]
    sources: Tuple[str, ...]
    explanation: str

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "IdentifierCheck":
        return cls(
            status=d["status"],
            identifier=Identifier.from_dict(d["identifier"]),
            record=Record.from_dict(d["record"]),
            sources=tuple(d["sources"]),
            explanation=d["explanation"],
        )


@dataclass(frozen=True)
class ArticleValidation:
    """The validation of one article; ``article`` is the object that was passed in."""

    index: int
    validation_score: float
    confidence_label: Label
    kept: bool
    components: Components
    identifier: IdentifierCheck
    reason: str
    article: Any = field(repr=False, compare=False)

    @classmethod
    def from_dict(cls, d: Dict[str, Any], article: Any) -> "ArticleValidation":
        return cls(
            index=d["index"],
            validation_score=d["validation_score"],
            confidence_label=d["confidence_label"],
            kept=d["kept"],
            components=Components.from_dict(d["components"]),
            identifier=IdentifierCheck.from_dict(d["identifier"]),
            reason=d["reason"],
            article=article,
        )


@dataclass(frozen=True)
class ValidationSummary:
    articles: int
    kept: int
    filtered: int
    high: int
    medium: int
    low: int
    invalid_id: int
    unknown: int
    relevance: str
    min_score: float
    current_year: int

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "ValidationSummary":
        return cls(**{k: d[k] for k in cls.__dataclass_fields__})


@dataclass(frozen=True)
class ValidationResult:
    """Every article's validation in the order they were passed (filtered ones too)."""

    articles: Tuple[ArticleValidation, ...]
    summary: ValidationSummary
    _json: Dict[str, Any] = field(repr=False, compare=False)

    @property
    def kept(self) -> Tuple[ArticleValidation, ...]:
        """The validations of the articles that pass the filter."""
        return tuple(v for v in self.articles if v.kept)

    def to_dict(self) -> Dict[str, Any]:
        """``{"articles": [...], "summary": {...}}``, every validation as the library wrote it."""
        return self._json
