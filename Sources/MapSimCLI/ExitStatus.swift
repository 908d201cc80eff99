import ArgumentParser
import MapSim
import MapSimCache
import MapSimStyle
import MapSimTrace

/// The exit status of each kind of error, in one place (the README documents them): 1 a style or
/// resource that cannot be used, or a region download that failed; 2 an input file that cannot be
/// read (a trace, a scenario); 74 a file that cannot be written, or a cache that cannot be opened.
enum ExitStatus {
    /// The status for `error`.
    static func code(for error: any Error) -> Int32 {
        switch error {
        case let error as CacheError: error.code == .downloadFailed ? 1 : 74
        case let error as TraceError: error.code == .cannotWrite ? 74 : 2
        case let error as ScenarioError: error.code == .cannotRun ? 1 : 2
        case is StyleError, is LoadingError: 1
        default: 1
        }
    }

    /// Prints `error` to standard error and returns the exit that reports it.
    static func fail(_ error: any Error) -> ExitCode {
        printError("mapsim: \(error)")
        return ExitCode(code(for: error))
    }
}
