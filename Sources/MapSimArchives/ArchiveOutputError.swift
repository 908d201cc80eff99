/// Why an archive cannot be written where it was asked to be.
struct ArchiveOutputError: Error, CustomStringConvertible {
    /// The kind of an archive output error.
    struct Code: Sendable, Hashable {
        private enum Base: Sendable, Hashable {
            case cannotWrite
        }

        private let base: Base

        /// The archive's file cannot be made or replaced.
        static let cannotWrite = Code(base: .cannotWrite)
    }

    /// The kind of error.
    let code = Code.cannotWrite
    let description: String
    init(_ description: String) { self.description = description }
}
