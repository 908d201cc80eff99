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
    public var html: String {
        var object = JSONObject([("mode", .string(mode)), ("title", .string(title)), ("generator", .string("mapsim \(MapSimInfo.version)"))])
        for member in data.members { object[member.key] = member.value }
        var output = """
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
        """
        output.reserveCapacity(output.utf8.count + PageScript.source.utf8.count + 1024)
        output += Self.embedded(JSONWriter.string(.object(object)))
        output += "</script>\n<script>\(PageScript.source)</script>\n</body>\n</html>\n"
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

    /// JSON made safe inside a `<script>` element: every `<` (only ever inside a string) written as
    /// `\u003c`, so no `</script>` in the data can end the element.
    static func embedded(_ json: String) -> String {
        guard json.utf8.contains(UInt8(ascii: "<")) else { return json }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(json.utf8.count + 64)
        for byte in json.utf8 {
            if byte == UInt8(ascii: "<") { bytes += Array("\\u003c".utf8) } else { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
