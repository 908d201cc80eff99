/// What a style may use that not every engine draws: each engine says which it ignores
/// (`Engine.ignores`), and a load says so once (`style-feature-ignored`).
public enum StyleFeature: String, Sendable, CaseIterable {
    /// `"projection": {"type": "globe"}` (or `vertical-perspective`).
    case globe
    /// `"terrain"` over a `raster-dem` source.
    case terrain
    /// `"type": "video"` sources.
    case video
    /// `["global-state", NAME]` and the root `state`.
    case globalState = "global-state"
    /// Mapbox's `imports` (styles loaded into the style, with their config and slots).
    case imports
}
