#if os(Linux)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// This process's mount table, `/proc/self/mountinfo`: where a kernel before Linux 5.8 cannot
    /// say whether a file is a mount's root, the mounts of a file are found here.
    struct MountTable {
        /// Each mount's device (the file system it shows) and its mount point.
        let mounts: [(device: UInt64, mountPoint: [UInt8])]

        /// The table, or `nil` when it cannot be read (no `/proc`).
        static func current() -> MountTable? {
            let descriptor = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { return nil }
                if count == 0 { break }
                bytes += buffer[..<count]
            }
            return MountTable(parsing: bytes)
        }

        /// Parses mountinfo's lines: `ID PARENT MAJOR:MINOR ROOT MOUNT-POINT OPTIONS …`, the
        /// mount point with space, tab, newline and backslash written as `\ooo`.
        init(parsing bytes: [UInt8]) {
            var mounts: [(device: UInt64, mountPoint: [UInt8])] = []
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5)
                guard fields.count >= 5 else { continue }
                let numbers = fields[2].split(separator: UInt8(ascii: ":"))
                guard numbers.count == 2, let major = Self.number(numbers[0]), let minor = Self.number(numbers[1])
                else { continue }
                mounts.append((Self.device(major: major, minor: minor), Self.unescaped(fields[4])))
            }
            self.mounts = mounts
        }

        /// A mount point, other than a folder, that names the file of `device` and `inode`.
        func mountPoint(device: UInt64, inode: UInt64) -> String? {
            for mount in mounts where mount.device == device {
                var info = stat()
                let found = (mount.mountPoint + [0]).withUnsafeBufferPointer { name in
                    name.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &info) == 0 }
                }
                guard found, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                if UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode {
                    return String(decoding: mount.mountPoint, as: UTF8.self)
                }
            }
            return nil
        }

        /// glibc's `makedev`: the device number `stat` gives for a major and minor number.
        static func device(major: UInt64, minor: UInt64) -> UInt64 {
            (major & 0xffff_f000) << 32 | (major & 0xfff) << 8 | (minor & 0xffff_ff00) << 12 | (minor & 0xff)
        }

        private static func number(_ digits: ArraySlice<UInt8>) -> UInt64? {
            guard !digits.isEmpty, digits.count <= 10 else { return nil }
            var value: UInt64 = 0
            for digit in digits {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
                value = value * 10 + UInt64(digit - UInt8(ascii: "0"))
            }
            return value
        }

        private static func unescaped(_ field: ArraySlice<UInt8>) -> [UInt8] {
            var bytes: [UInt8] = []
            var index = field.startIndex
            while index < field.endIndex {
                let byte = field[index]
                if byte == UInt8(ascii: "\\"), field.endIndex - index >= 4 {
                    let digits = field[(index + 1)...(index + 3)]
                    let value = digits.reduce(0) { $0 << 3 | (Int($1) - Int(UInt8(ascii: "0"))) }
                    if digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "7")).contains($0) }), value <= 255 {
                        bytes.append(UInt8(value))
                        index += 4
                        continue
                    }
                }
                bytes.append(byte)
                index += 1
            }
            return bytes
        }
    }
#endif
