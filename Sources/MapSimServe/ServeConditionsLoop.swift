import MapSim

/// Runs `mapsim serve`'s conditions (`ServeConditionsMachine`) on a drive loop that follows the wall
/// clock from the moment the server starts: a request asks for its decision and gets it when its
/// delay is over, a timer of the loop; one loop decides for every connection, in the order requests
/// came, with no lock.
actor ServeConditionsLoop {
    private let loop: DriveLoop<ServeConditionsMachine, NoLoads>
    /// The requests waiting for their decisions, by number.
    private var waiting: [Int: CheckedContinuation<ServeConditionsMachine.Decision, Never>] = [:]
    private var nextRequest = 0
    private var driver: Task<Void, Never>?

    /// A loop of `machine` whose time starts now.
    init(_ machine: ServeConditionsMachine) {
        loop = DriveLoop(machine: machine, loads: NoLoads(), timing: ImmediateDelivery(), delivery: .onArrival)
    }

    /// What to do with a request for `resource` whose answer has `size` bytes, once its delay is over.
    func decide(_ resource: Resource, size: Int) async -> ServeConditionsMachine.Decision {
        if driver == nil { driver = Task { await self.drive() } }
        let number = nextRequest
        nextRequest += 1
        return await withCheckedContinuation { continuation in
            waiting[number] = continuation
            loop.feed(.request(number, resource, size: size)) { decided($0) }
        }
    }

    /// Stops the loop; a request still waiting for its delay is answered at once.
    func stop() {
        driver?.cancel()
        driver = nil
    }

    /// Steps the loop as the wall clock goes: each delay ends when its time comes.
    private func drive() async {
        while !Task.isCancelled {
            await loop.run(until: loop.now + .seconds(60)) { decided($0) }
        }
        while let next = waiting.first {
            waiting[next.key] = nil
            next.value.resume(returning: .answer)
        }
    }

    private func decided(_ output: ServeConditionsMachine.Decided) {
        waiting.removeValue(forKey: output.request)?.resume(returning: output.decision)
    }
}

/// The loads of a loop that loads nothing.
struct NoLoads: LoadPerformer {
    func start(_ order: LoadOrder) -> Never {
        preconditionFailure("a loop that loads nothing was asked to load \(order.resource.url)")
    }

    func finish(_ handle: Never) async -> (response: Response, measured: SimTime) {}

    func cancel(_ handle: Never) {}
}
