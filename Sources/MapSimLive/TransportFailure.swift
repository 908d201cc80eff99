import Foundation
import NIOCore
import NIOPosix

/// Why a connection of live data's transports (the MQTT client, the WebSocket feed client) failed,
/// in the words users read: "Connection refused" rather than NIO's structure.
enum TransportFailure {
    static func reason(_ error: any Error) -> String {
        if let failure = error as? NIOConnectionError {
            if let first = failure.connectionErrors.first { return reason(first.error) }
            if failure.dnsAError != nil || failure.dnsAAAAError != nil { return "the host name does not resolve" }
        }
        if let failure = error as? IOError { return String(cString: strerror(failure.errnoCode)) }
        if let failure = error as? ChannelError, case .connectTimeout = failure { return "no answer in time" }
        return "\(error)"
    }
}
