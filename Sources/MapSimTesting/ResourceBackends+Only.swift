import MapSim

extension ResourceBackends {
    /// Backends for a small test: every URL, files and network alike, through one loader, and no cache.
    public static func only(_ loader: any ResourceLoader) -> ResourceBackends {
        ResourceBackends(file: loader, network: loader)
    }
}
