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

            With --focused in place of WINDOW, the session's most recently focused window is \
            changed, as its app recorded it (with --kind, the latest of that kind); the output \
            names it. It is found and written under one write lock, so a window another process \
            deletes meanwhile is not made again. A session with none exits 66 and nothing is \
            written; --focused never creates the database.

              statectl set mail main --size-class regular --push 'Folder:"inbox"' \\
                  --present 'Thread:{"id":42}'
              statectl set mail main --push '{"type":"(a: Swift.Int)","value":[1]}'
              statectl set mail --focused --kind mail --push 'Thread:{"id":42}'

            What a window's split view and tab view bind is part of its state too, set like the \
            rest and shown by 'show': --column-visibility, --compact-column and --tab (or --no-tab). \
            Nothing of the layout follows from them: an app reads them as it saved them.

              statectl set recipes main --column-visibility doubleColumn \\
                  --compact-column detail
              statectl set mail main --tab sent
            """,
        arguments: [Argument.session.positional, Argument.addressedWindow.positional],
        options: SetCommand.mutationOptions.map { $0.option } + [
            Option.focused, Option.kind.option, Option.expectRevision.option, .json,
        ],
        validate: SetCommand.validate,
        run: SetCommand.run)
}

enum SetCommand {
    static let mutations = OptionSection(title: "MUTATIONS", placeholder: "<mutation> ...")

    static let sizeClass = MutationOption(
        "--size-class", "size-class", as: SizeClass.self,
        help:
            "Change the size class (compact, regular, unspecified); the policy says what happens to a presented item."
    ) { .sizeClass($0) }
    static let push = MutationOption(
        "--push", "route", as: String.self,
        help: "Push a route: onto the item's stack when an item is presented, else onto the window's path."
    ) { text throws(StateStoreError) in .push(try RouteArgument.read(text)) }
    static let pop = MutationOption(
        "--pop", "n", as: Count.self,
        help:
            "Go back n steps: through the item's stack, then the item, then the path. Popping more than there is fails."
    ) { .pop($0.value) }
    static let present = MutationOption(
        "--present", "route", as: String.self,
        help: "Present a route as the item, replacing any presented item and its stack."
    ) { text throws(StateStoreError) in .edit(.present(try RouteArgument.read(text))) }
    static let dismiss = MutationOption("--dismiss", help: "Dismiss the presented item and its stack.", .edit(.dismiss))
    static let policy = MutationOption(
        "--policy", "policy", as: SizeChangePolicy.self,
        help:
            "What a size-class change does to a presented item: migrate moves it between sheet and push, dismiss clears it when the change is to or from regular."
    ) { .edit(.setPolicy($0)) }
    static let navigationPath = MutationOption(
        "--navigation-path", "json", as: String.self,
        help:
            "Replace the window's path with a NavigationPath.CodableRepresentation JSON array (as 'show --navigation-path' prints)."
    ) { text throws(StateStoreError) in .navigationPath(try NavigationPathCoding.routes(from: text)) }

    static let columnVisibility = MutationOption(
        "--column-visibility", "visibility", as: ColumnVisibility.self,
        help:
            "Set which columns the window's split view shows (automatic, all, doubleColumn, detailOnly): NavigationSplitView's columnVisibility."
    ) { .edit(.setColumnVisibility($0)) }
    static let compactColumn = MutationOption(
        "--compact-column", "column", as: CompactColumnChoice.self,
        help:
            "Set the column the split view shows when it collapses to one (sidebar, content, detail), NavigationSplitView's preferredCompactColumn; none leaves it to the view."
    ) { .edit(.setPreferredCompactColumn($0.column)) }
    static let tab = MutationOption(
        "--tab", "tab", as: String.self,
        help: "Select the tab the window's tab view shows, by the name the app gives it (1-256 bytes, as an id)."
    ) { text throws(StateStoreError) in
        try WindowState.validate(selectedTab: text)
        return .edit(.selectTab(text))
    }
    static let noTab = MutationOption(
        "--no-tab", help: "Clear the selected tab: none recorded, the tab view shows its first.", .edit(.selectTab(nil))
    )

    /// The mutation options, in help order.
    static let mutationOptions = [
        sizeClass, push, pop, present, dismiss, policy, navigationPath, columnVisibility, compactColumn, tab, noTab,
    ]

    /// One change to a window, read from the command line before the database is opened, made as
    /// the ``WindowEdit``s a host would make of the same change: those that depend on the state
    /// (a push goes onto the item's stack when one is presented) are made of the state it meets.
    enum Mutation {
        /// An edit whatever the state.
        case edit(WindowEdit)
        case sizeClass(SizeClass)
        case push(Route)
        case pop(Int)
        case navigationPath([Route])

        /// The edits this mutation makes of `state`; a pop of more than there is fails.
        func edits(of state: WindowState) throws(StateStoreError) -> [WindowEdit] {
            switch self {
            case .edit(let edit): [edit]
            case .sizeClass(let sizeClass): [.changeSizeClass(to: sizeClass, of: state)]
            case .push(let route): [.push(route, onto: state)]
            case .pop(let count): try WindowEdit.pop(count, from: state)
            case .navigationPath(let routes): WindowEdit.setPath(routes, over: state).map { [$0] } ?? []
            }
        }

        /// Makes the mutation's edits on `state`.
        func apply(to state: inout WindowState) throws(StateStoreError) {
            for edit in try edits(of: state) { try state.apply(edit) }
        }
    }

    /// A mutation option and the change it makes, declared together: an option is a mutation only
    /// by being declared as one, with its own change.
    struct MutationOption: Sendable {
        let option: Option
        /// The change of one occurrence; a route or path that is bad data throws (exit 65).
        let change: @Sendable (Invocation.Occurrence) throws(StateStoreError) -> Mutation

        /// A mutation option taking a `Value`, which, in its type, makes the change. Every mutation
        /// may be given more than once and is listed under `MUTATIONS:`.
        init<Value: ArgumentValue>(
            _ name: String, _ valueName: String, as type: Value.Type, help: String,
            _ change: @escaping @Sendable (Value) throws(StateStoreError) -> Mutation
        ) {
            let declared = Option.value(name, valueName, as: type, help: help, repeats: true, section: mutations)
            option = declared.option
            self.change = { occurrence throws(StateStoreError) in
                guard let value = occurrence.value as? Value else {
                    preconditionFailure("an occurrence of \(name) holds a value of its type")
                }
                return try change(value)
            }
        }

        /// A mutation flag, which makes `mutation`.
        init(_ name: String, help: String, _ mutation: Mutation) {
            option = .flag(name, help: help, repeats: true, section: mutations)
            change = { _ in mutation }
        }
    }

    static func validate(_ invocation: Invocation) -> String? {
        guard mutating(invocation).isEmpty else { return nil }
        return "set needs at least one mutation: " + mutationOptions.map { $0.option.name }.joined(separator: ", ")
    }

    /// The mutations on the command line, in order, each with its declaration.
    static func mutating(_ invocation: Invocation) -> [(occurrence: Invocation.Occurrence, mutation: MutationOption)] {
        invocation.occurrences.compactMap { occurrence in
            mutationOptions.first { $0.option == occurrence.option }.map { (occurrence, $0) }
        }
    }

    static func run(_ invocation: Invocation, _ context: Context) throws {
        let session = invocation.required(.session)
        let address = try WindowAddress(invocation, session: session)
        let mutating = mutating(invocation)
        let occurrences = mutating.map(\.occurrence)
        var changes: [Mutation] = []
        for (index, (occurrence, mutation)) in mutating.enumerated() {
            do throws(StateStoreError) {
                changes.append(try mutation.change(occurrence))
            } catch {
                throw error.naming(mutation: index, of: occurrences)
            }
        }
        let expected = invocation.value(Option.expectRevision)?.value
        let apply = { (state: inout WindowState) throws(StateStoreError) in
            for (index, change) in changes.enumerated() {
                do throws(StateStoreError) {
                    try change.apply(to: &state)
                } catch {
                    throw error.naming(mutation: index, of: occurrences)
                }
            }
        }
        let state: WindowState
        switch address {
        case .window(let window):
            state = try invocation.openOrCreateStore(context).update(
                session: session, window: window, expectedRevision: expected, apply)
        case .focused(let kind):
            // Looked up and written under one write lock, so a window another process deletes
            // meanwhile is not made again; never made, the file: a missing one has no focused window.
            guard
                let written = try invocation.openExistingStore(context).updateFocusedWindow(
                    session: session, kind: kind, expectedRevision: expected, apply)
            else { throw WindowAddress.noFocusedWindow(session: session, kind: kind) }
            state = written
        case .session:
            preconditionFailure("the parser lets set run only with a window or --focused")
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
        var text = occurrences[index].shellText
        if text.count > 60 { text = text.prefix(59) + "…" }
        return .invalidInput("mutation \(index + 1) of \(occurrences.count) (\(text)): \(message)")
    }
}
