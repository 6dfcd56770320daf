// The stand-in `os` module: the unified-log API `Sources/StateStoreHost` uses (`Logger`), declared as
// the Xcode 16.0 SDK declares it, each declaration citing the page of Apple's documentation it
// copies. With it on the include path, StateStoreHost's `canImport(os)` branches are type-checked by
// Scripts/check-swiftui.sh. Bodies only satisfy the compiler.

/// https://developer.apple.com/documentation/os/ostype — the level of a log message.
public struct OSLogType: Equatable, Sendable {
    private let raw: UInt8
    private init(_ raw: UInt8) { self.raw = raw }
    /// https://developer.apple.com/documentation/os/oslogtype/default
    public static let `default` = OSLogType(0)
    /// https://developer.apple.com/documentation/os/oslogtype/info
    public static let info = OSLogType(1)
    /// https://developer.apple.com/documentation/os/oslogtype/debug
    public static let debug = OSLogType(2)
    /// https://developer.apple.com/documentation/os/oslogtype/error
    public static let error = OSLogType(16)
    /// https://developer.apple.com/documentation/os/oslogtype/fault
    public static let fault = OSLogType(17)
}

/// https://developer.apple.com/documentation/os/oslogprivacy
public struct OSLogPrivacy: Sendable {
    /// https://developer.apple.com/documentation/os/oslogprivacy/public
    public static let `public` = OSLogPrivacy()
    /// https://developer.apple.com/documentation/os/oslogprivacy/private
    public static let `private` = OSLogPrivacy()
}

/// https://developer.apple.com/documentation/os/osloginterpolation
public struct OSLogInterpolation: StringInterpolationProtocol {
    /// The interpolation's storage, as the compiler asks for it.
    public init(literalCapacity: Int, interpolationCount: Int) {}
    /// The literal parts of the message.
    public mutating func appendLiteral(_ literal: String) {}
    /// https://developer.apple.com/documentation/os/osloginterpolation/appendinterpolation(_:align:privacy:)-1z5cv
    public mutating func appendInterpolation(
        _ argumentString: @autoclosure @escaping () -> String, privacy: OSLogPrivacy = .private
    ) {}
}

/// https://developer.apple.com/documentation/os/oslogmessage
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    /// A message with interpolations.
    public init(stringInterpolation: OSLogInterpolation) {}
    /// A message that is a literal.
    public init(stringLiteral value: String) {}
}

/// https://developer.apple.com/documentation/os/logger (iOS 14.0, macOS 11.0, tvOS 14.0,
/// watchOS 7.0, visionOS 1.0.)
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, visionOS 1.0, *)
public struct Logger: @unchecked Sendable {
    /// https://developer.apple.com/documentation/os/logger/init(subsystem:category:)
    public init(subsystem: String, category: String) {}
    /// https://developer.apple.com/documentation/os/logger/log(level:_:)
    public func log(level: OSLogType, _ message: OSLogMessage) {}
}
