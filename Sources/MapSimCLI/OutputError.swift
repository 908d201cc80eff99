import ArgumentParser
import MapSim
import MapSimCache
import MapSimStyle
import MapSimTrace

/// An output file or stream that cannot be written (exit 74).
struct OutputError: Error, CustomStringConvertible {
    /// What could not be written, and why.
    var message: String
    let status: Int32 = 74

    var description: String { message }
}
