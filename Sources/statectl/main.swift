#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

Statectl.prepareProcess()
exit(Statectl.main(RawArgument.ofProcess()))
