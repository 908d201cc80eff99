/// What went wrong with a cache since it was opened, each different message once with how many times
/// it happened: a disk that stays full loses every commit's writes, and a long run must neither keep
/// nor print a line per commit.
struct ProblemLog: Sendable {
    /// The messages, in the order they first happened.
    private var messages: [String] = []
    /// How many times each happened.
    private var counts: [String: Int] = [:]

    /// Notes that `message` happened (again).
    mutating func note(_ message: String) {
        if counts[message] == nil { messages.append(message) }
        counts[message, default: 0] += 1
    }

    /// Each message, with how many times it happened when more than once.
    var lines: [String] {
        messages.map { message in
            let count = counts[message] ?? 1
            return count > 1 ? "\(message) (\(count) times)" : message
        }
    }
}
