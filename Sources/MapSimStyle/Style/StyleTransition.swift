/// The style's `transition`: how long paint property changes animate, in milliseconds.
public struct StyleTransition: Sendable, Equatable {
    /// Duration in milliseconds (default 300).
    public var duration: Int64
    /// Delay before the transition starts, in milliseconds (default 0).
    public var delay: Int64

    /// A transition of `duration` ms after `delay` ms.
    public init(duration: Int64 = 300, delay: Int64 = 0) {
        self.duration = duration
        self.delay = delay
    }
}
