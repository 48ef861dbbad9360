"""MicroTraitLLM's entry points: check_citations and validate_articles."""

import dataclasses
import os
import warnings

import pytest

import citeproof
from conftest import COFFEE, RETRACTED, SLEEP, Article
from test_clean import BODY, REFS


def test_check_citations_returns_the_cleaned_body_and_a_report_list(cleaner, sources):
    with pytest.warns(RuntimeWarning, match="no local sentence model"):
        cleaned, report = citeproof.check_citations(BODY, REFS, sources, cleaner=cleaner)
    assert cleaned == (
        "Regular aerobic exercise improves sleep quality in older adults with sleep problems [1]. "
        "Exercise also cures baldness in adults. "
        "Habitual coffee consumption lowers the risk of type 2 diabetes [2]."
    )
    assert [r["raw_citation"] for r in report] == ["[1]", "[2]", "[3]"]
    assert [r["status"] for r in report] == ["valid", "not_found", "valid"]
    assert [r["identifier"] for r in report] == ["PMC3321", "10.9999/invented.42", "PMC7777"]
    assert [r["identifier_scheme"] for r in report] == ["pmcid", "doi", "pmcid"]
    assert report[1]["similarity"] == 0.0  # not computed, as MicroTraitLLM reports it
    assert all(isinstance(r["similarity"], float) for r in report)
    # Every field of the CLI's report is there too.
    assert report[2]["new_number"] == 2 and report[1]["action"] == "removed"
    assert {"marker", "line", "column", "span", "reason", "record"} <= set(report[0])


def test_check_citations_with_no_retrieved_article_removes_every_citation(cleaner):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        cleaned, report = citeproof.check_citations(BODY, REFS, [], cleaner=cleaner)
    assert "[" not in cleaned
    assert {r["status"] for r in report} == {"not_found"}


def test_check_citations_rejects_bad_arguments(cleaner, sources):
    with pytest.raises(citeproof.InvalidInputError, match="similarity_threshold"):
        citeproof.check_citations(BODY, REFS, sources, "high", cleaner=cleaner)
    with pytest.raises(citeproof.InvalidInputError, match=r"^retrieved_articles\[1\]"):
        citeproof.check_citations(BODY, REFS, [SLEEP, {"title": "t", "year": [2020]}],
                                  cleaner=cleaner)
    with pytest.raises(citeproof.InvalidInputError, match="answer_body"):
        citeproof.check_citations(None, REFS, sources, cleaner=cleaner)


def test_the_default_cleaner_reads_the_environment(sources):
    # conftest turned resolution off for the default configuration.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        cleaned, report = citeproof.check_citations(BODY, REFS, sources)
    assert [r["status"] for r in report][1] == "not_found"
    assert "baldness in adults." in cleaned


def model_dir():
    path = os.environ.get("CITEPROOF_EMBEDDING_MODEL")
    if not path or not os.path.isdir(path):
        pytest.skip("CITEPROOF_EMBEDDING_MODEL (all-MiniLM-L6-v2) is not set: cosine tests skipped")
    return path


def test_with_a_sentence_model_the_threshold_is_microtraits_cosine(sources):
    cosine = citeproof.Cleaner(
        settings={"resolve.enabled": False, "verify.local-embedding-model": model_dir()}
    )
    assert cosine.has_sentence_model
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no fallback warning with a model
        _, lenient = citeproof.check_citations(BODY, REFS, sources, 0.0, cleaner=cosine)
        _, strict = citeproof.check_citations(BODY, REFS, sources, 0.99, cleaner=cosine)
    similarities = [r["similarity"] for r in lenient]
    assert 0.0 < similarities[0] < 0.99 and 0.0 < similarities[2] < 0.99
    assert [r["status"] for r in lenient] == ["valid", "not_found", "valid"]
    assert [r["status"] for r in strict] == ["mismatch", "not_found", "mismatch"]
    result = cosine.clean(BODY, references=REFS, sources=sources, options={"preset": "microtrait"})
    assert result.report.summary.alignment.startswith("cosine:")
    assert result.report.summary.threshold == 0.6


def articles():
    return [
        dict(SLEEP, year=2024, journal="Science", retrieval_rank=1),
        dict(COFFEE, year=2015, journal="Obscure Letters", citation_count=0, is_peer_reviewed=False),
        dict(RETRACTED, retrieval_rank=3),
    ]


def test_validate_articles_keeps_the_trusted_ones_with_their_keys():
    kept = citeproof.validate_articles(
        "Does exercise training improve sleep quality in older adults?", articles(),
        options={"current_year": 2025},
    )
    assert [a["pmcid"] for a in kept] == ["PMC3321"]
    (sleep,) = kept
    assert sleep["retrieval_rank"] == 1  # every key it was sent with
    assert sleep["confidence_label"] == "high" and 0.75 <= sleep["validation_score"] <= 1.0
    assert sleep["validation"]["kept"] is True
    assert sleep["validation"]["components"]["reputation"]["score"] == 1.0  # Science's tier


def test_validate_articles_sets_the_attributes_of_objects():
    objects = [
        Article(**{"pmcid": None, "doi": None, **{k: v for k, v in a.items() if k != "retrieval_rank"}})
        for a in articles()
    ]
    kept = citeproof.validate_articles(
        "Does exercise training improve sleep quality in older adults?", objects,
        options={"current_year": 2025},
    )
    assert kept == [objects[0]] and kept[0] is objects[0]
    assert objects[0].confidence_label == "high" and objects[0].validation_score >= 0.75
    assert objects[2].confidence_label == "invalid_id" and objects[2].validation_score == 0.0
    assert objects[1].confidence_label in {"low", "medium"}


def test_validate_articles_replaces_frozen_dataclasses():
    Frozen = dataclasses.make_dataclass(
        "Frozen", [(f.name, f.type, f) for f in dataclasses.fields(Article)], frozen=True
    )
    item = Frozen(**{f.name: getattr(Article(**SLEEP), f.name) for f in dataclasses.fields(Article)})
    (kept,) = citeproof.validate_articles(
        "exercise and sleep quality in older adults", [item], options={"keep_all": True}
    )
    assert kept is not item and kept.confidence_label != "unknown" and kept.pmcid == "PMC3321"
