import ArgumentParser
import Foundation
import MapSimKit

/// `URLPREFIX=DIR` on the command line.
struct MirrorArgument: ExpressibleByArgument {
    var value: SimulatedNetwork.Mirror

    init?(argument: String) {
        guard let equals = argument.range(of: "=", options: .backwards) else { return nil }
        let prefix = String(argument[..<equals.lowerBound])
        let directory = String(argument[equals.upperBound...])
        guard URLResolver.scheme(of: prefix) != nil, !directory.isEmpty else { return nil }
        value = SimulatedNetwork.Mirror(prefix: prefix, directory: URL(fileURLWithPath: directory).standardizedFileURL.path)
    }
}
