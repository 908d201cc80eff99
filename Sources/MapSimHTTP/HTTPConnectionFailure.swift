import Foundation
import NIOCore
import NIOPosix

/// Why the HTTP client could not connect, in the words users read: the host that does not resolve,
/// the socket's own error ("Connection refused") rather than NIO's structure.
enum HTTPConnectionFailure {
    static func reason(_ error: any Error) -> String {
        if let failure = error as? NIOConnectionError {
            if let first = failure.connectionErrors.first { return reason(first.error) }
            if failure.dnsAError != nil || failure.dnsAAAAError != nil { return "the host name does not resolve" }
        }
        if let failure = error as? IOError { return String(cString: strerror(failure.errnoCode)) }
        return "\(error)"
    }
}
