import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 client for load: blocking sockets to 127.0.0.1, keep-alive, one request at a
/// time per connection, the answer read to its `Content-Length`.
enum LoopbackClient {
    /// Sends `requests` GETs of `path` over `connections` connections, each on its own thread,
    /// waiting without holding a thread of Swift's cooperative pool (the server answers on it);
    /// returns how many were answered 200.
    static func run(port: Int, path: String, connections: Int, requests: Int) async -> Int {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: runBlocking(port: port, path: path, connections: connections, requests: requests)) }.start()
        }
    }

    private static func runBlocking(port: Int, path: String, connections: Int, requests: Int) -> Int {
        let answered = RequestCounter()
        let group = DispatchGroup()
        for lane in 0..<connections {
            let share = requests / connections + (lane < requests % connections ? 1 : 0)
            group.enter()
            Thread {
                defer { group.leave() }
                guard let connection = try? LoopbackConnection(port: port) else { return }
                var ok = 0
                for _ in 0..<share where connection.get(path) == 200 { ok += 1 }
                answered.add(ok)
            }.start()
        }
        group.wait()
        return answered.value
    }
}

/// A count that threads and the server's report add to.
final class RequestCounter: Sendable {
    private let count = Mutex(0)
    func add(_ value: Int) { count.withLock { $0 += value } }
    var value: Int { count.withLock { $0 } }
}

/// One keep-alive connection.
final class LoopbackConnection: @unchecked Sendable {
    private let socket: Int32
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var pending: [UInt8] = []

    init(port: Int) throws {
        guard let socket = Self.connected(port: port) else { throw POSIXError(.ECONNREFUSED) }
        self.socket = socket
        var one: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(socket) }

    /// A socket connected to 127.0.0.1:`port`, or nil when the connection is refused.
    static func connected(port: Int) -> Int32? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            return nil
        }
        return socket
    }

    /// GETs `path`; the status, or 0 when the connection failed.
    func get(_ path: String) -> Int {
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, 0) }) == request.count else { return 0 }
        // The head, then the body to its length.
        var headEnd: Int?
        while true {
            if let end = Self.headEnd(pending) { headEnd = end; break }
            guard fill() else { return 0 }
        }
        guard let headEnd else { return 0 }
        let head = String(decoding: pending[..<headEnd], as: UTF8.self)
        let status = Int(head.split(separator: " ", maxSplits: 2).dropFirst().first ?? "") ?? 0
        let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        let total = headEnd + 4 + length
        while pending.count < total { guard fill() else { return 0 } }
        pending.removeFirst(total)
        return status
    }

    private func fill() -> Bool {
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        pending.append(contentsOf: buffer[..<count])
        return true
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}
