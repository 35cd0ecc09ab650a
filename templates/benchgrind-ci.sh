#!/usr/bin/env bash
# The steps of benchgrind's CI workflow (templates/github/benchmarks.yml), as one script that runs
# the same anywhere: on a CI machine, or here in the tests (crates/benchgrind-e2e/tests/ci_script.rs).
#
#   benchgrind-ci.sh merge-base REV  print the merge base of REV and HEAD: the revision a pull
#                                  request is compared with (not REV's tip)
#   benchgrind-ci.sh share K N     run share K of N (--partition=K/N): summaries into
#                                  $BENCHGRIND_CI_DIR/share-K.json, compared with the saved
#                                  baseline $BENCHGRIND_CI_BASELINE, which must have measured
#                                  $BENCHGRIND_CI_BASE_REVISION when set (or, with
#                                  BENCHGRIND_CI_SAVE=yes, saved as it)
#   benchgrind-ci.sh merge         merge every share: report.md (the pull-request comment),
#                                  bencher.json (Bencher Metric Format) and the exit status of
#                                  one whole run (0 ok, 1 a benchmark failed, 3 a limit passed,
#                                  4 a benchmark without a baseline of its machine and revision)
#   benchgrind-ci.sh ab REV        benchgrind ab against the merge base of REV and HEAD (not
#                                  REV's tip): ab.md, and ab's exit status, as merge's
#   benchgrind-ci.sh comment PR FILE  FILE as the comment of pull request PR, replacing the
#                                  last one benchgrind made (gh, with GH_TOKEN)
#
# Settings (environment):
#   BENCHGRIND_CI_DIR       where the shares and reports go           [default: benchgrind-ci]
#   BENCHGRIND_CI_HOME      the benchgrind home, kept between runs    [default: target/benchgrind]
#   BENCHGRIND_CI_BASELINE  the baseline to compare with and, with
#                           BENCHGRIND_CI_SAVE=yes, to save           [default: main]
#   BENCHGRIND_CI_BASE_REVISION  the commit the baseline must have
#                           measured (the merge base)                 [default: any]
#   BENCHGRIND_CI_UNCOMPARED  fail (exit 4) or notice: a benchmark with
#                           no baseline of its machine and revision   [default: fail]
#   BENCHGRIND_CI_BENCH     the command that runs the benchmarks, its
#                           arguments following                       [default: cargo bench --]
#   BENCHGRIND_CI_TARGET    the target the benchmarks are built for; x86_64-unknown-linux-musl
#                           is the portable way: counts that a runner image's new glibc or
#                           Valgrind do not move, so main's baselines stay comparable
#                                                                     [default: the host's]
#   BENCHGRIND              the benchgrind command-line tool          [default: benchgrind]
set -euo pipefail

dir=${BENCHGRIND_CI_DIR:-benchgrind-ci}
home=${BENCHGRIND_CI_HOME:-target/benchgrind}
baseline=${BENCHGRIND_CI_BASELINE:-main}
read -r -a bench <<<"${BENCHGRIND_CI_BENCH:-cargo bench --}"
benchgrind=${BENCHGRIND:-benchgrind}
uncompared=${BENCHGRIND_CI_UNCOMPARED:-fail}

# The steps that build: cargo builds for $BENCHGRIND_CI_TARGET when set (ab's builds too), and
# rustup adds its standard library where it can.
build_target() {
    if [[ -n ${BENCHGRIND_CI_TARGET:-} ]]; then
        export CARGO_BUILD_TARGET=$BENCHGRIND_CI_TARGET
        if command -v rustup >/dev/null 2>&1; then
            rustup target add "$BENCHGRIND_CI_TARGET" >/dev/null
        fi
    fi
}

usage() {
    sed -n '4,36p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

# The merge base of $1 and HEAD, or a message that says what to fetch.
merge_base() {
    git merge-base "$1" HEAD || {
        echo "benchgrind-ci: no merge base of $1 and HEAD; fetch the whole history" \
            "(actions/checkout with fetch-depth: 0) and the base branch" >&2
        exit 2
    }
}

case "${1:-}" in
merge-base)
    [[ $# -eq 2 ]] || usage
    merge_base "$2"
    ;;
share)
    [[ $# -eq 3 && $2 =~ ^[0-9]+$ && $3 =~ ^[0-9]+$ && $2 -ge 1 && $2 -le $3 ]] || usage
    build_target
    mkdir -p "$dir"
    # One summary per line on stdout, from every bench binary cargo runs.
    args=(--partition="$2/$3" --home="$home" --output-format=json)
    if [[ ${BENCHGRIND_CI_SAVE:-no} == yes ]]; then
        args+=(--save-baseline="$baseline")
    else
        # A benchmark without a saved baseline of that name, or with one of another machine or
        # revision, is reported as uncompared; the merge decides what that means.
        args+=(--baseline="$baseline")
        if [[ -n ${BENCHGRIND_CI_BASE_REVISION:-} ]]; then
            args+=(--baseline-revision="$BENCHGRIND_CI_BASE_REVISION")
        fi
    fi
    status=0
    "${bench[@]}" "${args[@]}" >"$dir/share-$2.json" || status=$?
    # A regression (3), a failed benchmark (1) or an uncompared one (4) is decided once, by the
    # merge of all shares.
    [[ $status -eq 0 || $status -eq 1 || $status -eq 3 || $status -eq 4 ]] || exit "$status"
    ;;
merge)
    [[ $# -eq 1 ]] || usage
    shares=("$dir"/share-*.json)
    [[ -e ${shares[0]} ]] || { echo "benchgrind-ci: no share-*.json in $dir" >&2; exit 1; }
    "$benchgrind" merge --output-format=bmf --output-file="$dir/bencher.json" "${shares[@]}" || true
    status=0
    "$benchgrind" merge --output-format=markdown --output-file="$dir/report.md" \
        --uncompared="$uncompared" "${shares[@]}" || status=$?
    exit "$status"
    ;;
ab)
    [[ $# -eq 2 ]] || usage
    build_target
    mkdir -p "$dir"
    # The merge base of REV and HEAD, not REV's tip: what landed on REV after this branch left
    # it is not this branch's change.
    base=$(merge_base "$2")
    echo "benchgrind-ci: comparing with $base, the merge base of $2 and HEAD" >&2
    status=0
    "$benchgrind" ab --base="$base" -- --output-format=markdown --uncompared="$uncompared" \
        >"$dir/ab.md" || status=$?
    exit "$status"
    ;;
comment)
    [[ $# -eq 3 && -n $2 ]] || usage
    gh pr comment "$2" --edit-last --body-file "$3" 2>/dev/null \
        || gh pr comment "$2" --body-file "$3"
    ;;
*)
    usage
    ;;
esac
