import MapSim

/// A machine attached to a map that loads nothing and follows the wall clock, the map run while it
/// is attached: how live data from a real transport runs without a map to show it on — the same
/// machine on the same loop as on a loaded map. Attached at its first use.
actor WallClockHost<Attachment: MapAttachment> {
    /// The map whose loop runs the machine.
    let map = Map.withoutStyle()
    private var pending: Attachment?
    private var id: MapAttachmentID<Attachment>?
    /// Runs the map on the wall clock until `stop()`.
    private var driver: Task<Void, Never>?

    /// A host of `machine`.
    init(_ machine: Attachment) {
        pending = machine
    }

    deinit {
        driver?.cancel()
    }

    /// The machine as it is now.
    var machine: Attachment {
        get async { await map.attachment(attached()) }
    }

    /// Hands the machine `input` now.
    func send(_ input: Attachment.Input) async {
        await map.send(input, to: attached())
    }

    /// Stops running the map.
    func stop() {
        driver?.cancel()
        driver = nil
    }

    /// The machine's attachment: attached, the map set on the wall clock and run, at its first use.
    private func attached() async -> MapAttachmentID<Attachment> {
        if let id { return id }
        guard let machine = pending.take() else { preconditionFailure("\(Attachment.self) is attached once") }
        await map.followWallClock()
        let attached = await map.attach(machine)
        id = attached
        driver = Task { [map] in
            while !Task.isCancelled { await map.advance(by: .seconds(60)) }
        }
        return attached
    }
}
