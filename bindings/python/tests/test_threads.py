"""One Cleaner shared by threads gives each the same answer (the GIL is released while
the library works, so the calls run side by side)."""

from concurrent.futures import ThreadPoolExecutor

from test_clean import ANSWER


def test_threads_share_a_cleaner(cleaner, sources):
    expected = cleaner.clean(ANSWER, sources=sources)
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: cleaner.clean(ANSWER, sources=sources), range(16)))
    assert all(r == expected for r in results)
    assert all(r.cleaned == expected.cleaned for r in results)
