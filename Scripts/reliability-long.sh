#!/usr/bin/env bash
# The long reliability run: the crash, multi-process, busy, shared-file, replaced-file, backup,
# power-cut and file-size tests of ReliabilityTests with far more rounds than CI gives them (a
# backup of a 512 MiB store signalled midway, a 1 MiB window written 1,000 times), and the
# multi-process tests of the host, statectl and bash completion, repeated with fresh random seeds,
# then the fuzzers.
#
#   Scripts/reliability-long.sh
#
# Settings (environment; CI's defaults in brackets):
#   RELIABILITY_CRASH_ROUNDS   SIGKILLs of a writer per crash test          300  [20]
#   RELIABILITY_PROCESSES      processes incrementing one window             8  [4]
#   RELIABILITY_INCREMENTS     increments per process                      500  [100]
#   RELIABILITY_CLI_WRITES     `statectl set` runs per process               50  [10]
#   RELIABILITY_SHARED_ROUNDS  stores opened beside a live one, another
#                              process coming and going, then a write      200  [5]
#   RELIABILITY_BACKUPS        backups taken while another process writes   40  [4]
#   RELIABILITY_FEED_ROUNDS    imports and deletions of 1,500 windows per
#                              writer while a feed polls                     20  [3]
#   RELIABILITY_BACKUP_MEGABYTES  size of the store whose backup is signalled
#                              or killed midway (MiB)                       512  [64]
#   RELIABILITY_LARGE_WRITES   writes of a 1 MiB window before it is deleted
#                              (the file's size at each step)             1000  [30]
#   RELIABILITY_OPEN_SWAPS     opens while a copy is renamed over the file,
#                              then a save                               20000  [2000]
#   RELIABILITY_REPEAT         times the tests run (a new seed each time)     3
#   RELIABILITY_SEED           fix the crash tests' seed (to replay a failure)
#   FUZZ_SECONDS               seconds per fuzz target, 0 to skip fuzzing   300
set -euo pipefail
cd "$(dirname "$0")/.."

export RELIABILITY_CRASH_ROUNDS=${RELIABILITY_CRASH_ROUNDS:-300}
export RELIABILITY_PROCESSES=${RELIABILITY_PROCESSES:-8}
export RELIABILITY_INCREMENTS=${RELIABILITY_INCREMENTS:-500}
export RELIABILITY_CLI_WRITES=${RELIABILITY_CLI_WRITES:-50}
export RELIABILITY_SHARED_ROUNDS=${RELIABILITY_SHARED_ROUNDS:-200}
export RELIABILITY_BACKUPS=${RELIABILITY_BACKUPS:-40}
export RELIABILITY_FEED_ROUNDS=${RELIABILITY_FEED_ROUNDS:-20}
export RELIABILITY_BACKUP_MEGABYTES=${RELIABILITY_BACKUP_MEGABYTES:-512}
export RELIABILITY_LARGE_WRITES=${RELIABILITY_LARGE_WRITES:-1000}
export RELIABILITY_OPEN_SWAPS=${RELIABILITY_OPEN_SWAPS:-20000}
repeat=${RELIABILITY_REPEAT:-3}
fuzz_seconds=${FUZZ_SECONDS:-300}

swift build --build-tests
for run in $(seq 1 "$repeat"); do
    echo "== reliability run $run of $repeat"
    swift test --skip-build --filter 'ReliabilityTests\.(CrashTests|ProcessTests|OpeningRaceTests|BinaryFaultTests|SharedFileTests|FileIdentityTests|OpeningSwapTests|BackupTests|ChangeLogProcessTests|PowerCutTests|FileSizeTests)'
    # Processes around one file: a host whose folder link is re-pointed, reading commands beside
    # the file, and an interactive bash running completed ids.
    swift test --skip-build --filter 'HostFaultTests|QuietCommandsTests|BashTerminalTests'
done
if [ "$fuzz_seconds" -gt 0 ]; then
    Scripts/fuzz.sh "$fuzz_seconds"
fi
