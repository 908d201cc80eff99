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

    /// `$XDG_CACHE_HOME/mapsim/cache.db`, else `~/.cache/mapsim/cache.db` (`~/Library/Caches` on macOS).
    public static var defaultPath: String {
        #if os(macOS)
        let base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("Library/Caches").path
        #else
        let base = ProcessEnvironment.value("XDG_CACHE_HOME").flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache").path
        #endif
        return base + "/mapsim/cache.db"
    }
}
