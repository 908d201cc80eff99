#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// A TCP server on 127.0.0.1 that accepts connections and never answers: it closes each at once
/// (a dropped connection), or holds it open until it stops (a server that hangs), for tests — or
/// answers only once the client has sent given bytes (what a client must send before any answer).
public final class DroppingServer: @unchecked Sendable {
    /// What the server does with a connection it accepted.
    public enum Behaviour: Sendable {
        /// Reads the request and closes the connection.
        case drop
        /// Reads the request and keeps the connection open, answering nothing, until `stop()`.
        case hold
        /// Reads until the client has sent `bytes` (anywhere in what it sent), then writes `answer`
        /// and keeps the connection open until `stop()`; a client that never sends them is never answered.
        case answerAfter(_ bytes: [UInt8], answer: [UInt8])
    }

    /// The port it listens on.
    public let port: Int
    private let socketDescriptor: Int32
    private let thread: Thread
    private let held = HeldConnections()

    /// Starts listening on an ephemeral port.
    public init(_ behaviour: Behaviour = .drop) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        socketDescriptor = descriptor
        let held = held
        thread = Thread {
            while true {
                let client = accept(descriptor, nil, nil)
                if client < 0 { return }
                switch behaviour {
                case .drop:
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    _ = read(client, &buffer, buffer.count)
                    close(client)
                case .hold:
                    held.clients.withLock { $0.append(client) }
                case .answerAfter(let expected, let answer):
                    held.clients.withLock { $0.append(client) }
                    var received: [UInt8] = []
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    while !received.contains(expected) {
                        let count = read(client, &buffer, buffer.count)
                        if count <= 0 { break }
                        received += buffer[..<count]
                    }
                    if received.contains(expected) { _ = write(client, answer, answer.count) }
                }
            }
        }
        thread.start()
    }

    /// Stops listening, and closes the connections it held.
    public func stop() {
        shutdown(socketDescriptor, Int32(SHUT_RDWR))
        close(socketDescriptor)
        for client in held.clients.withLock({ clients in defer { clients = [] }; return clients }) { close(client) }
    }
}

/// The connections a holding server keeps open, shared with its accepting thread.
private final class HeldConnections: Sendable {
    let clients = Mutex<[Int32]>([])
}
