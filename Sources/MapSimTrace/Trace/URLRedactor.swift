import MapSim

/// Removes secrets from what a trace or printout shows: the values of query parameters such as
/// `access_token` become `REDACTED`, wherever they appear — request URLs and error messages alike.
public struct URLRedactor: Sendable, Equatable {
    /// The query parameters whose values are secret (compared case-insensitively).
    public var parameters: [String]

    /// The parameters redacted by default.
    public static let defaultParameters = ["access_token", "api_key", "apikey", "key", "token", "secret", "sig", "signature", "password"]

    /// A redactor for `parameters`.
    public init(parameters: [String] = URLRedactor.defaultParameters) {
        self.parameters = parameters.map { $0.lowercased() }
    }

    /// `text` with the value of every secret parameter after `?` or `&` replaced by `REDACTED`.
    public func redact(_ text: String) -> String {
        // Bytes, not Foundation's substring search: this runs on every event of a recording.
        guard text.utf8.contains(UInt8(ascii: "=")) else { return text }
        var result = ""
        var rest = Substring(text)
        while let separator = rest.firstIndex(where: { $0 == "?" || $0 == "&" }) {
            result += rest[...separator]
            rest = rest[rest.index(after: separator)...]
            guard let equals = rest.firstIndex(of: "="), rest[..<equals].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }),
                  parameters.contains(rest[..<equals].lowercased()) else { continue }
            result += rest[...equals] + "REDACTED"
            rest = rest[rest.index(after: equals)...]
            let end = rest.firstIndex { $0 == "&" || $0 == "#" || $0 == " " || $0 == "\"" || $0 == ")" || $0 == "," || $0 == "\n" || $0 == ":" } ?? rest.endIndex
            rest = rest[end...]
        }
        return result + rest
    }

    /// `event` with secrets removed from its URLs and messages.
    public func redact(_ event: MapEvent) -> MapEvent {
        var event = event
        switch event.payload {
        case .resourceRequest(var request):
            request.request.url = redact(request.request.url)
            if let message = request.response?.error?.message {
                request.response?.error?.message = redact(message)
            }
            event.payload = .resourceRequest(request)
        case .mapLoadingError(var error):
            error.message = redact(error.message)
            event.payload = .mapLoadingError(error)
        default:
            break
        }
        return event
    }
}
