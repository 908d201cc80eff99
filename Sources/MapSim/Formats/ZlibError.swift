/// Bytes that do not inflate: the reason zlib gave, or the size limit they would pass.
public struct ZlibError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of a zlib error.
    public struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case corrupt, tooLarge
        }

        private let base: Base

        /// The bytes are not a zlib or gzip stream zlib can inflate.
        public static let corrupt = Code(base: .corrupt)
        /// They would inflate past the size allowed.
        public static let tooLarge = Code(base: .tooLarge)
    }

    /// The kind of error.
    public let code: Code
    /// Why.
    public let reason: String

    init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    init(_ reason: String) {
        self.init(.corrupt, reason)
    }

    public var description: String { reason }
}
