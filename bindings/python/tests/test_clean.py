"""Cleaning through the typed API: removal, renumbering, group edits, policies, worlds."""

import json
import os
import subprocess
import pytest

import citeproof
from conftest import COFFEE, LEXICAL, SLEEP, Article

BODY = (
    "Regular aerobic exercise improves sleep quality in older adults with sleep problems [1]. "
    "Exercise also cures baldness in adults [2]. "
    "Habitual coffee consumption lowers the risk of type 2 diabetes [3]."
)
REFS = (
    "[1] Yang PY et al. Exercise training improves sleep quality in middle-aged and older "
    "adults with sleep problems. J Physiother. 2012. PMCID: PMC3321\n"
    "[2] Doe J. A miracle cure for baldness. 2021. doi:10.9999/invented.42\n"
    "[3] Ding M et al. Coffee consumption and the risk of type 2 diabetes. Diabetologia. "
    "2014. PMCID: PMC7777\n"
)
ANSWER = BODY + "\n\nReferences:\n" + REFS


def test_a_hallucinated_citation_is_removed_and_the_rest_renumbered(cleaner, sources):
    result = cleaner.clean(ANSWER, sources=sources)
    assert isinstance(result, citeproof.CleanResult)
    assert result.cleaned == (
        "Regular aerobic exercise improves sleep quality in older adults with sleep problems [1]. "
        "Exercise also cures baldness in adults. "
        "Habitual coffee consumption lowers the risk of type 2 diabetes [2].\n\n"
        "References:\n"
        "[1] Yang PY et al. Exercise training improves sleep quality in middle-aged and older "
        "adults with sleep problems. J Physiother. 2012. PMCID: PMC3321\n"
        "[2] Ding M et al. Coffee consumption and the risk of type 2 diabetes. Diabetologia. "
        "2014. PMCID: PMC7777\n"
    )
    valid, fabricated, coffee = result.report.citations
    assert (valid.status, valid.action, valid.number, valid.new_number) == ("valid", "kept", 1, 1)
    assert valid.identifier == citeproof.Identifier(scheme="pmcid", value="PMC3321")
    assert valid.record is not None and valid.record.index == 0 and valid.record.source == "sources"
    assert valid.similarity is not None and valid.similarity > 0
    assert (fabricated.status, fabricated.action, fabricated.new_number) == ("not_found", "removed", None)
    assert fabricated.identifier.scheme == "doi" and fabricated.identifier.value == "10.9999/invented.42"
    assert fabricated.record is None and fabricated.reason
    assert (coffee.status, coffee.number, coffee.new_number) == ("valid", 3, 2)
    # Positions are those of the original answer.
    assert ANSWER[fabricated.span[0]:fabricated.span[1]] == "[2]"
    assert (fabricated.line, fabricated.column) == (1, ANSWER.index("[2]") + 1)
    s = result.report.summary
    assert (s.citations, s.valid, s.not_found, s.kept, s.removed) == (3, 2, 1, 2, 1)
    assert (s.references_kept, s.references_removed, s.world) == (2, 1, "closed")


def test_valid_citations_are_kept_byte_for_byte(cleaner, sources):
    answer = (
        "Exercise training improves sleep quality in older adults [1].\n\n"
        "References:\n" + REFS.splitlines()[0] + "\n"
    )
    result = cleaner.clean(answer, sources=sources)
    assert result.cleaned == answer
    assert [c.status for c in result.report.citations] == ["valid"]


def test_groups_lose_only_the_removed_number(cleaner, sources):
    answer = (
        "Exercise improves sleep quality in older adults with sleep problems [1, 2]. "
        "Coffee consumption lowers the risk of type 2 diabetes [2][3].\n\nReferences:\n" + REFS
    )
    result = cleaner.clean(answer, sources=sources)
    assert result.cleaned.startswith(
        "Exercise improves sleep quality in older adults with sleep problems [1]. "
        "Coffee consumption lowers the risk of type 2 diabetes [2].\n\nReferences:\n"
    )
    assert [(c.marker, c.number, c.status, c.action) for c in result.report.citations] == [
        ("[1, 2]", 1, "valid", "kept"),
        ("[1, 2]", 2, "not_found", "removed"),
        ("[2]", 2, "not_found", "removed"),
        ("[3]", 3, "valid", "kept"),
    ]


def test_a_separate_reference_list_is_rewritten_too(cleaner, sources):
    result = cleaner.clean(BODY, references=REFS, sources=sources)
    assert result.cleaned.endswith("type 2 diabetes [2].")
    assert result.references is not None
    assert "invented" not in result.references and result.references.startswith("[1] Yang PY")
    assert "[2] Ding M" in result.references


def test_retracted_articles_are_marked_and_policies_can_change(cleaner, sources):
    answer = (
        "Vitamin D supplementation prevents influenza A in schoolchildren [1].\n\n"
        "References:\n[1] Urashima M. Vitamin D supplementation prevents influenza in "
        "schoolchildren. 2010. doi:10.5555/retracted.2020.1\n"
    )
    marked = cleaner.clean(answer, sources=sources)
    (citation,) = marked.report.citations
    assert (citation.status, citation.action) == ("retracted", "marked")
    assert "[1†]" in marked.cleaned
    removed = cleaner.clean(answer, sources=sources, options={"retracted": "remove"})
    assert removed.report.citations[0].action == "removed"
    assert removed.cleaned.startswith("Vitamin D supplementation prevents influenza A in schoolchildren.")


