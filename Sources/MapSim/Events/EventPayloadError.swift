/// An event's data object (live, dynamic-entity or content) lacks a key, or has it with the wrong
/// type. `code` tells the kinds apart.
public struct EventPayloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a payload error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case missingOrInvalid
        }

        private let base: Base

        /// A key is missing, or its value has the wrong type.
        public static let missingOrInvalid = Code(base: .missingOrInvalid)
    }

    /// The kind of error.
    public let code: Code
    /// The key.
    public let key: String

    /// An error of kind `code` about `key`.
    public init(_ code: Code = .missingOrInvalid, key: String) {
        self.code = code
        self.key = key
    }

    public var description: String { "missing or invalid \"\(key)\"" }
}
