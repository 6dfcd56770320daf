// MARK: - app: the sample mailbox, which the app and mailhost both show

/// Folders, threads of messages and drafts: fixed data, so that a route means the same thing in
/// every run, in both examples (`Examples/MailApp`, `Examples/MailHost`) and in every test.
enum SampleMail {
    struct Thread {
        let id: Int
        let folder: String
        let subject: String
        let messages: [Message]
    }

    struct Message {
        let id: Int
        let from: String
        let to: String
        let date: String
        let body: [String]
    }

    struct Draft {
        let id: Int
        let to: String
        let subject: String
        let body: [String]
        let attachments: [String]
    }

    static let folders = ["Inbox", "Work", "Home", "Sent", "Drafts"]

    static let threads = [
        Thread(
            id: 1, folder: "Inbox", subject: "Quarterly numbers",
            messages: [
                Message(
                    id: 11, from: "Grace Hopper <grace@work.example>", to: "Ada <ada@work.example>",
                    date: "Mon 3 Nov 09:12",
                    body: [
                        "The Q3 figures are in: revenue up 4%, costs flat.",
                        "Can you check the forecast sheet before Thursday?", "", "Grace",
                    ]),
                Message(
                    id: 12, from: "Ada <ada@work.example>", to: "Grace Hopper <grace@work.example>",
                    date: "Mon 3 Nov 10:40",
                    body: ["Checked. The forecast holds if the December orders land.", "", "Ada"]),
                Message(
                    id: 13, from: "Grace Hopper <grace@work.example>", to: "Ada <ada@work.example>",
                    date: "Tue 4 Nov 08:05", body: ["Good. Board pack on Friday, attachments and all.", "", "Grace"]),
            ]),
        Thread(
            id: 2, folder: "Inbox", subject: "Release train 4.2",
            messages: [
                Message(
                    id: 21, from: "Linus <linus@work.example>", to: "team@work.example", date: "Tue 4 Nov 14:30",
                    body: ["The 4.2 branch is cut. Fixes only from now on.", "", "Linus"]),
                Message(
                    id: 22, from: "Margaret <margaret@work.example>", to: "team@work.example",
                    date: "Tue 4 Nov 15:02", body: ["Two blockers left, both in review.", "", "Margaret"]),
            ]),
        Thread(
            id: 6, folder: "Inbox", subject: "Allotment rota",
            messages: [
                Message(
                    id: 61, from: "Mary <mary@home.example>", to: "Ada <ada@home.example>", date: "Sat 1 Nov 08:30",
                    body: ["You are on watering duty next week.", "", "Mary"]),
                Message(
                    id: 62, from: "Ada <ada@home.example>", to: "Mary <mary@home.example>", date: "Sat 1 Nov 09:10",
                    body: ["Fine by me. Tuesday and Friday?", "", "Ada"]),
            ]),
        Thread(
            id: 3, folder: "Work", subject: "Offsite agenda",
            messages: [
                Message(
                    id: 31, from: "Barbara <barbara@work.example>", to: "team@work.example", date: "Wed 5 Nov 11:20",
                    body: ["Day one: planning. Day two: the long walk.", "", "Barbara"])
            ]),
        Thread(
            id: 5, folder: "Work", subject: "Old build logs",
            messages: [
                Message(
                    id: 51, from: "CI <ci@work.example>", to: "Ada <ada@work.example>", date: "Fri 3 Oct 02:00",
                    body: ["Nightly build 1412 passed."])
            ]),
        Thread(
            id: 7, folder: "Home", subject: "Book club: Middlemarch",
            messages: [
                Message(
                    id: 71, from: "George <george@home.example>", to: "club@home.example", date: "Sun 2 Nov 19:00",
                    body: ["Chapters 1 to 20 for the first meeting.", "", "George"])
            ]),
        Thread(
            id: 4, folder: "Sent", subject: "Re: Hiring plan",
            messages: [
                Message(
                    id: 41, from: "Ada <ada@work.example>", to: "Barbara <barbara@work.example>",
                    date: "Thu 30 Oct 16:45", body: ["Two engineers in Q1, one in Q2.", "", "Ada"])
            ]),
        Thread(
            id: 8, folder: "Sent", subject: "Train tickets",
            messages: [
                Message(
                    id: 81, from: "Ada <ada@home.example>", to: "Mary <mary@home.example>", date: "Fri 31 Oct 12:00",
                    body: ["Booked: the 9:15 on Saturday.", "", "Ada"])
            ]),
    ]

    static let drafts = [
        Draft(
            id: 1, to: "board@work.example", subject: "Q3 summary for the board",
            body: ["Dear all,", "", "the Q3 figures are attached, with the chart.", "", "Ada"],
            attachments: ["q3-figures.csv", "revenue-chart.png"]),
        Draft(
            id: 2, to: "mary@home.example", subject: "Holiday plans",
            body: ["Mary,", "", "the itinerary is attached.", "", "Ada"], attachments: ["itinerary.pdf"]),
    ]

    /// The ids of the threads in the folder named `folder`, as listed.
    static func threads(in folder: String?) -> [Int] {
        guard let folder else { return [] }
        return threads.filter { $0.folder == folder }.map(\.id)
    }

    /// The ids of the messages of thread `id`, oldest first.
    static func messages(in id: Int) -> [Int] { thread(id)?.messages.map(\.id) ?? [] }

    /// What a list shows for a thread (its subject) or a message (its sender and first line).
    static func subject(of id: Int) -> String {
        if let thread = thread(id) { return thread.subject }
        guard let (message, _) = message(id) else { return "Message \(id)" }
        return name(message.from) + ": " + (message.body.first ?? "")
    }

    /// The ids of the threads whose subject or messages hold `text`, in any case.
    static func search(_ text: String) -> [Int] {
        let text = text.lowercased()
        return threads.filter { thread in
            thread.subject.lowercased().contains(text)
                || thread.messages.contains { $0.body.contains { $0.lowercased().contains(text) } }
        }.map(\.id)
    }

    static func thread(_ id: Int) -> Thread? { threads.first { $0.id == id } }
    static func message(_ id: Int) -> (Message, Thread)? {
        for thread in threads {
            if let message = thread.messages.first(where: { $0.id == id }) { return (message, thread) }
        }
        return nil
    }
    static func draft(_ id: Int) -> Draft? { drafts.first { $0.id == id } }

    /// "Grace Hopper" of "Grace Hopper <grace@work.example>".
    static func name(_ address: String) -> String {
        guard let bracket = address.firstIndex(of: "<") else { return address }
        var name = address[..<bracket]
        while name.last == " " { name.removeLast() }
        return String(name)
    }
}
