import Foundation

/// Where the per-user cache lives. The home folder is looked up only when the path is asked for:
/// a run without that cache never reads the user database.
public enum CacheLocation {
    /// The default path in words, for help texts (which must not look the home folder up).
    public static var defaultDescription: String {
        #if os(macOS)
        "~/Library/Caches/mapsim/cache.db"
        #else
        "$XDG_CACHE_HOME/mapsim/cache.db, else ~/.cache/mapsim/cache.db"
        #endif
    }

    /// `$XDG_CACHE_HOME/mapsim/cache.db`, else `~/.cache/mapsim/cache.db` (`~/Library/Caches` on macOS),
    /// `~` being `$HOME` as the shell has it — a CI job or a script that sets `HOME` to a folder of its
    /// own gets its cache there — and the user's home folder only when `HOME` is not set. As the XDG
    /// base directory specification says, a relative `XDG_CACHE_HOME` is not a place: it is ignored.
    public static var defaultPath: String {
        #if os(macOS)
        let base = home + "/Library/Caches"
        #else
        let base = absolute(ProcessEnvironment.value("XDG_CACHE_HOME")) ?? home + "/.cache"
        #endif
        return base + "/mapsim/cache.db"
    }

    /// `$HOME`, else the user's home folder from the user database.
    private static var home: String {
        absolute(ProcessEnvironment.value("HOME")) ?? FileManager.default.homeDirectoryForCurrentUser.path
    }

    /// `path` when it is an absolute path.
    private static func absolute(_ path: String?) -> String? {
        path.flatMap { $0.hasPrefix("/") ? $0 : nil }
    }
}
