"""Measure the engines the distributed recipe can run on, on this machine: one process
(`Cleaner.clean` in a loop, `Cleaner.clean_many`), and a local two-process cluster of
Dask and of Ray running `citeproof.distributed.clean_partition`. Prints start-up time and
answers per second for each (offline: sources given, resolution off).

    python bindings/python/bench/distributed_bench.py [ANSWERS]   # default 400

Needs the citeproof wheel and, for the cluster rows, `dask[distributed]` and `ray`."""

import json
import pathlib
import sys
import time

import citeproof
from citeproof.distributed import clean_partition

ROOT = pathlib.Path(__file__).resolve().parents[3]
SETTINGS = {"resolve.enabled": False, "verify.scoring": "lexical"}
WORKERS = 2


def answers(n):
    answer = (ROOT / "fixtures/clean/answer.md").read_text()
    sources = [json.loads(l) for l in (ROOT / "fixtures/clean/sources.jsonl").read_text().splitlines() if l.strip()]
    return [{"answer": answer + f"\n<!-- {i} -->\n", "sources": sources} for i in range(n)]


def timed(label, start, run, n):
    t0 = time.perf_counter()
    handle = start()
    t1 = time.perf_counter()
    results = run(handle)
    t2 = time.perf_counter()
    assert len(results) == n and all(hasattr(r, "report") or "ok" in r for r in results), label
    print(f"{label:<28} start {t1 - t0:6.2f} s   {n / (t2 - t1):8.1f} answers/s")
    return handle


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    items = answers(n)
    cleaner = citeproof.Cleaner(settings=SETTINGS)
    timed("one process, clean()", lambda: None,
          lambda _: [cleaner.clean(a["answer"], sources=a["sources"]) for a in items], n)
    timed(f"one process, clean_many({WORKERS})", lambda: None,
          lambda _: cleaner.clean_many(items, workers=WORKERS), n)
    partitions = [items[i::WORKERS * 4] for i in range(WORKERS * 4)]
    try:
        import dask.bag as db
        from distributed import Client, LocalCluster
    except ImportError:
        print("dask: not installed")
    else:
        def start_dask():
            cluster = LocalCluster(n_workers=WORKERS, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            return cluster, Client(cluster)

        def run_dask(handle):
            bag = db.from_sequence(items, npartitions=WORKERS * 4)
            return bag.map_partitions(clean_partition, settings=SETTINGS).compute()

        cluster, client = timed(f"dask LocalCluster({WORKERS} procs)", start_dask, run_dask, n)
        client.close()
        cluster.close()
    try:
        import ray
    except ImportError:
        print("ray: not installed")
    else:
        def start_ray():
            ray.init(num_cpus=WORKERS, include_dashboard=False, log_to_driver=False)
            return ray.remote(clean_partition)

        def run_ray(remote):
            parts = ray.get([remote.remote(p, settings=SETTINGS) for p in partitions])
            return [r for part in parts for r in part]

        timed(f"ray local ({WORKERS} cpus)", start_ray, run_ray, n)
        ray.shutdown()


if __name__ == "__main__":
    main()
