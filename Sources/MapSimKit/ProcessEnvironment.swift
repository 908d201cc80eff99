#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's environment variables, read one at a time: Foundation's
/// `ProcessInfo.environment` copies every variable into a dictionary first, which was a tenth of a
/// `load`'s start-up.
public enum ProcessEnvironment {
    /// The value of the variable `name`, nil when it is not set.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
