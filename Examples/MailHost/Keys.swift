/// A key mailhost acts on.
enum Key: Hashable {
    case up
    case down
    case left
    case right
    case enter
    case back
    case escape
    case character(Character)

    /// The keys in what a terminal sent: arrows as `ESC [ A` or `ESC O A`, enter as CR or LF,
    /// backspace as DEL or BS. Other control sequences are skipped whole; an ESC that starts none
    /// is the escape key.
    static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x1B:
                guard index < bytes.count, bytes[index] == UInt8(ascii: "[") || bytes[index] == UInt8(ascii: "O")
                else {
                    keys.append(.escape)
                    continue
                }
                index += 1
                // Parameters and intermediates up to the final byte (0x40–0x7E).
                var final: UInt8?
                while index < bytes.count {
                    let next = bytes[index]
                    index += 1
                    if (0x40...0x7E).contains(next) {
                        final = next
                        break
                    }
                }
                switch final {
                case UInt8(ascii: "A"): keys.append(.up)
                case UInt8(ascii: "B"): keys.append(.down)
                case UInt8(ascii: "C"): keys.append(.right)
                case UInt8(ascii: "D"): keys.append(.left)
                default: break
                }
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.back)
            case 0x20...0x7E: keys.append(.character(Character(Unicode.Scalar(byte))))
            default: break  // other control bytes, and the bytes of non-ASCII characters
            }
        }
        return keys
    }
}
