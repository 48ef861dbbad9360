"""citeproof: clean hallucinated citations out of LLM answers and validate the articles a
RAG pipeline retrieved — the citeproof Rust library, through PyO3.

>>> import citeproof
>>> cleaned, report = citeproof.check_citations(answer_body, ref_text, retrieved_articles)
>>> result = citeproof.Cleaner().clean(answer, sources=articles)
>>> kept = citeproof.validate_articles(query, articles)
"""

from ._api import Cleaner, Validator, check_citations, clean, validate, validate_articles
from ._articles import ARTICLE_FIELDS
from ._native import __version__
from ._types import (
    ArticleValidation,
    Citation,
    CleanReport,
    CleanResult,
    CleanSummary,
    Component,
    Components,
    Evidence,
    Identifier,
    IdentifierCheck,
    Record,
    RivalEvidence,
    ValidationResult,
    ValidationSummary,
)
from .errors import CiteproofError, ConfigError, InvalidInputError

__all__ = [
    "ARTICLE_FIELDS",
    "ArticleValidation",
    "Citation",
    "CiteproofError",
    "CleanReport",
    "CleanResult",
    "CleanSummary",
    "Cleaner",
    "Component",
    "Components",
    "ConfigError",
    "Evidence",
    "Identifier",
    "IdentifierCheck",
    "InvalidInputError",
    "Record",
    "RivalEvidence",
    "ValidationResult",
    "ValidationSummary",
    "Validator",
    "__version__",
    "check_citations",
    "clean",
    "validate",
    "validate_articles",
]
