#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOPosix

/// Network errors in words, for the messages users read: the HTTP loader's, the MQTT client's,
/// the WebSocket feed's.
public enum ConnectionFailure {
    /// Why connecting failed, in words: "Connection refused" rather than NIO's structure.
    public static func reason(_ error: any Error) -> String {
        if let failure = error as? NIOConnectionError {
            if let first = failure.connectionErrors.first { return reason(first.error) }
            if failure.dnsAError != nil || failure.dnsAAAAError != nil { return "the host name does not resolve" }
        }
        if let failure = error as? IOError { return String(cString: strerror(failure.errnoCode)) }
        if let failure = error as? ChannelError, case .connectTimeout = failure { return "no answer in time" }
        return "\(error)"
    }
}
