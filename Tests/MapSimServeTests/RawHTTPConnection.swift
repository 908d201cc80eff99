import Foundation
import MapSimTesting
#if canImport(Glibc)
import Glibc
#endif

/// One TCP connection to a loopback server, spoken to in bytes: requests written as they are
/// (pipelined, oversized), answers read one at a time, and whether the server closed it. Every read
/// gives up after `timeout` (a minute: in a busy run the server's tasks may wait long for a thread of
/// the pool), so a server that never answers fails the test instead of holding it.
///
/// A read blocks a thread of its own, never one of the concurrency pool's: the server under test
/// answers on that pool (its conditions, its tasks), and with the pool's few threads held by tests
/// waiting for it — this one, another busy one — it could not answer before the timeout.
final class RawHTTPConnection {
    /// One answer: its status, headers (names lowercased) and body.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    private let descriptor: Int32
    private var buffered: [UInt8] = []

    /// Connects to 127.0.0.1:`port`.
    init(port: Int, timeout: Int = 60) throws {
        guard let descriptor = LoopbackPort.connectedSocket(port, receiveTimeout: timeout) else { throw POSIXError(.ECONNREFUSED) }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Writes `text` as it is.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return }
            sent += written
        }
    }

    /// The next answer, nil when the connection closed (or nothing came in time) before a whole one.
    /// `bodyless` for the answer to a `HEAD`, whose length is not followed by a body.
    func answer(bodyless: Bool = false) async -> Answer? {
        while true {
            if let end = headEnd() {
                let head = String(decoding: buffered[..<end], as: UTF8.self).components(separatedBy: "\r\n")
                let parts = head[0].split(separator: " ")
                guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
                var headers: [String: String] = [:]
                for line in head.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                let length = bodyless || status == 204 || status == 304 ? 0 : Int(headers["content-length"] ?? "0") ?? 0
                while buffered.count < end + 4 + length {
                    guard await receive() else { return nil }
                }
                let body = Array(buffered[(end + 4)..<(end + 4 + length)])
                buffered.removeFirst(end + 4 + length)
                return Answer(status: status, headers: headers, body: body)
            }
            guard await receive() else { return nil }
        }
    }

    /// Whether the server closes the connection (rather than sending more) within the timeout.
    func isClosedByServer() async -> Bool {
        await Self.read(descriptor, upTo: 1).count == 0
    }

    private func headEnd() -> Int? {
        guard buffered.count >= 4 else { return nil }
        for index in 0...(buffered.count - 4) where buffered[index] == 13 && buffered[index + 1] == 10 && buffered[index + 2] == 13 && buffered[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// Reads what has come; false when the connection closed or nothing came in time.
    private func receive() async -> Bool {
        let (count, bytes) = await Self.read(descriptor, upTo: 65_536)
        guard count > 0 else { return false }
        buffered += bytes
        return true
    }

    /// One `recv` of at most `capacity` bytes, on a thread of its own: what it returned (0 when the
    /// server closed the connection, -1 when nothing came in time) and the bytes read.
    private static func read(_ descriptor: Int32, upTo capacity: Int) async -> (count: Int, bytes: [UInt8]) {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var chunk = [UInt8](repeating: 0, count: capacity)
                let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                continuation.resume(returning: (count, Array(chunk.prefix(max(count, 0)))))
            }
        }
    }
}
