#!/usr/bin/env bash
# Run a command and report its peak memory, sampled every 0.1 s from /proc:
# resident (VmRSS, which counts the pages of memory-mapped index files the kernel
# may drop at any time) and anonymous (RssAnon: the heap and stacks the process
# itself holds). `/usr/bin/time -v` reports only the first.
#   scripts/peak-memory.sh target/release/citeproof index build DIR --openalex ...
set -u
"$@" &
pid=$!
peak_rss=0
peak_anon=0
while kill -0 "$pid" 2>/dev/null; do
  if read -r rss anon < <(awk '/^VmRSS:/{r=$2} /^RssAnon:/{a=$2} END{print r+0, a+0}' "/proc/$pid/status" 2>/dev/null); then
    ((rss > peak_rss)) && peak_rss=$rss
    ((anon > peak_anon)) && peak_anon=$anon
  fi
  sleep 0.1
done
wait "$pid"
status=$?
echo "peak resident $((peak_rss / 1024)) MiB, peak anonymous $((peak_anon / 1024)) MiB" >&2
exit "$status"
