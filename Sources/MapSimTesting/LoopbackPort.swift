import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Ports on 127.0.0.1 for the real servers tests start (Mosquitto, nginx): a free one, and waiting
/// until a server listens on it.
public enum LoopbackPort {
    /// A TCP port on 127.0.0.1 that nothing listens on now, below the kernel's ephemeral range:
    /// a server or client that asks the kernel for any port (port 0) never gets it between this
    /// check and the test server's own bind — so a broker that could not bind it is never mistaken
    /// for another test's server listening there. Ports are handed out in turn within the process.
    public static func free() throws -> Int {
        let (low, count) = Self.range
        for _ in 0..<count {
            let port = low + next.withLock { value in
                defer { value = (value + 1) % count }
                return value
            }
            if isBindable(port) { return port }
        }
        throw TestSupportError(.cannotStart, "cannot find a free port in \(low)..<\(low + count)")
    }

    /// The ports `free` hands out: the 8,192 below the kernel's ephemeral range.
    private static let range: (low: Int, count: Int) = {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let ephemeral = text.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32_768
        let count = min(8_192, max(1_024, ephemeral - 1_024))
        return (ephemeral - count, count)
    }()

    /// The next offset into `range`, starting where the process's id puts it (so that two test
    /// processes at once start apart).
    private static let next = Mutex(Int(getpid()) % 8_192 % max(1, range.count))

    /// Whether a listening socket could bind 127.0.0.1:`port` now.
    private static func isBindable(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    /// Whether something accepts connections on 127.0.0.1 at `port` within a few seconds of trying.
    public static func waitUntilListening(_ port: Int) -> Bool {
        for attempt in 0..<200 {
            if let descriptor = connectedSocket(port) {
                close(descriptor)
                return true
            }
            // The server is starting: it is its readiness that is waited for, not a duration.
            usleep(useconds_t(min(50_000, 1_000 * (attempt + 1))))
        }
        return false
    }

    /// A blocking TCP socket connected to 127.0.0.1:`port` (the caller closes it), nil when nothing
    /// accepts there; reads give up after `receiveTimeout` seconds.
    public static func connectedSocket(_ port: Int, receiveTimeout: Int = 10) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var wait = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        // With nothing listening on a free port, the kernel may give the connection that very
        // port as its own and connect it to itself (TCP's simultaneous open): nothing listened.
        guard connected, localPort(of: descriptor) != port else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// The local port a socket is bound to.
    private static func localPort(of descriptor: Int32) -> Int? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) == 0 }
        }
        return named ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }
}
