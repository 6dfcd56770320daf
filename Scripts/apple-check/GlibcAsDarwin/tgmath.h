/*
 * Shadows glibc's <tgmath.h> in Scripts/check-apple.sh's stand-in Darwin module.
 *
 * Clang's own <tgmath.h> includes the system's when it targets Apple platforms, and glibc's
 * refuses clang's Darwin targets ("Unsupported combination of types"): glibc sees a _Float64x
 * but no _Float128 there. Its type-generic macros cannot be imported into Swift anyway, so
 * nothing is lost: clang's header still supplies them.
 */
