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
        let (descriptor, port) = try LoopbackSocket.listen()
        self.port = port
        socketDescriptor = descriptor
        let held = held
        thread = Thread {
            while true {
                let client = accept(descriptor, nil, nil)
                if client < 0 {
                    // Closed here, not by `stop()`: a number closed there could be another
                    // server's socket before this thread is back in `accept`.
                    close(descriptor)
                    return
                }
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
        for client in held.clients.withLock({ clients in defer { clients = [] }; return clients }) { close(client) }
    }
}

/// The connections a holding server keeps open, shared with its accepting thread.
private final class HeldConnections: Sendable {
    let clients = Mutex<[Int32]>([])
}
