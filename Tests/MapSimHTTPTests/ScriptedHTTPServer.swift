#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import MapSimTesting
import Synchronization

/// A TCP server on 127.0.0.1 that answers each request it reads (up to its blank line) with the
/// next of its scripted answers, raw bytes, and closes the connection after those that say so:
/// for answers no well-behaved server library writes (a body cut short, one ended by closing, an
/// informational answer first).
final class ScriptedHTTPServer: Sendable {
    /// One answer: its bytes, and whether the connection is closed after them, and if so whether it
    /// is reset (an RST, as a server that closes with a request unread sends) rather than ended.
    struct Answer: Sendable {
        let bytes: [UInt8]
        let closes: Bool
        let resets: Bool

        init(_ text: String, closes: Bool = false, resets: Bool = false) {
            self.init(bytes: Array(text.utf8), closes: closes, resets: resets)
        }

        init(bytes: [UInt8], closes: Bool = false, resets: Bool = false) {
            self.bytes = bytes
            self.closes = closes || resets
            self.resets = resets
        }
    }

    private struct State {
        var answers: [Answer]
        var requestLines: [String] = []
        var connections = 0
        var clients: [Int32] = []
    }

    /// The port it listens on.
    let port: Int
    private let descriptor: Int32
    private let state: Mutex<State>

    init(_ answers: [Answer]) throws {
        let (descriptor, port) = try LoopbackSocket.listen()
        self.port = port
        self.descriptor = descriptor
        state = Mutex(State(answers: answers))
        Thread { [self] in
            while true {
                let client = accept(descriptor, nil, nil)
                if client < 0 {
                    // Closed here, not by `stop()`: a number closed there could be another
                    // server's socket before this thread is back in `accept`.
                    close(descriptor)
                    return
                }
                state.withLock { state in
                    state.connections += 1
                    state.clients.append(client)
                }
                Thread { self.serve(client) }.start()
            }
        }.start()
    }

    /// The request lines received (`GET /path HTTP/1.1`), in order.
    var requestLines: [String] { state.withLock { $0.requestLines } }
    /// How many connections were accepted.
    var connections: Int { state.withLock { $0.connections } }

    /// Stops listening and closes every connection.
    func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        state.withLock { state in
            for client in state.clients { shutdown(client, Int32(SHUT_RDWR)) }
        }
    }

    private func serve(_ client: Int32) {
        defer {
            state.withLock { state in
                state.clients.removeAll { $0 == client }
                close(client)
            }
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let blankLine = Array("\r\n\r\n".utf8)
        while true {
            while received.firstRange(of: blankLine) == nil {
                let count = read(client, &buffer, buffer.count)
                if count <= 0 { return }
                received += buffer[..<count]
            }
            let end = received.firstRange(of: blankLine)!.upperBound
            let line = String(decoding: received[..<(received.firstRange(of: Array("\r\n".utf8))!.lowerBound)], as: UTF8.self)
            received.removeFirst(end)
            let answer = state.withLock { state -> Answer? in
                state.requestLines.append(line)
                return state.answers.isEmpty ? nil : state.answers.removeFirst()
            }
            guard let answer else { return }
            _ = answer.bytes.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            if answer.resets {
                var linger = linger(l_onoff: 1, l_linger: 0)
                setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
                return
            }
            if answer.closes {
                shutdown(client, Int32(SHUT_RDWR))
                return
            }
        }
    }
}
