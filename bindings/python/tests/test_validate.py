"""Article validation through the typed API."""

import pytest

import citeproof
from conftest import COFFEE, LEXICAL, RETRACTED, SLEEP

QUERY = "Does exercise training improve sleep quality in older adults?"


@pytest.fixture(scope="module")
def validator():
    return citeproof.Validator(settings=LEXICAL)


def test_scores_labels_and_components(validator):
    result = validator.validate(QUERY, [SLEEP, COFFEE, RETRACTED], options={"current_year": 2025})
    sleep, coffee, retracted = result.articles
    assert [v.index for v in result.articles] == [0, 1, 2]
    assert sleep.article is SLEEP
    # The article about the query is more relevant than the one that is not.
    assert sleep.components.relevance.score > coffee.components.relevance.score + 0.2
    total = sum(
        c.contribution
        for c in (sleep.components.recency, sleep.components.reputation,
                  sleep.components.citations, sleep.components.relevance)
    )
    assert abs(total - sleep.validation_score) < 1e-3
    assert sleep.components.recency.explanation and sleep.reason
    assert retracted.confidence_label == "invalid_id" and retracted.validation_score == 0.0
    assert not retracted.kept and "retracted" in retracted.reason
    assert sleep.identifier.status == "not_checked"  # resolution is off
    s = result.summary
    assert (s.articles, s.invalid_id, s.current_year) == (3, 1, 2025)
    assert s.kept + s.filtered == 3 and result.kept == tuple(v for v in result.articles if v.kept)
    assert result.to_dict()["summary"]["articles"] == 3


def test_options_weights_and_keep_all(validator):
    relevance_only = validator.validate(
        QUERY, [SLEEP, COFFEE],
        options={"weights": {"recency": 0, "reputation": 0, "citations": 0, "relevance": 1},
                 "current_year": 2025},
    )
    sleep, coffee = relevance_only.articles
    assert sleep.validation_score == pytest.approx(sleep.components.relevance.score, abs=1e-3)
    assert coffee.components.recency.weight == 0.0
    everything = validator.validate(QUERY, [SLEEP, COFFEE, RETRACTED], options={"keep_all": True})
    assert all(v.kept for v in everything.articles)


def test_a_cleaner_shares_its_validator(cleaner):
    result = cleaner.validator().validate(QUERY, [SLEEP], options={"current_year": 2025})
    assert result.articles[0].confidence_label in {"high", "medium"}


def test_bad_requests_raise(validator):
    with pytest.raises(citeproof.InvalidInputError, match="query is empty"):
        validator.validate("   ", [SLEEP])
    with pytest.raises(citeproof.InvalidInputError, match="articles: source 1 has neither a title"):
        validator.validate(QUERY, [{"journal": "Cell"}])
    with pytest.raises(citeproof.InvalidInputError, match=r"articles\[1\]"):
        validator.validate(QUERY, [SLEEP, {"title": "t", "year": [2020]}])
    with pytest.raises(citeproof.InvalidInputError, match="expected a list"):
        validator.validate(QUERY, SLEEP)
    with pytest.raises(citeproof.InvalidInputError, match="weights|recency_weight|unknown"):
        validator.validate(QUERY, [SLEEP], options={"recency_weight": 2})
