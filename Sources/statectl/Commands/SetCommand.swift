import StateStore

extension Command {
    static let set = Command(
        name: "set",
        abstract: "Change a window: mutations in order, in one write.",
        discussion: """
            Creates the window when missing (unspecified size class, empty path, no item, policy \
            migrate). Either every mutation is applied and written as one new revision, or, on \
            any error, nothing is written; the error names the mutation that failed.

            A route is TYPE or TYPE:JSON, split at the first ':'. An argument starting with '{' \
            is a JSON object {"type": TYPE, "value": JSON} ('value' optional, null; no other \
            key): the form for a type that holds ':' or starts with '{', such as a tuple, and the \
            one such a route is printed in, so what 'show' prints can be pasted back.

              statectl set mail main --size-class regular --push 'Folder:"inbox"' \\
                  --present 'Thread:{"id":42}'
              statectl set mail main --push '{"type":"(a: Swift.Int)","value":[1]}'
            """,
        arguments: [.session, .window],
        options: SetCommand.mutationOptions + [SetCommand.expectRevision, .json],
        validate: SetCommand.validate,
        run: SetCommand.run)
}

enum SetCommand {
    static let mutations = OptionSection(title: "MUTATIONS", placeholder: "<mutation> ...")

    static let sizeClass = Option.sizeClass(
        help:
            "Change the size class (compact, regular, unspecified); the policy says what happens to a presented item.",
        section: mutations, repeats: true)
    static let push = Option.value(
        "--push", "route",
        help: "Push a route: onto the item's stack when an item is presented, else onto the window's path.",
        repeats: true, section: mutations)
    static let pop = Option.value(
        "--pop", "n", .integer(minimum: 1),
        help:
            "Go back n steps: through the item's stack, then the item, then the path. Popping more than there is fails.",
        repeats: true, section: mutations)
    static let present = Option.value(
        "--present", "route", help: "Present a route as the item, replacing any presented item and its stack.",
        repeats: true, section: mutations)
    static let dismiss = Option.flag(
        "--dismiss", help: "Dismiss the presented item and its stack.", repeats: true, section: mutations)
    static let policy = Option.value(
        "--policy", "policy", .choice(SizeChangePolicy.allCases.map(\.rawValue)),
        help:
            "What a size-class change does to a presented item: migrate moves it between sheet and push, dismiss clears it when the change is to or from regular.",
        repeats: true, section: mutations)
    static let navigationPath = Option.value(
        "--navigation-path", "json",
        help:
            "Replace the window's path with a NavigationPath.CodableRepresentation JSON array (as 'show --navigation-path' prints).",
        repeats: true, section: mutations)
    static let expectRevision = Option.value(
        "--expect-revision", "n", .integer(minimum: 0),
        help: "Write only if the window is at revision n (0: only if it does not exist yet); otherwise exit 1.")

    /// The mutation options, in help order.
    static let mutationOptions = [sizeClass, push, pop, present, dismiss, policy, navigationPath]

    /// One change to a window, read from the command line before the database is opened.
    enum Mutation {
        case sizeClass(SizeClass)
        case push(Route)
        case pop(Int)
        case present(Route)
        case dismiss
        case policy(SizeChangePolicy)
        case navigationPath([Route])

        /// Reads one occurrence of a mutation option; a bad route is bad data (exit 65).
        init(_ occurrence: Invocation.Occurrence) throws(StateStoreError) {
            let value = occurrence.value ?? ""
            switch occurrence.option {
            case SetCommand.sizeClass: self = .sizeClass(SizeClass(rawValue: value)!)
            case SetCommand.push: self = .push(try Route(parsing: value))
            case SetCommand.pop: self = .pop(Int(value)!)
            case SetCommand.present: self = .present(try Route(parsing: value))
            case SetCommand.policy: self = .policy(SizeChangePolicy(rawValue: value)!)
            case SetCommand.navigationPath: self = .navigationPath(try NavigationPathCoding.routes(from: value))
            default: self = .dismiss
            }
        }

        func apply(to state: inout WindowState) throws(StateStoreError) {
            switch self {
            case .sizeClass(let sizeClass): state.changeSizeClass(to: sizeClass)
            case .push(let route): state.push(route)
            case .pop(let count): try state.pop(count)
            case .present(let route): state.present(route)
            case .dismiss: state.dismiss()
            case .policy(let policy): state.policy = policy
            case .navigationPath(let routes): state.path = routes
            }
        }
    }

    static func validate(_ invocation: Invocation) -> String? {
        guard !invocation.occurrences.contains(where: { $0.option.section == mutations }) else { return nil }
        return "set needs at least one mutation: " + mutationOptions.map(\.name).joined(separator: ", ")
    }

    static func run(_ invocation: Invocation, _ context: Context) throws {
        let session = invocation.argument(.session)!
        let window = invocation.argument(.window)!
        try WindowState.validate(session: session, window: window)
        let occurrences = invocation.occurrences.filter { $0.option.section == mutations }
        var changes: [Mutation] = []
        for (index, occurrence) in occurrences.enumerated() {
            do throws(StateStoreError) {
                changes.append(try Mutation(occurrence))
            } catch {
                throw error.naming(mutation: index, of: occurrences)
            }
        }
        let store = try invocation.openOrCreateStore(context)
        let state = try store.update(
            session: session, window: window, expectedRevision: invocation.integer(expectRevision)
        ) { state in
            for (index, change) in changes.enumerated() {
                do throws(StateStoreError) {
                    try change.apply(to: &state)
                } catch {
                    throw error.naming(mutation: index, of: occurrences)
                }
            }
        }
        context.hasWritten = true
        if invocation.flag(.json) {
            context.output.writeJSON { state.write(to: &$0) }
        } else {
            context.output.write(state.record.text(style: context.style))
        }
    }
}

extension StateStoreError {
    /// Bad data, prefixed with the mutation it came from (`mutation 2 of 2 (--pop 1): …`), so
    /// a long command line says which of its mutations failed.
    fileprivate func naming(mutation index: Int, of occurrences: [Invocation.Occurrence]) -> StateStoreError {
        guard case .invalidInput(let message) = self else { return self }
        var text = occurrences[index].text
        if text.count > 60 { text = text.prefix(59) + "…" }
        return .invalidInput("mutation \(index + 1) of \(occurrences.count) (\(text)): \(message)")
    }
}
