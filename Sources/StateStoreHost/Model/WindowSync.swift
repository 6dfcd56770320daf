import StateStore

/// How one window's state stands against the store, as a plain value: the state as stored (as far
/// as the model knows), the local edits not yet written, the one write in flight, and what holds
/// the next write back. No file, no session, no clock: a model feeds it what happened (an edit, a
/// write's end, another writer's state, a read) and carries out what it answers (a write to send,
/// an error to report), so that every path through it is a test of its own.
///
/// The rules:
/// - What the model shows is ``local``: ``base`` with the pending edits made on it, in order.
/// - At most one write is in flight; what piles up meanwhile goes out in the next one, whole
///   (``nextWrite()``), each write expecting the revision it is based on.
/// - A write that meets another writer's revision (a conflict), another writer's state, and a read
///   are each a new base: the pending edits are made again on top of it, and those that no longer
///   apply are dropped and named (``Rebased/dropped``).
/// - Busy is retried with the next change or when asked (``retryHeld()``); any other failure waits
///   for the next change too; a state over the store's limits is not sent until it fits again.
/// - A state older than one shown is never taken: a change the feed reports at or before the log
///   position the base was read at is old news (``knownThrough``).
package struct WindowSync: Sendable {
    /// A write sent and not yet ended.
    package struct Flight: Hashable, Sendable {
        /// The write's number, for matching its end (and the feed's report of it).
        package var token: UInt64
        /// The number of the last edit it carries.
        package var lastEdit: Int
        /// The generation of local changes it carries.
        package var generation: Int
    }

    /// What keeps the next write back until the next change or a retry.
    package enum Hold: Hashable, Sendable {
        /// The store was busy past its timeout.
        case busy
        /// The write failed; it held changes up to `generation`.
        case failed(generation: Int)
    }

    /// What the model does next after a change to the sync.
    package enum Step: Hashable, Sendable {
        /// Nothing to send.
        case none
        /// Send this write.
        case write(WriteRequest)
        /// The state is over the store's limits: nothing is sent until it fits.
        case overLimits(StateStoreError)
    }

    /// What a new base did to the pending edits.
    package struct Rebased: Hashable, Sendable {
        /// The edits that no longer applied, in words; empty when all did.
        package var dropped: [String] = []
    }

    /// The state as stored, as far as the model knows.
    package private(set) var base: WindowState
    /// The base with the pending edits made on it: what the model shows.
    package private(set) var local: WindowState
    /// The write in flight, if any.
    package private(set) var inFlight: Flight?
    /// Counts local changes; a flush waits for the count it saw.
    package private(set) var generation = 0
    /// Whether the window is still being read: nothing is written until it is.
    package private(set) var isRestoring: Bool
    /// The change-log position the base is known through: a change at or before it is old.
    package private(set) var knownThrough: Int64 = 0
    /// What keeps the next write back, if anything.
    package private(set) var hold: Hold?
    /// Whether the local state is over the store's limits.
    package private(set) var isOverLimits = false

    private var pending: [(number: Int, edit: WindowEdit)] = []
    private var lastEditNumber = 0
    private var writes: UInt64 = 0
    private var committedGeneration = 0

    /// A window with nothing known of it yet: `empty` as its state, `restoring` while it is read.
    /// Its writes are numbered from `firstToken` on, so that two models of one window (one
    /// discarded, one made again) never take each other's writes for their own.
    package init(empty: WindowState, restoring: Bool, firstToken: UInt64 = 0) {
        base = empty
        local = empty
        isRestoring = restoring
        writes = firstToken
    }

    /// Whether edits are waiting to be written (in flight or not).
    package var hasPendingEdits: Bool { !pending.isEmpty }

    // MARK: Local changes

    /// Makes `edits` on the local state, all or none, and keeps them to write; a new change lifts
    /// any hold. Throws the first edit's failure, changing nothing.
    package mutating func record(_ edits: [WindowEdit]) throws(StateStoreError) {
        var next = local
        for edit in edits { try next.apply(edit) }
        record(edits, giving: next)
    }

    /// ``record(_:)`` for edits whose result the caller has made already, on ``local``: `next`.
    package mutating func record(_ edits: [WindowEdit], giving next: WindowState) {
        local = next
        for edit in edits {
            lastEditNumber += 1
            pending.append((lastEditNumber, edit))
        }
        generation += 1
        hold = nil
    }

    /// The write to send now, if one is due: edits are pending, none is in flight, nothing holds
    /// them back and the window is read. A state over the limits is not sent.
    package mutating func nextWrite() -> Step {
        guard inFlight == nil, !isRestoring, hold == nil, let last = pending.last?.number else { return .none }
        do {
            try local.validate()
        } catch {
            isOverLimits = true
            return .overLimits(error)
        }
        isOverLimits = false
        writes += 1
        inFlight = Flight(token: writes, lastEdit: last, generation: generation)
        return .write(WriteRequest(token: writes, expectedRevision: base.revision, target: local))
    }

    // MARK: What the store said

    /// The write `token` ended. `empty` is the window as it stands once deleted, for a conflict
    /// with a deletion. `nil` when the write is not the one in flight (the feed reported it first).
    package mutating func writeEnded(
        _ token: UInt64, _ outcome: WriteOutcome, empty: @autoclosure () -> WindowState
    ) -> Rebased? {
        guard let flight = inFlight, flight.token == token else { return nil }
        inFlight = nil
        switch outcome {
        case .committed(let stored):
            committed(stored, flight)
            return Rebased()
        case .conflict(let current):
            return rebase(on: current ?? empty())
        case .failed(let error):
            if case .busy = error { hold = .busy } else { hold = .failed(generation: flight.generation) }
            return Rebased()
        }
    }

    /// The feed reported the write `token` committed as `stored`, maybe before the writer's call
    /// returned; `false` when it is not the write in flight.
    package mutating func ownWriteCommitted(_ token: UInt64, stored: WindowState) -> Bool {
        guard let flight = inFlight, flight.token == token else { return false }
        inFlight = nil
        committed(stored, flight)
        return true
    }

    /// Another writer's state (`nil`: the window was deleted), logged at `sequence`: taken as the
    /// base, the pending edits made again on top (and, while the window is being read, as what the
    /// read would find). `nil` when it is no news — at or before what the base is known through, a
    /// revision already known, or the deletion of a window never stored.
    package mutating func adopt(
        outside state: WindowState?, at sequence: Int64, empty: @autoclosure () -> WindowState
    ) -> Rebased? {
        guard sequence > knownThrough else { return nil }
        knownThrough = sequence
        if isRestoring {
            isRestoring = false  // the window's latest state, read or not
            return rebase(on: state ?? empty())
        }
        if let state, state.revision <= base.revision { return nil }
        if state == nil && base.revision == 0 && pending.isEmpty { return nil }
        return rebase(on: state ?? empty())
    }

    /// The window as a read found it (`nil`: not stored), read when the log stood at `position`:
    /// restoring ends, and the edits made meanwhile are made again on top. `nil` when the window is
    /// known through a later position already (another writer's state came first).
    package mutating func restored(_ state: WindowState?, through position: Int64, empty: WindowState) -> Rebased? {
        guard isRestoring || position > knownThrough else { return nil }
        isRestoring = false
        knownThrough = max(knownThrough, position)
        return rebase(on: state ?? empty)
    }

    /// A read after the feed lost its place (a gap): taken when it differs from the base.
    package mutating func reloaded(
        _ state: WindowState?, through position: Int64, empty: @autoclosure () -> WindowState
    ) -> Rebased? {
        knownThrough = max(knownThrough, position)
        if let state, state.revision == base.revision { return nil }
        if state == nil && base.revision == 0 { return nil }
        return rebase(on: state ?? empty())
    }

    /// Lifts a hold so that the next write goes out: a flush, or a window becoming active, asks.
    /// `true` when there was one to lift.
    package mutating func retryHeld() -> Bool {
        guard inFlight == nil, hold != nil else { return false }
        hold = nil
        return true
    }

    /// The last write of a process about to end: what is pending beyond the write in flight, sent
    /// at once behind it (expecting the revision that write makes), since nothing will be here to
    /// send it when that one ends. `nil` when nothing is pending beyond it.
    package mutating func finalWrite() -> WriteRequest? {
        guard !isRestoring, let last = pending.last?.number, !isOverLimits else { return nil }
        guard let flight = inFlight else {
            hold = nil
            if case .write(let request) = nextWrite() { return request }
            return nil
        }
        guard last > flight.lastEdit else { return nil }
        writes += 1
        // It carries every pending edit: the write before it is no longer waited for.
        inFlight = Flight(token: writes, lastEdit: last, generation: generation)
        return WriteRequest(token: writes, expectedRevision: base.revision + 1, target: local)
    }

    /// Forgets everything pending: the window was discarded.
    package mutating func discard() {
        pending.removeAll()
        inFlight = nil
        hold = nil
    }

    // MARK: For a flush

    /// Whether the changes up to `generation` are committed, failed, or still on their way.
    package func flushState(for generation: Int) -> FlushState {
        if committedGeneration >= generation || pending.isEmpty && inFlight == nil { return .committed }
        if isOverLimits { return .failed }
        if case .failed(let failed)? = hold, failed >= generation, inFlight == nil { return .failed }
        return .pending
    }

    // MARK: Private

    private mutating func committed(_ stored: WindowState, _ flight: Flight) {
        pending.removeAll { $0.number <= flight.lastEdit }
        if stored.revision > base.revision || base.revision == 0 { base = stored }
        local = base.replaying(pending.map(\.edit)).state
        committedGeneration = max(committedGeneration, flight.generation)
        hold = nil
    }

    private mutating func rebase(on newBase: WindowState) -> Rebased {
        base = newBase
        let replay = newBase.replaying(pending.map(\.edit))
        var rebased = Rebased()
        if !replay.dropped.isEmpty {
            let dropped = Set(replay.dropped)
            rebased.dropped = replay.dropped.map { pending[$0].edit.description }
            pending = pending.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
        }
        local = replay.state
        return rebased
    }
}

/// Where a window's changes stand for a flush.
package enum FlushState: Hashable, Sendable {
    /// Every change up to the generation asked about is committed.
    case committed
    /// A change up to it failed (or is over the limits) and waits for the next one.
    case failed
    /// A change up to it is still being written.
    case pending
}

/// A write a model hands the session's writer: the whole state to store, with the revision it is
/// based on and a number that matches its end (and the feed's report of it) to it.
package struct WriteRequest: Hashable, Sendable {
    /// The write's number within its window.
    package let token: UInt64
    /// The revision the state is based on: the write happens only if the window is still at it.
    package let expectedRevision: Int
    /// What to store: its size class, routes and policy.
    package let target: WindowState
}

/// How a write ended.
package enum WriteOutcome: Hashable, Sendable {
    /// Stored as this.
    case committed(WindowState)
    /// Another writer came first: the window as it is now (`nil`: deleted).
    case conflict(current: WindowState?)
    /// The store failed.
    case failed(StateStoreError)
}
