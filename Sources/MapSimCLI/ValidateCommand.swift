import ArgumentParser
import Foundation
import MapSim

/// `mapsim validate FILE...`: check styles against the style spec, as gl-style-validate does.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check styles against the style spec v8, with gl-style-validate's messages.",
        discussion: """
        Prints FILE:LINE: message for each problem and nothing for a valid style; --json prints \
        [{"message": ..., "line": ...}] as gl-style-validate --json does. "-" reads standard input.

        In progress: root properties, sources, layers and plain property values are checked; \
        expressions, filters and legacy functions are not checked yet.

        Exit status: 0 when every style is valid, 1 when one is not, 2 when a file cannot be read.
        """
    )

    @Argument(help: "Style files; - for standard input.")
    var files: [String]

    @Flag(help: "Print the problems as JSON.")
    var json = false

    func run() throws {
        var invalid = false
        var unreadable = false
        for file in files {
            let data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: file)
            guard let data else {
                printError("mapsim: cannot read \(file)")
                unreadable = true
                continue
            }
            let diagnostics = StyleValidator.validate([UInt8](data))
            invalid = invalid || !diagnostics.isEmpty
            if json {
                print(JSONWriter.string(.array(diagnostics.map(\.json))))
            } else {
                for diagnostic in diagnostics {
                    print("\(file):\(diagnostic.line.map(String.init) ?? ""): \(diagnostic.message)")
                }
            }
        }
        if unreadable { throw ExitCode(2) }
        if invalid { throw ExitCode(1) }
    }
}
