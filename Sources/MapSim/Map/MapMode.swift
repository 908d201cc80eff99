/// How the map renders, as the SDKs' map modes: continuously, as an interactive map does, or one
/// still image, as a static renderer (and MapLibre Native run headless through pymgl) does.
public enum MapMode: String, Sendable, CaseIterable {
    /// Frames while anything changes; transitions and fades animate; a failed glyph range is reported
    /// and the map carries on without those glyphs.
    case continuous
    /// One image once everything has loaded: no transitions or fades, and a glyph range that fails
    /// to load fails the image (map-loading-error, and the load stops), as MapLibre's still mode does.
    case still
}
