"""The typed results are checked against what the Rust library writes: every object of
a real report has exactly the fields of its dataclass, recursively. A field added to (or
renamed in) a Rust report type fails here until the Python type follows it."""

import dataclasses
import typing

import pytest

import citeproof
from citeproof import _types
from conftest import COFFEE, LEXICAL, RETRACTED, SLEEP
from test_clean import ANSWER

#: Fields a dataclass carries beside the JSON (the caller's own object, the raw JSON).
NOT_IN_JSON = {"_json", "article"}
#: Keys the library leaves out when they have no value.
MAY_BE_ABSENT = {
    (_types.CleanResult, "references"),
    (_types.Citation, "evidence"),
    (_types.CleanSummary, "doubt_threshold"),
    (_types.Evidence, "passage"),
    (_types.Evidence, "rival"),
    (_types.RivalEvidence, "passage"),
}


def mismatches(cls, value, path):
    """Every difference between `cls`'s fields and the JSON object `value`."""
    names = {f.name for f in dataclasses.fields(cls)} - NOT_IN_JSON
    keys = set(value)
    found = [f"{path}: the library writes `{k}`, which {cls.__name__} lacks" for k in sorted(keys - names)]
    found += [
        f"{path}: {cls.__name__}.{n} is not in the library's JSON"
        for n in sorted(names - keys)
        if (cls, n) not in MAY_BE_ABSENT
    ]
    hints = typing.get_type_hints(cls, vars(_types))
    for name in sorted(names & keys):
        found += mismatches_in(hints[name], value[name], f"{path}.{name}")
    return found


def mismatches_in(hint, value, path):
    if value is None:
        return []
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    origin = typing.get_origin(hint)
    if origin is typing.Union and len(args) == 1:
        return mismatches_in(args[0], value, path)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return [m for i, item in enumerate(value) for m in mismatches_in(args[0], item, f"{path}[{i}]")]
    if dataclasses.is_dataclass(hint):
        return mismatches(hint, value, path)
    return []


@pytest.fixture(scope="module")
def validator():
    return citeproof.Validator(settings=LEXICAL)


def test_the_clean_result_types_match_the_library_json(cleaner, sources):
    result = cleaner.clean(ANSWER, sources=sources)
    assert len(result.report.citations) == 3
    assert mismatches(citeproof.CleanResult, result.to_dict(), "clean") == []
    judged = [c for c in result.report.citations if c.evidence is not None]
    assert judged, "the judge gives its evidence for a found article"
    assert all(isinstance(c.evidence, citeproof.Evidence) for c in judged)
    assert all(isinstance(c.evidence.found, tuple) for c in judged)


def test_the_validation_types_match_the_library_json(validator):
    result = validator.validate(
        "sleep and exercise", [SLEEP, COFFEE, RETRACTED], options={"current_year": 2025}
    )
    json = result.to_dict()
    assert len(json["articles"]) == 3
    found = mismatches(_types.ValidationSummary, json["summary"], "validate.summary")
    for i, article in enumerate(json["articles"]):
        found += mismatches(_types.ArticleValidation, article, f"validate.articles[{i}]")
    assert found == []


def test_a_missing_field_is_reported():
    # The check itself can fail: a JSON object with a field the type lacks.
    record = {f.name: None for f in dataclasses.fields(_types.Record)} | {"invented": 1}
    assert mismatches(_types.Record, record, "r") == [
        "r: the library writes `invented`, which Record lacks"
    ]
