import Foundation

/// Where the per-user cache lives.
public enum CacheLocation {
    /// `$XDG_CACHE_HOME/mapsim/cache.db`, else `~/.cache/mapsim/cache.db` (`~/Library/Caches` on macOS).
    public static var defaultPath: String {
        let environment = ProcessInfo.processInfo.environment
        #if os(macOS)
        let base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent("Library/Caches").path
        #else
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache").path
        #endif
        return base + "/mapsim/cache.db"
    }
}
