import MapSim
import MapSimJSON

/// One self-contained HTML page of mapsim's: its styles, its script and its data inline, nothing
/// fetched, so that it opens from `file://` and as a CI artifact. The script (`PageScript`) reads the
/// data from the `mapsim-data` element and draws the page `mode` names:
///
/// - `report`: `traces`, each `{name, header: [[field, value]], duration, milestones: [[type, µs]],
///   summary, critical: {milestone, time, steps: [row]}, rows: [RequestRow], tiles: [{source, tiles}]}`;
///   a report page keeps each trace's `rows` apart, in the element `mapsim-rows-N` after the script;
/// - `scenario`: one trace as in a report, `scenario` (its status, problems, budgets) and `diff`
///   (the golden and the new trace side by side);
/// - `suite`: `suite.scenarios`, one `{name, status, seconds, events, budgets, problem, page}` each;
/// - `serve`: `serve` (the style, the conditions, how often to ask the server for new requests).
public struct PageDocument: Sendable {
    /// What the page draws: `report`, `scenario`, `suite` or `serve`.
    public var mode: String
    /// The page's title.
    public var title: String
    /// The data the script draws, besides `mode`, `title` and `generator`.
    public var data: JSONObject
    /// Elements added to the head (`mapsim serve` links MapLibre GL JS, which it serves).
    public var head: String

    /// A page.
    public init(mode: String, title: String, data: JSONObject, head: String = "") {
        self.mode = mode
        self.title = title
        self.data = data
        self.head = head
    }

    /// The HTML.
    public var html: String { String(decoding: bytes, as: UTF8.self) }

    /// The HTML as UTF-8.
    public var bytes: [UInt8] {
        Self.page(mode: mode, title: title, head: head) { bytes in
            for member in data.members {
                bytes.append(UInt8(ascii: ","))
                JSONWriter.writeString(member.key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                JSONWriter.write(member.value, into: &bytes)
            }
        }
    }

    /// A page as UTF-8 whose data is `mode`, `title`, `generator` and the members `appendMembers`
    /// writes after them (each as `,"NAME":VALUE`), written straight into the page: a report of a
    /// large trace is never held as values or as a second copy of its text. Each of `after` is a JSON
    /// array, written in runs, in an element of its own id after the script — parsed after the page is
    /// drawn, so that a large trace's rows do not hold back its first paint.
    public static func page(mode: String, title: String, head: String = "", after: [(id: String, runs: [[UInt8]])] = [],
                            appendMembers: (inout [UInt8]) -> Void) -> [UInt8] {
        joined(pieces(mode: mode, title: title, head: head, after: after, appendMembers: appendMembers))
    }

    /// The pieces of a page as one buffer, made once at its whole size.
    public static func joined(_ pieces: [[UInt8]]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(pieces.reduce(0) { $0 + $1.count })
        for piece in pieces { output += piece }
        return output
    }

    /// The page `page(mode:title:head:after:appendMembers:)` makes, as the pieces that make it in
    /// order, to be written one after another: a run of `after` with nothing to escape is its piece
    /// as it is, so that a large page is never copied whole in memory.
    public static func pieces(mode: String, title: String, head: String = "", after: [(id: String, runs: [[UInt8]])] = [],
                              appendMembers: (inout [UInt8]) -> Void) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        let elements = after.map { element in
            (id: element.id, runs: { (emit: ([UInt8]) -> Void) in for run in element.runs { emit(run) } } as ((([UInt8]) throws(Never) -> Void) throws(Never) -> Void))
        }
        write(mode: mode, title: title, head: head, after: elements, appendMembers: appendMembers) { (piece: [UInt8]) throws(Never) in pieces.append(piece) }
        return pieces
    }

    /// Writes the page `pieces(mode:title:head:after:appendMembers:)` makes, piece by piece, with
    /// `emit`; each element of `after` gives its runs one by one to the function it is handed (the
    /// rows of a long trace read back from a file), so no more than one run is held at once. An
    /// error `emit` or a run throws ends the page there.
    public static func write<Failure: Error>(mode: String, title: String, head: String = "",
                                             after: [(id: String, runs: (_ emit: ([UInt8]) throws(Failure) -> Void) throws(Failure) -> Void)] = [],
                                             appendMembers: (inout [UInt8]) -> Void, to emit: ([UInt8]) throws(Failure) -> Void) throws(Failure) {
        var output = Array("""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="mapsim \(MapSimInfo.version)">
        <link rel="icon" href="data:,">
        <title>\(escaped(title))</title>
        \(head)<style>\(PageStyle.css)</style>
        </head>
        <body>
        <main id="app"><noscript>This page draws itself with JavaScript; its data is in the element mapsim-data.</noscript></main>
        <script type="application/json" id="mapsim-data">
        """.utf8)
        let start = output.count
        JSONWriter.write(.object(JSONObject([("mode", .string(mode)), ("title", .string(title)), ("generator", .string("mapsim \(MapSimInfo.version)"))])),
                         into: &output)
        output.removeLast()
        appendMembers(&output)
        output.append(UInt8(ascii: "}"))
        if output[start...].contains(UInt8(ascii: "<")) {
            let data = Array(output[start...])
            output.removeSubrange(start...)
            appendEmbedded(data, to: &output)
        }
        output += Array("</script>\n<script>\(PageScript.source)</script>\n".utf8)
        try emit(output)
        for element in after {
            try emit(Array("<script type=\"application/json\" id=\"\(escaped(element.id))\">[".utf8))
            try element.runs { (run: [UInt8]) throws(Failure) in
                guard run.contains(UInt8(ascii: "<")) else { return try emit(run) }
                var embedded: [UInt8] = []
                appendEmbedded(run, to: &embedded)
                try emit(embedded)
            }
            try emit(Array("]</script>\n".utf8))
        }
        try emit(Array("</body>\n</html>\n".utf8))
    }

    /// Appends `json` to `output` made safe inside a `<script>` element: every `<` (only ever inside
    /// a string) written as `\u003c`, so that no `</script>` in the data can end the element. It is
    /// rarely there: then `json` is copied whole.
    private static func appendEmbedded(_ json: [UInt8], to output: inout [UInt8]) {
        guard json.contains(UInt8(ascii: "<")) else {
            output += json
            return
        }
        var from = 0
        while let less = json[from...].firstIndex(of: UInt8(ascii: "<")) {
            output += json[from..<less]
            output += Array("\\u003c".utf8)
            from = less + 1
        }
        output += json[from...]
    }

    /// `text` with the characters HTML gives a meaning to escaped.
    public static func escaped(_ text: String) -> String {
        var output = ""
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            default: output.append(character)
            }
        }
        return output
    }
}
