/*
 * Shadows glibc's <sys/inotify.h> in Scripts/check-apple.sh's stand-in Darwin module: Darwin
 * has no inotify, so a `canImport(Darwin)` branch that calls it must fail here as it would on
 * Apple platforms, instead of passing on glibc's declarations.
 */
