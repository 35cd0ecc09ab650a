#!/usr/bin/env bash
# The steps of benchgrind's CI workflow (ci/github/benchmarks.yml), as one script that runs the
# same anywhere: on a CI machine, or here in the tests (crates/benchgrind-e2e/tests/ci_script.rs).
#
#   benchgrind-ci.sh share K N     run share K of N (--partition=K/N): summaries into
#                                  $BENCHGRIND_CI_DIR/share-K.json, compared with the saved
#                                  baseline $BENCHGRIND_CI_BASELINE (or, with
#                                  BENCHGRIND_CI_SAVE=yes, saved as it)
#   benchgrind-ci.sh merge         merge every share: report.md (the pull-request comment),
#                                  bencher.json (Bencher Metric Format) and the exit status of
#                                  one whole run (0 ok, 1 a benchmark failed, 3 a limit passed)
#   benchgrind-ci.sh ab REV        benchgrind ab against the merge base of REV and HEAD (not
#                                  REV's tip): ab.md, and ab's exit status
#
# Settings (environment):
#   BENCHGRIND_CI_DIR       where the shares and reports go           [default: benchgrind-ci]
#   BENCHGRIND_CI_HOME      the benchgrind home, kept between runs    [default: target/benchgrind]
#   BENCHGRIND_CI_BASELINE  the baseline to compare with and, with
#                           BENCHGRIND_CI_SAVE=yes, to save           [default: main]
#   BENCHGRIND_CI_BENCH     the command that runs the benchmarks, its
#                           arguments following                       [default: cargo bench --]
#   BENCHGRIND              the benchgrind command-line tool          [default: benchgrind]
set -euo pipefail

dir=${BENCHGRIND_CI_DIR:-benchgrind-ci}
home=${BENCHGRIND_CI_HOME:-target/benchgrind}
baseline=${BENCHGRIND_CI_BASELINE:-main}
read -r -a bench <<<"${BENCHGRIND_CI_BENCH:-cargo bench --}"
benchgrind=${BENCHGRIND:-benchgrind}

usage() {
    sed -n '4,15p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

case "${1:-}" in
share)
    [[ $# -eq 3 && $2 =~ ^[0-9]+$ && $3 =~ ^[0-9]+$ && $2 -ge 1 && $2 -le $3 ]] || usage
    mkdir -p "$dir"
    # One summary per line on stdout, from every bench binary cargo runs.
    args=(--partition="$2/$3" --home="$home" --output-format=json)
    if [[ ${BENCHGRIND_CI_SAVE:-no} == yes ]]; then
        args+=(--save-baseline="$baseline")
    else
        # Without a saved baseline of that name (the first run), nothing is compared.
        args+=(--baseline="$baseline")
    fi
    status=0
    "${bench[@]}" "${args[@]}" >"$dir/share-$2.json" || status=$?
    # A regression (3) or a failed benchmark (1) is decided once, by the merge of all shares.
    [[ $status -eq 0 || $status -eq 1 || $status -eq 3 ]] || exit "$status"
    ;;
merge)
    [[ $# -eq 1 ]] || usage
    shares=("$dir"/share-*.json)
    [[ -e ${shares[0]} ]] || { echo "benchgrind-ci: no share-*.json in $dir" >&2; exit 1; }
    "$benchgrind" merge --output-format=bmf --output-file="$dir/bencher.json" "${shares[@]}" || true
    status=0
    "$benchgrind" merge --output-format=markdown --output-file="$dir/report.md" "${shares[@]}" \
        || status=$?
    exit "$status"
    ;;
ab)
    [[ $# -eq 2 ]] || usage
    mkdir -p "$dir"
    # The merge base of REV and HEAD, not REV's tip: what landed on REV after this branch left
    # it is not this branch's change.
    base=$(git merge-base "$2" HEAD) || {
        echo "benchgrind-ci: no merge base of $2 and HEAD; fetch the whole history" \
            "(actions/checkout with fetch-depth: 0) and the base branch" >&2
        exit 2
    }
    echo "benchgrind-ci: comparing with $base, the merge base of $2 and HEAD" >&2
    status=0
    "$benchgrind" ab --base="$base" -- --output-format=markdown >"$dir/ab.md" || status=$?
    exit "$status"
    ;;
*)
    usage
    ;;
esac
