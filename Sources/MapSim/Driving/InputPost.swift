/// How work performed beside a drive loop (`DriveAction.perform`) hands inputs to the loop's machine,
/// from any task: as a channel's inbound events reach its pipeline on its event loop.
public struct InputPost<Input: Sendable>: Sendable {
    private let deliver: @Sendable (Input) -> Void

    /// Posts through `deliver`.
    init(_ deliver: @escaping @Sendable (Input) -> Void) {
        self.deliver = deliver
    }

    /// Hands `input` to the machine; it is fed when the loop next takes what has arrived.
    public func callAsFunction(_ input: Input) {
        deliver(input)
    }

    /// A post of inputs that `transform` makes into this one's.
    public func map<Other: Sendable>(_ transform: @escaping @Sendable (Other) -> Input) -> InputPost<Other> {
        InputPost<Other> { self.deliver(transform($0)) }
    }
}
