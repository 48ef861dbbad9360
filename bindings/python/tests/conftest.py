"""Shared fixtures. The tests never touch the network: resolution is turned off for the
module-level functions' default configuration, and every Cleaner the tests build says so."""

import os
from dataclasses import dataclass
from typing import Optional

# Before citeproof builds its default engine (on first use): no resolution, no network.
os.environ["CITEPROOF_NO_RESOLVE"] = "1"
os.environ["CITEPROOF_OFFLINE"] = "1"

import pytest  # noqa: E402

import citeproof  # noqa: E402

#: Deterministic settings: no network, the lexical scorer whatever model is around.
LEXICAL = {"resolve.enabled": False, "verify.scoring": "lexical"}

SLEEP = {
    "pmcid": "PMC3321",
    "doi": "10.1016/S1836-9553(12)70091-5",
    "title": "Exercise training improves sleep quality in middle-aged and older adults "
    "with sleep problems: a systematic review",
    "abstract": "Exercise training improved sleep quality in older adults with sleep "
    "problems, as measured by the Pittsburgh Sleep Quality Index, and reduced the time "
    "taken to fall asleep.",
    "journal": "Journal of Physiotherapy",
    "year": 2012,
    "citation_count": 250,
    "is_peer_reviewed": True,
    "is_retracted": False,
}

COFFEE = {
    "pmcid": "PMC7777",
    "title": "Coffee consumption and the risk of type 2 diabetes: a meta-analysis of "
    "prospective cohort studies",
    "abstract": "Habitual coffee consumption was associated with a lower risk of type 2 "
    "diabetes in a dose-response meta-analysis of prospective cohort studies.",
    "journal": "Diabetologia",
    "year": 2014,
    "citation_count": 900,
    "is_peer_reviewed": True,
    "is_retracted": False,
}

RETRACTED = {
    "doi": "10.5555/retracted.2020.1",
    "title": "Vitamin D supplementation prevents influenza in schoolchildren",
    "abstract": "Vitamin D supplementation during winter reduced the incidence of "
    "influenza A in schoolchildren in a randomised trial.",
    "journal": "American Journal of Clinical Nutrition",
    "year": 2010,
    "citation_count": 300,
    "is_peer_reviewed": True,
    "is_retracted": True,
}


@dataclass
class Article:
    """MicroTraitLLM's Article dataclass, as the pipeline defines it."""

    pmcid: Optional[str]
    doi: Optional[str]
    title: str
    abstract: str
    journal: str
    year: int
    citation_count: int
    is_peer_reviewed: bool
    is_retracted: bool
    validation_score: float = 0.0
    confidence_label: str = "unknown"


@pytest.fixture(scope="session")
def cleaner():
    return citeproof.Cleaner(settings=LEXICAL)


@pytest.fixture
def sources():
    return [dict(SLEEP), dict(COFFEE), dict(RETRACTED)]
