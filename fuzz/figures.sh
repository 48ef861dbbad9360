#!/usr/bin/env bash
# The fuzzing figures so far, as a Markdown table for docs/fuzzing.md: per target the
# runs in fuzz/runs.tsv, the executions and hours added up over them, the last run's
# coverage (cov: edges, ft: features), and the corpus kept in fuzz/corpus now. A run
# whose status does not start with `ok` (deep.sh's or helper.sh's) ended on a finding.
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=SCRIPTDIR/common.sh
source common.sh # corpus_bytes, as deep.sh measures a corpus
echo "| target | runs | executions | hours | cov | ft | corpus files | corpus KiB | runs ended by a finding |"
echo "|---|---|---|---|---|---|---|---|---|"
mapfile -t targets < <(awk -F'\t' 'NR > 1 && !seen[$2]++ { print $2 }' runs.tsv)
for target in "${targets[@]}"; do
    sums=$(awk -F'\t' -v t="$target" '
        $2 == t { runs++; execs += $3; secs += $4; cov = $5; ft = $6; if ($9 !~ /^ok/) found++ }
        END { printf "%d | %d | %.1f | %s | %s", runs, execs, secs / 3600, cov, ft; printf "\t%d", found }' runs.tsv)
    files=$(find "corpus/$target" -type f | wc -l)
    kib=$(($(corpus_bytes "corpus/$target") / 1024))
    echo "| $target | ${sums%%$'\t'*} | $files | $kib | ${sums##*$'\t'} |"
done
