/// Why an archive cannot be written where it was asked to be.
struct ArchiveOutputError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
