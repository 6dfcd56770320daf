import StateStore

extension StateStoreError {
    /// mailhost's exit status for a store failure, in the sysexits(3) convention statectl follows:
    /// bad data 65, not found 66, an unusable file or an I/O error 74, busy 75, a newer schema 78.
    var exitStatus: Int32 {
        switch self {
        case .invalidInput, .notOurs, .conflict: 65
        case .notFound: 66
        case .alreadyExists: 73
        case .notADatabase, .damaged, .io, .replaced: 74
        case .busy: 75
        case .newerSchema: 78
        case .reentrantCall: 70
        }
    }
}
