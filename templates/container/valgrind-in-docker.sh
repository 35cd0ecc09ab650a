#!/usr/bin/env bash
# Starts Valgrind in a container, for benchgrind's --tool-runner:
#
#   cargo bench -- --tool-runner=templates/container/valgrind-in-docker.sh
#
# benchgrind appends `valgrind ARGS... PROGRAM ARGS...`. The container sees the host's files at
# the same paths (the directory cargo runs the bench in, the git worktree around it and the
# cargo target directory are mounted), gets the variables benchgrind sets for the measured
# process, and talks to benchgrind over stdin and stdout (-i), as the fork server needs. The
# bench binaries must run on the image's C library: build them on a system no newer than it, or
# in the image itself. Settings: BENCHGRIND_DOCKER (docker or podman), BENCHGRIND_DOCKER_IMAGE
# [default: benchgrind-valgrind, built from templates/container/Dockerfile].
set -euo pipefail

docker=${BENCHGRIND_DOCKER:-docker}
image=${BENCHGRIND_DOCKER_IMAGE:-benchgrind-valgrind}

mounts=()
add_mount() {
    local dir
    dir=$(realpath -m "$1")
    for m in "${mounts[@]}"; do
        [[ $m == "-v" || $dir != "${m%%:*}" ]] || return 0
    done
    mounts+=(-v "$dir:$dir")
}
add_mount "$PWD"
if top=$(git rev-parse --show-toplevel 2>/dev/null); then add_mount "$top"; fi
if [[ -n ${CARGO_TARGET_DIR:-} ]]; then add_mount "$CARGO_TARGET_DIR"; fi
# Absolute paths among the arguments (the program, --home, output files) outside those.
for arg in "$@"; do
    path=${arg#*=}
    if [[ $path == /* && -e $(dirname "$path") && $path != /usr/* && $path != /proc/* ]]; then
        add_mount "$(dirname "$path")"
    fi
done

# Every variable but the host's own (PATH, HOME, ...), by name: valgrind's (VALGRIND_OPTS) and
# the measured process's (the benchmark's configuration, benchgrind's protocol).
envs=()
while IFS= read -r -d '' entry; do
    name=${entry%%=*}
    case $name in
    PATH | HOME | HOSTNAME | PWD | OLDPWD | SHLVL | TERM | USER | LOGNAME | SHELL | _ | TMPDIR) ;;
    *) envs+=(-e "$name") ;;
    esac
done < <(env -0)

exec "$docker" run --rm -i --init --network=none \
    --security-opt seccomp=unconfined \
    --user "$(id -u):$(id -g)" \
    -w "$PWD" "${mounts[@]}" "${envs[@]}" "$image" "$@"
