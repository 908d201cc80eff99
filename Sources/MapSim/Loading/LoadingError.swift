/// An error of the loading domain: a resource whose bytes are not what its kind requires (a
/// truncated tile, a broken sprite, …), or a map call that cannot be carried out (an unknown source,
/// a source in use, …). `message` names the resource or call and what is wrong; `code` tells the
/// kinds apart.
public struct LoadingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a loading error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case malformedResource, invalidCall
        }

        private let base: Base

        /// Bytes that are not what their kind requires.
        public static let malformedResource = Code(base: .malformedResource)
        /// A map call that cannot be carried out in the map's current state.
        public static let invalidCall = Code(base: .invalidCall)
    }

    /// The kind of error.
    public let code: Code
    /// What is wrong, and where in the data or which call.
    public let message: String

    /// Bytes that are not what their kind requires; `message` says where in the data.
    public static func malformedResource(_ message: String) -> LoadingError { LoadingError(code: .malformedResource, message: message) }

    /// A map call that cannot be carried out in the map's current state.
    public static func invalidCall(_ message: String) -> LoadingError { LoadingError(code: .invalidCall, message: message) }

    public var description: String { message }
}