def test_a_mismatched_citation_is_removed(cleaner, sources):
    answer = (
        "Coffee consumption lowers the risk of type 2 diabetes in prospective cohorts [1].\n\n"
        "References:\n" + REFS.splitlines()[0] + "\n"
    )
    result = cleaner.clean(answer, sources=sources)
    (citation,) = result.report.citations
    assert citation.status == "mismatch" and citation.action == "removed", citation
    assert citation.similarity < result.report.summary.threshold
    # The judge names the retrieved article the sentence came from, with its evidence.
    assert "the text is about source 2" in citation.reason, citation.reason
    assert citation.evidence.rival.name == "source 2"
    assert citation.evidence.rival.score > citation.evidence.score


def test_the_open_world_without_resolution_removes_nothing(cleaner):
    result = cleaner.clean(ANSWER)
    assert result.cleaned == ANSWER
    assert {c.status for c in result.report.citations} == {"unverified"}
    assert {c.action for c in result.report.citations} == {"kept"}
    assert result.report.summary.world == "open"


def test_sources_may_be_objects_and_unknown_keys_are_ignored(cleaner):
    objects = [Article(**SLEEP), Article(**dict(COFFEE, doi=None))]
    with_extras = [dict(SLEEP, embedding=object(), rank=1), dict(COFFEE, chunks=[object()])]
    by_objects = cleaner.clean(ANSWER, sources=objects)
    by_dicts = cleaner.clean(ANSWER, sources=with_extras)
    assert by_objects.cleaned == by_dicts.cleaned
    assert by_objects.report == by_dicts.report
    assert [c.status for c in by_objects.report.citations] == ["valid", "not_found", "valid"]


def test_the_report_is_the_clis_json(cleaner, sources):
    result = cleaner.clean(ANSWER, sources=sources)
    data = result.to_dict()
    assert set(data) == {"cleaned", "report"}
    assert set(data["report"]["citations"][0]) == {
        "marker", "number", "line", "column", "span", "identifier", "status",
        "similarity", "action", "new_number", "reason", "record", "evidence",
    }
    assert result.report.to_dict() is data["report"]


def test_the_cli_prints_the_same_json(tmp_path, sources):
    binary = os.environ.get("CITEPROOF_BIN")
    if not binary:
        pytest.skip("CITEPROOF_BIN (the citeproof binary) is not set: the CLI comparison is skipped")
    answer_file = tmp_path / "answer.md"
    answer_file.write_text(ANSWER, encoding="utf-8")
    sources_file = tmp_path / "sources.json"
    sources_file.write_text(json.dumps(sources), encoding="utf-8")
    config = tmp_path / "citeproof.toml"
    config.write_text('[verify]\nscoring = "lexical"\n', encoding="utf-8")
    cli = subprocess.run(
        [binary, "clean", "--format", "json", "--no-resolve", "--config", str(config),
         "--sources", str(sources_file), str(answer_file)],
        capture_output=True, text=True, check=True,
    )
    ours = citeproof.Cleaner(config, settings={"resolve.enabled": False}).clean(ANSWER, sources=sources)
    assert json.loads(cli.stdout) == ours.to_dict()


def test_bad_input_raises_clear_errors(cleaner, sources):
    with pytest.raises(citeproof.InvalidInputError, match=r"sources\[1\]"):
        cleaner.clean(ANSWER, sources=[SLEEP, {"title": "x", "year": [2020]}])
    with pytest.raises(citeproof.InvalidInputError, match="sources: source 1 has neither a title"):
        cleaner.clean(ANSWER, sources=[{"journal": "Nature"}])
    with pytest.raises(citeproof.InvalidInputError, match="sources\\[0\\]: expected a mapping"):
        cleaner.clean(ANSWER, sources=["PMC3321"])
    with pytest.raises(citeproof.InvalidInputError, match="treshold"):
        cleaner.clean(ANSWER, sources=sources, options={"treshold": 0.5})
    with pytest.raises(citeproof.InvalidInputError, match="answer: expected a string"):
        cleaner.clean(b"bytes")
    with pytest.raises(ValueError):  # InvalidInputError is a ValueError too
        cleaner.clean(ANSWER, sources=sources, options={"mismatch": "delete"})


def test_bad_configuration_raises_config_errors(tmp_path):
    with pytest.raises(citeproof.ConfigError, match="no such file"):
        citeproof.Cleaner(tmp_path / "missing.toml")
    with pytest.raises(citeproof.ConfigError, match="resolve.enabeld|enabeld"):
        citeproof.Cleaner(settings={"resolve.enabeld": False})
    bad = tmp_path / "citeproof.toml"
    bad.write_text("[clean]\nthreshold = 2.0\n", encoding="utf-8")
    with pytest.raises(citeproof.ConfigError, match="between 0 and 1"):
        citeproof.Cleaner(bad)
    assert issubclass(citeproof.ConfigError, citeproof.CiteproofError)


def test_a_config_file_sets_the_defaults(tmp_path, sources):
    config = tmp_path / "citeproof.toml"
    config.write_text('[clean]\nnot-found = "mark"\n', encoding="utf-8")
    marking = citeproof.Cleaner(config, settings=LEXICAL)
    result = marking.clean(ANSWER, sources=sources)
    assert [c.action for c in result.report.citations] == ["kept", "marked", "kept"]
    assert "[2†]" in result.cleaned
