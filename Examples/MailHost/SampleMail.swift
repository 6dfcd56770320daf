/// The mailbox mailhost shows: two accounts, their folders, threads of messages and drafts with
/// attachments. Fixed data, so a route means the same thing in every run and every test.
enum SampleMail {
    struct Account {
        let id: String
        let name: String
        let address: String
        let folders: [String]
    }

    struct Thread {
        let id: Int
        let account: String
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
        let account: String
        let to: String
        let subject: String
        let body: [String]
        let attachments: [Attachment]
    }

    struct Attachment {
        let id: Int
        let name: String
        let kind: String
        let size: String
        let preview: [String]
    }

    static let accounts = [
        Account(
            id: "work", name: "Work", address: "ada@work.example", folders: ["Inbox", "Drafts", "Sent", "Archive"]),
        Account(id: "home", name: "Home", address: "ada@home.example", folders: ["Inbox", "Drafts", "Sent"]),
    ]

    static let threads = [
        Thread(
            id: 1, account: "work", folder: "Inbox", subject: "Quarterly numbers",
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
                    date: "Tue 4 Nov 08:05", body: ["Good. Board pack on Friday, then.", "", "Grace"]),
            ]),
        Thread(
            id: 2, account: "work", folder: "Inbox", subject: "Release train 4.2",
            messages: [
                Message(
                    id: 21, from: "Linus <linus@work.example>", to: "team@work.example", date: "Tue 4 Nov 14:30",
                    body: ["The 4.2 branch is cut. Fixes only from now on.", "", "Linus"]),
                Message(
                    id: 22, from: "Margaret <margaret@work.example>", to: "team@work.example",
                    date: "Tue 4 Nov 15:02", body: ["Two blockers left, both in review.", "", "Margaret"]),
            ]),
        Thread(
            id: 3, account: "work", folder: "Inbox", subject: "Offsite agenda",
            messages: [
                Message(
                    id: 31, from: "Barbara <barbara@work.example>", to: "team@work.example", date: "Wed 5 Nov 11:20",
                    body: ["Day one: planning. Day two: the long walk.", "", "Barbara"])
            ]),
        Thread(
            id: 4, account: "work", folder: "Sent", subject: "Re: Hiring plan",
            messages: [
                Message(
                    id: 41, from: "Ada <ada@work.example>", to: "Barbara <barbara@work.example>",
                    date: "Thu 30 Oct 16:45", body: ["Two engineers in Q1, one in Q2.", "", "Ada"])
            ]),
        Thread(
            id: 5, account: "work", folder: "Archive", subject: "Old build logs",
            messages: [
                Message(
                    id: 51, from: "CI <ci@work.example>", to: "Ada <ada@work.example>", date: "Fri 3 Oct 02:00",
                    body: ["Nightly build 1412 passed."])
            ]),
        Thread(
            id: 6, account: "home", folder: "Inbox", subject: "Allotment rota",
            messages: [
                Message(
                    id: 61, from: "Mary <mary@home.example>", to: "Ada <ada@home.example>", date: "Sat 1 Nov 08:30",
                    body: ["You are on watering duty next week.", "", "Mary"]),
                Message(
                    id: 62, from: "Ada <ada@home.example>", to: "Mary <mary@home.example>", date: "Sat 1 Nov 09:10",
                    body: ["Fine by me. Tuesday and Friday?", "", "Ada"]),
            ]),
        Thread(
            id: 7, account: "home", folder: "Inbox", subject: "Book club: Middlemarch",
            messages: [
                Message(
                    id: 71, from: "George <george@home.example>", to: "club@home.example", date: "Sun 2 Nov 19:00",
                    body: ["Chapters 1 to 20 for the first meeting.", "", "George"])
            ]),
        Thread(
            id: 8, account: "home", folder: "Sent", subject: "Train tickets",
            messages: [
                Message(
                    id: 81, from: "Ada <ada@home.example>", to: "Mary <mary@home.example>", date: "Fri 31 Oct 12:00",
                    body: ["Booked: the 9:15 on Saturday.", "", "Ada"])
            ]),
    ]

    static let drafts = [
        Draft(
            id: 1, account: "work", to: "board@work.example", subject: "Q3 summary for the board",
            body: ["Dear all,", "", "the Q3 figures are attached, with the chart.", "", "Ada"],
            attachments: [
                Attachment(
                    id: 1, name: "q3-figures.csv", kind: "text/csv", size: "2 KB",
                    preview: ["quarter,revenue,cost", "Q1,1040,800", "Q2,1075,810", "Q3,1118,812"]),
                Attachment(
                    id: 2, name: "revenue-chart.png", kind: "image/png", size: "48 KB",
                    preview: ["(an image: revenue by quarter)"]),
            ]),
        Draft(
            id: 2, account: "home", to: "mary@home.example", subject: "Holiday plans",
            body: ["Mary,", "", "the itinerary is attached.", "", "Ada"],
            attachments: [
                Attachment(
                    id: 3, name: "itinerary.pdf", kind: "application/pdf", size: "120 KB",
                    preview: ["Sat: train to the coast", "Sun: the cliff walk", "Mon: home"])
            ]),
    ]

    static func account(_ id: String) -> Account? { accounts.first { $0.id == id } }
    static func thread(_ id: Int) -> Thread? { threads.first { $0.id == id } }
    static func message(_ id: Int) -> (Message, Thread)? {
        for thread in threads {
            if let message = thread.messages.first(where: { $0.id == id }) { return (message, thread) }
        }
        return nil
    }
    static func draft(_ id: Int) -> Draft? { drafts.first { $0.id == id } }
    static func attachment(_ id: Int) -> Attachment? {
        drafts.lazy.flatMap(\.attachments).first { $0.id == id }
    }
}
