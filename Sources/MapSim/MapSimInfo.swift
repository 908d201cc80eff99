/// Facts about this build of mapsim.
public enum MapSimInfo {
    /// The version, as `mapsim --version` prints it and the `User-Agent` carries it.
    public static let version = "0.1.0"
}
