/// Why `mapsim serve` cannot serve what it was given: a style that is not a file or not JSON, a
/// folder that is not one, an address it cannot listen on.
public struct ServeError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
