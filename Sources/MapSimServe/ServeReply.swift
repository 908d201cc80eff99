/// How `mapsim serve` replies to one request: an answer, an answer whose body is cut halfway (a
/// fault), or no answer and the connection dropped (a fault or an offline window).
enum ServeReply: Sendable {
    /// The whole answer; a `HEAD` request's carries no body.
    case answer(FileAnswer)
    /// The answer's headers, with the whole length, and half its body; then the connection closes.
    case truncated(FileAnswer)
    /// The connection closes without an answer.
    case drop
}
