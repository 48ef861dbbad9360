"""Batches: Cleaner.clean_many (threads sharing one engine) and the
distributed recipe (citeproof.distributed) on a local multi-process Dask cluster."""

import os

import pytest

import citeproof
from citeproof.distributed import clean_partition
from conftest import COFFEE, LEXICAL, SLEEP
from test_clean import ANSWER

VARIANTS = [
    ANSWER,
    ANSWER.replace("[2]", "[3]", 1),
    "Regular aerobic exercise improves sleep quality in older adults [1].\n\nReferences:\n"
    "[1] Yang PY et al. Exercise training improves sleep quality. J Physiother. 2012. PMCID: PMC3321\n",
]


def test_clean_many_equals_cleaning_one_by_one_in_order(cleaner, sources):
    answers = VARIANTS * 4
    many = cleaner.clean_many(answers, sources=sources, workers=3)
    assert len(many) == len(answers)
    for answer, result in zip(answers, many):
        assert result.to_dict() == cleaner.clean(answer, sources=sources).to_dict()


def test_each_answer_may_bring_its_own_sources_and_options(cleaner, sources):
    own = {"answer": ANSWER, "sources": [SLEEP, COFFEE], "options": {"mismatch": "keep"}}
    shared, mine = cleaner.clean_many([ANSWER, own], sources=sources)
    assert shared.to_dict() == cleaner.clean(ANSWER, sources=sources).to_dict()
    alone = cleaner.clean(ANSWER, sources=[SLEEP, COFFEE], options={"mismatch": "keep"})
    assert mine.to_dict() == alone.to_dict()


def test_a_bad_answer_fails_alone_or_raises(cleaner, sources):
    bad = {"answer": ANSWER, "options": {"threshold": 7}}
    results = cleaner.clean_many([ANSWER, bad, ANSWER], sources=sources, errors="return")
    assert isinstance(results[1], citeproof.errors.InvalidInputError)
    assert "threshold" in str(results[1])
    assert results[0].to_dict() == results[2].to_dict()
    with pytest.raises(citeproof.errors.InvalidInputError):
        cleaner.clean_many([ANSWER, bad], sources=sources)
    with pytest.raises(citeproof.errors.InvalidInputError, match=r"answers\[0\]"):
        cleaner.clean_many([42])


def test_the_recipe_on_a_local_multi_process_dask_cluster(sources):
    dask_bag = pytest.importorskip("dask.bag", reason="dask is not installed (the CI installs it)")
    distributed = pytest.importorskip("distributed")
    answers = [{"answer": a, "sources": sources} for a in VARIANTS * 3]
    expected = [
        {"ok": citeproof.Cleaner(settings=LEXICAL).clean(a["answer"], sources=sources).to_dict()}
        for a in answers
    ]
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        bag = dask_bag.from_sequence(answers, npartitions=3)
        results = bag.map_partitions(clean_partition, settings=LEXICAL).compute()
        pids = client.run(os.getpid)
    assert results == expected
    assert len(set(pids.values())) == 2 and os.getpid() not in pids.values()
