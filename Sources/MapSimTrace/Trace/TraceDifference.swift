import MapSim
import MapSimJSON

/// One difference between two traces, as one line a person reads at a glance — what (a resource by
/// its path, an event, a field), what the first trace (A) has and what the second (B) has:
///
///     tile tiles/10/163/395.pbf: ok 996 B in A, not-found in B
///     glyphs glyphs/Noto Sans/0-255.pbf: only in B (ok 64358 B)
///     map-loading-error {"type":"tile","source-id":"city"}: only in A
///
/// and as a JSON object for scripts.
public struct TraceDifference: Sendable, Equatable, CustomStringConvertible {
    /// The longest line a difference prints as.
    public static let maximumLineLength = 200

    /// What kind of thing differs: `headers`, `milestones`, a resource kind (`tile`, `glyphs`,
    /// ...) or an event type (`map-loading-error`, ...). Lines are grouped by it.
    public var group: String
    /// What differs within the group: a resource's path, an event.
    public var subject: String
    /// The field that differs, when one field of a shared event does.
    public var field: String?
    /// What A has; nil when A lacks the thing.
    public var expected: String?
    /// What B has; nil when B lacks the thing.
    public var actual: String?
    /// The 1-based position of the event in A when events are compared one by one; 0 otherwise.
    public var index: Int

    /// A difference.
    public init(group: String, subject: String, field: String? = nil, expected: String?, actual: String?, index: Int = 0) {
        self.group = group
        self.subject = subject
        self.field = field
        self.expected = expected
        self.actual = actual
        self.index = index
    }

    /// The one line: `GROUP SUBJECT[: FIELD]: X in A, Y in B`, or `…: only in A (X)`, at most
    /// `maximumLineLength` characters (long values are cut in the middle).
    public var description: String {
        let values: String
        switch (expected, actual) {
        case let (a?, b?): values = "\(Self.cut(a, to: 60)) in A, \(Self.cut(b, to: 60)) in B"
        case let (a?, nil): values = a.isEmpty ? "only in A" : "only in A (\(Self.cut(a, to: 60)))"
        case let (nil, b?): values = b.isEmpty ? "only in B" : "only in B (\(Self.cut(b, to: 60)))"
        case (nil, nil): values = "differs"
        }
        let what = field.map { "\(subject): \($0)" } ?? subject
        let room = Self.maximumLineLength - group.count - values.count - 3
        return "\(group) \(Self.cut(what, to: max(20, room))): \(values)"
    }

    /// The difference as a JSON object, always of one shape: `group`, `subject`, `field` (null when
    /// a whole event or resource differs), `a` and `b` (null for the trace that lacks it), `index`
    /// (the event's 1-based position in A when events are compared one by one, else null) and `line`.
    public var json: JSONObject {
        JSONObject([
            ("group", .string(group)), ("subject", .string(subject)), ("field", field.map { .string($0) } ?? .null),
            ("a", expected.map { .string($0) } ?? .null), ("b", actual.map { .string($0) } ?? .null),
            ("index", index > 0 ? .number(Double(index)) : .null), ("line", .string(description)),
        ])
    }

    /// `text` cut to `length` characters, the middle replaced by `…`.
    static func cut(_ text: String, to length: Int) -> String {
        guard text.count > length, length > 1 else { return text }
        let head = (length - 1) / 2
        return String(text.prefix(head)) + "…" + String(text.suffix(length - 1 - head))
    }

    /// The order groups are printed in: headers, milestones, the resource kinds in load order, then events.
    static func groupRank(_ group: String) -> Int {
        let order = ["headers", "milestones", "style", "sprite-json", "sprite-image", "source", "tile", "glyphs", "image", "unknown"]
        return order.firstIndex(of: group) ?? order.count
    }
}
