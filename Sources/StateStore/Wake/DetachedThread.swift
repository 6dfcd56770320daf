#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `body` on a new detached thread, in a module that has no Foundation (a change feed's
/// blocking wait, statectl's signal watcher); `pthread_create`'s error code, 0 when it started.
///
/// Package surface: statectl watches for SIGINT on one.
package func startDetachedThread(_ body: @escaping @Sendable () -> Void) -> Int32 {
    final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    #if canImport(Darwin)
        var thread: pthread_t?
        let code = pthread_create(
            &thread, &attributes,
            { context in
                Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, context)
    #else
        var thread = pthread_t()
        let code = pthread_create(
            &thread, &attributes,
            { context in
                guard let context else { return nil }
                Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
                return nil
            }, context)
    #endif
    if code != 0 { Unmanaged<Body>.fromOpaque(context).release() }
    return code
}
