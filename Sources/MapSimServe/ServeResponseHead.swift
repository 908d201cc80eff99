import NIOCore
import NIOHTTP1

/// The bytes of an answer of `mapsim serve` on the wire, head and body in one buffer, framed as
/// NIO's response encoder frames them: the status line in the request's HTTP version, the answer's
/// headers, `Content-Length` (none for 1xx, 204 and 304, which carry no body; a `HEAD`'s says what
/// a `GET` would carry), `Date`, and `Connection` when it differs from the version's default; the
/// body only for a status that has one.
enum ServeResponseHead {
    /// The answer's bytes: its head, then `body` (the answer's body, or the part of it that is sent).
    static func encode(_ answer: FileAnswer, version: HTTPVersion, keepAlive: Bool, date: String, body: ArraySlice<UInt8>,
                       allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: 320 + body.count)
        if version == .http1_1 {
            buffer.writeStaticString("HTTP/1.1 ")
        } else {
            buffer.writeString("HTTP/\(version.major).\(version.minor) ")
        }
        let status = HTTPResponseStatus(statusCode: answer.status)
        buffer.writeString(String(answer.status))
        buffer.writeStaticString(" ")
        buffer.writeString(status.reasonPhrase)
        buffer.writeStaticString("\r\n")
        for (name, value) in answer.headers {
            buffer.writeString(name)
            buffer.writeStaticString(": ")
            buffer.writeString(value)
            buffer.writeStaticString("\r\n")
        }
        if status.mayHaveResponseBody {
            buffer.writeStaticString("Content-Length: ")
            buffer.writeString(String(answer.contentLength))
            buffer.writeStaticString("\r\n")
        }
        buffer.writeStaticString("Date: ")
        buffer.writeString(date)
        buffer.writeStaticString("\r\n")
        if !keepAlive {
            buffer.writeStaticString("Connection: close\r\n")
        } else if version == .http1_0 {
            buffer.writeStaticString("Connection: keep-alive\r\n")
        }
        buffer.writeStaticString("\r\n")
        // A 204, a 304 or a 1xx ends with its head: a body after it would be read as the next answer.
        if status.mayHaveResponseBody { buffer.writeBytes(body) }
        return buffer
    }

    /// The answer to a request that cannot be read: 400, no body, and the connection closes.
    static func writeBadRequest(into buffer: inout ByteBuffer) {
        buffer.writeStaticString("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
    }
}
