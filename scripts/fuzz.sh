#!/usr/bin/env bash
# Fuzzes benchgrind's parsers (issue 17) with cargo-fuzz and libFuzzer, one target at a time.
#
#   scripts/fuzz.sh                      every target, 600 s each
#   scripts/fuzz.sh TARGET [LIMIT]       one target; LIMIT is SECONDS or -runs=N (executions)
#   scripts/fuzz.sh all [LIMIT]          every target with that limit
#   scripts/fuzz.sh --smoke              every target for 20 s (the CI smoke run)
#   scripts/fuzz.sh --list               the targets
#
# Needs cargo-fuzz (installed from crates.io when missing: about 70 s) and the nightly toolchain
# if there is one; without it, the stable toolchain builds the targets with RUSTC_BOOTSTRAP=1
# (cargo-fuzz's flags are nightly-only; the machines of this project have stable only).
#
# Seeds come from the committed fixtures (real tool output: see the READMEs next to them) and
# are copied into fuzz/corpus/TARGET, which grows with what libFuzzer finds (not committed). A
# crash or a hang (-timeout=10 s per input) stops the run with libFuzzer's report and leaves the
# input in fuzz/artifacts/TARGET/; replay it in fuzz/ with
# `cargo +nightly fuzz run -O -a -s none TARGET artifacts/TARGET/<file>`. Each target's last
# lines (libFuzzer's final stats: executions, speed, slowest input, peak memory) go to
# fuzz/logs/TARGET.log. One fuzzer process at a time, in the foreground (no -jobs: any -jobs
# value runs the fuzzer in a child process whose output goes to fuzz-N.log instead).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# Optimized, with overflow checks (-a: an overflow on a damaged file is a bug to find) and no
# sanitizer: the parsers are safe Rust, and AddressSanitizer would only halve the executions.
BUILD_FLAGS="-O -a -s none"

if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    FUZZ=(cargo +nightly fuzz)
else
    FUZZ=(env RUSTC_BOOTSTRAP=1 cargo fuzz)
fi

TARGETS=(callgrind_profile klv engines_toml definitions_toml rebar_csv gbench_json dhat_json
    massif valgrind_log summary_json baseline explain_profile syscall_trace manifest)

# The committed files each target starts from.
seeds() {
    local runner=crates/benchgrind-runner/tests/fixtures
    local compare=crates/benchgrind-cli/tests/compare/fixtures
    local suite=crates/benchgrind-cli/tests/suite
    case "$1" in
    callgrind_profile | baseline | explain_profile)
        ls "$runner"/*.callgrind.out
        find "$compare/benchgrind/home" -name '*.callgrind.out' ;;
    dhat_json) ls "$runner"/*.dhat.out ;;
    massif) ls "$runner"/*.massif.out ;;
    valgrind_log) ls "$runner"/*.log ;;
    summary_json)
        ls "$compare"/benchgrind/*.json*
        find "$compare/benchgrind/home" -name summary.json ;;
    gbench_json) ls "$compare"/*.json ;;
    rebar_csv) ls "$suite"/rebar-results/*.csv ;;
    engines_toml) find examples/suite "$suite" -name engines.toml ;;
    definitions_toml) find examples/suite/benchmarks/definitions "$suite" -path '*definitions*' -name '*.toml' ;;
    klv) ls fuzz/seeds/klv/* 2>/dev/null || true ;;
    syscall_trace)
        ls fuzz/seeds/syscall_trace/*.log
        find "$runner" -name 'inputs' ;;
    manifest) git ls-files '*Cargo.toml' ;;
    *) echo "unknown target $1 (scripts/fuzz.sh --list)" >&2; exit 2 ;;
    esac
}

# The KLV that `benchgrind suite klv` prints for the example suite, made with the CLI itself,
# once (delete fuzz/seeds/klv to make them again).
klv_seeds() {
    mkdir -p fuzz/seeds/klv
    compgen -G 'fuzz/seeds/klv/*.klv' >/dev/null && return
    cargo build -q -p benchgrind-cli
    local name bin=${CARGO_TARGET_DIR:-target}/debug/benchgrind
    for name in $("$bin" suite list -d examples/suite/benchmarks 2>/dev/null | cut -d, -f1 | sort -u); do
        "$bin" suite klv -d examples/suite/benchmarks "$name" --max-iters 10 \
            --max-time 3s >"fuzz/seeds/klv/${name//\//_}.klv" || true
    done
}

run_one() {
    local target=$1 limit=$2
    local corpus=fuzz/corpus/$target
    mkdir -p "$corpus" fuzz/artifacts/"$target" fuzz/logs
    [ "$target" = klv ] && klv_seeds
    seeds "$target" | while read -r f; do cp "$f" "$corpus/seed-$(basename "$f")"; done
    local how
    case "$limit" in
    -runs=*) how=$limit ;;
    *) how=-max_total_time=$limit ;;
    esac
    echo "== $target ($how)"
    local started=$SECONDS
    # -max_len: the fixtures of Massif and DHAT are 165 and 44 KB; longer inputs only slow the
    # executions down (the slow-input search is `scripts/fuzz.sh TARGET LIMIT` with
    # FUZZ_MAX_LEN set higher).
    local status=0
    (cd fuzz && "${FUZZ[@]}" run $BUILD_FLAGS "$target" "corpus/$target" -- \
        -timeout=10 -print_final_stats=1 \
        -max_len="${FUZZ_MAX_LEN:-16384}" "$how" \
        -artifact_prefix="artifacts/$target/") >"fuzz/logs/$target.full.log" 2>&1 || status=$?
    {
        echo "target=$target limit=$how seconds=$((SECONDS - started)) exit=$status"
        grep -E '^(stat::|Done [0-9]+ runs)' "fuzz/logs/$target.full.log" || true
        grep -E -A12 'ERROR: libFuzzer|deadly signal|panicked at|Test unit written|Slow unit' \
            "fuzz/logs/$target.full.log" | head -40 || true
    } >"fuzz/logs/$target.log"
    cat "fuzz/logs/$target.log"
    return "$status"
}

main() {
    local first=${1:-all}
    case "$first" in
    --list) printf '%s\n' "${TARGETS[@]}"; return ;;
    --smoke) set -- all "${FUZZ_SMOKE_SECONDS:-20}" ;;
    esac
    local which=${1:-all} limit=${2:-600}
    if ! cargo fuzz --version >/dev/null 2>&1; then
        echo "fuzz: installing cargo-fuzz" >&2
        cargo install --locked cargo-fuzz
    fi
    (cd fuzz && "${FUZZ[@]}" build $BUILD_FLAGS) >/dev/null
    if [ "$which" = all ]; then
        local t failed=()
        for t in "${TARGETS[@]}"; do
            run_one "$t" "$limit" || failed+=("$t")
        done
        if [ ${#failed[@]} -gt 0 ]; then
            echo "fuzz: crashes or hangs in: ${failed[*]} (inputs in fuzz/artifacts/)" >&2
            return 1
        fi
        echo "fuzz: ${#TARGETS[@]} targets, no crash or hang"
    else
        run_one "$which" "$limit"
    fi
}

cd "$root"
main "$@"
