import MapSim
import MapSimJSON

/// One self-contained HTML page of mapsim's: its styles, its script and its data inline, nothing
/// fetched, so that it opens from `file://` and as a CI artifact. The script (`PageScript`) reads the
/// data from the `mapsim-data` element and draws the page `mode` names:
///
/// - `report`: `traces`, each `{name, header: [[field, value]], duration, milestones: [[type, µs]],
///   summary, critical: {milestone, time, steps: [row]}, rows: [RequestRow], tiles: [{source, tiles}]}`;
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

    /// The HTML as UTF-8, built in one buffer: a report of a large trace is written without a
    /// copy of its data as text.
    public var bytes: [UInt8] {
        var object = JSONObject([("mode", .string(mode)), ("title", .string(title)), ("generator", .string("mapsim \(MapSimInfo.version)"))])
        for member in data.members { object[member.key] = member.value }
        var json: [UInt8] = []
        JSONWriter.write(.object(object), into: &json)
        var output = Array("""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="mapsim \(MapSimInfo.version)">
        <link rel="icon" href="data:,">
        <title>\(Self.escaped(title))</title>
        \(head)<style>\(PageStyle.css)</style>
        </head>
        <body>
        <main id="app"><noscript>This page draws itself with JavaScript; its data is in the element mapsim-data.</noscript></main>
        <script type="application/json" id="mapsim-data">
        """.utf8)
        let tail = Array("</script>\n<script>\(PageScript.source)</script>\n</body>\n</html>\n".utf8)
        output.reserveCapacity(output.count + json.count + json.count / 64 + tail.count)
        Self.appendEmbedded(json, to: &output)
        output += tail
        return output
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

    /// Appends `json` to `output` made safe inside a `<script>` element: every `<` (only ever
    /// inside a string) written as `\u003c`, so no `</script>` in the data can end the element.
    static func appendEmbedded(_ json: [UInt8], to output: inout [UInt8]) {
        var start = 0
        while let less = json[start...].firstIndex(of: UInt8(ascii: "<")) {
            output += json[start..<less]
            output += Array("\\u003c".utf8)
            start = less + 1
        }
        output += json[start...]
    }
}
