import ArgumentParser

/// `mqtt://HOST[:PORT]` on the command line (port 1883 when left out).
struct BrokerArgument: ExpressibleByArgument {
    var host: String
    var port: Int

    init?(argument: String) {
        guard argument.hasPrefix("mqtt://") else { return nil }
        var rest = argument.dropFirst("mqtt://".count)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.isEmpty, !rest.contains("/") else { return nil }
        if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
            guard let port = Int(rest[rest.index(after: colon)...]), (1...65_535).contains(port) else { return nil }
            self.port = port
            rest = rest[..<colon]
        } else {
            port = 1883
        }
        host = rest.hasPrefix("[") && rest.hasSuffix("]") ? String(rest.dropFirst().dropLast()) : String(rest)
        guard !host.isEmpty else { return nil }
    }

    var defaultValueDescription: String { "mqtt://\(host):\(port)" }
}
