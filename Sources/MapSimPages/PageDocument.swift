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
    /// large trace is never held as values or as a second copy of its text.
    public static func page(mode: String, title: String, head: String = "", appendMembers: (inout [UInt8]) -> Void) -> [UInt8] {
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
        // Every `<` (only ever inside a string) written as `\u003c`, so that no `</script>` in the
        // data can end the element; rarely there, so the data is copied only when it is.
        if output[start...].contains(UInt8(ascii: "<")) {
            let data = Array(output[start...])
            output.removeSubrange(start...)
            output.reserveCapacity(output.count + data.count + data.count / 64)
            var from = 0
            while let less = data[from...].firstIndex(of: UInt8(ascii: "<")) {
                output += data[from..<less]
                output += Array("\\u003c".utf8)
                from = less + 1
            }
            output += data[from...]
        }
        output += Array("</script>\n<script>\(PageScript.source)</script>\n</body>\n</html>\n".utf8)
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
}
