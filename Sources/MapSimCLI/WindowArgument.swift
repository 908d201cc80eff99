import ArgumentParser
import Foundation
import MapSimKit

/// `START-END` on the command line: two durations (`3-5`, `500ms-2s`, `1min-90s`; a bare number
/// is seconds), START before END.
struct WindowArgument: ExpressibleByArgument {
    var value: Range<SimTime>

    init?(argument: String) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false).map { SimTime(parsing: String($0)) }
        guard parts.count == 2, let start = parts[0], let end = parts[1], start < end else { return nil }
        value = start..<end
    }
}
