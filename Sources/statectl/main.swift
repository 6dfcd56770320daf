#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

exit(Statectl.main(RawArgument.ofProcess()))
