/// The payload of render-frame-finished.
public struct RenderFrameFinished: Sendable, Equatable {
    /// Whether everything visible was drawn.
    public enum Mode: String, Sendable {
        case partial, full
    }

    /// Full when the style is loaded and every visible tile is complete (`render-mode`).
    public var renderMode: Mode
    /// Whether another frame is needed because something is animating (`needs-repaint`).
    public var needsRepaint: Bool
    /// Whether symbol placement changed in this frame (`placement-changed`).
    public var placementChanged: Bool

    /// A payload.
    public init(renderMode: Mode, needsRepaint: Bool, placementChanged: Bool) {
        self.renderMode = renderMode
        self.needsRepaint = needsRepaint
        self.placementChanged = placementChanged
    }
}
