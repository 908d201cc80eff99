import MapSim

/// The conditions `mapsim serve` answers under, as a pure machine on the server's clock (the time
/// since it started): each request gets its decision — an offline window drops it, a fault rule with
/// uses left for its URL answers for it, else it is answered — after the profile's delay for its size
/// (round trip, jitter from the seed, bandwidth), a timer on the loop. No I/O, no lock: the
/// `ServeConditionsLoop` runs it on a drive loop that follows the wall clock, and tests on the
/// virtual one.
struct ServeConditionsMachine: DrivenMachine {
    /// What to do with one request.
    enum Decision: Sendable {
        /// Answer normally.
        case answer
        /// Answer with this status (and headers).
        case status(Int, headers: [(name: String, value: String)])
        /// Close the connection without an answer.
        case drop
        /// Send the first half of the body only.
        case truncate
    }

    enum Input: Sendable {
        /// Request number `n` for `resource`, whose answer has `size` bytes, came.
        case request(Int, Resource, size: Int)
        /// The delay of request `n` is over: its decision is due.
        case due(Int, Decision)
    }

    /// The decision for request `n`, now due.
    struct Decided: Sendable {
        let request: Int
        let decision: Decision
    }

    typealias Output = Decided

    private var profile: NetworkProfile?
    private let faults: [FaultRule]
    private let offlineWindows: [Range<SimTime>]
    /// How many times each fault rule applied to each URL.
    private var uses = FaultUses()

    init(profile: NetworkProfile?, faults: [FaultRule], offlineWindows: [Range<SimTime>]) {
        self.profile = profile
        self.faults = faults
        self.offlineWindows = offlineWindows
    }

    static func input(for answer: LoadAnswer) -> Input {
        preconditionFailure("the conditions of serve load nothing, yet attempt \(answer.order.attempt.value) was answered")
    }

    mutating func handle(_ input: Input, at now: SimTime) -> [DriveAction<Input, Decided>] {
        switch input {
        case .request(let number, let resource, let size):
            if offlineWindows.contains(where: { $0.contains(now) }) { return [.output(Decided(request: number, decision: .drop))] }
            let delay = profile?.delay(url: resource.url, bytes: size) ?? .zero
            let (decision, extra) = decide(resource)
            if case .drop = decision { return [.output(Decided(request: number, decision: .drop))] }
            let wait = delay + extra
            return wait > .zero ? [.schedule(.due(number, decision), at: now + wait)] : [.output(Decided(request: number, decision: decision))]
        case .due(let number, let decision):
            return [.output(Decided(request: number, decision: decision))]
        }
    }

    /// What the first fault rule for `resource` with a use left says (counted), and the delay it
    /// adds; else a normal answer.
    private mutating func decide(_ resource: Resource) -> (Decision, extra: SimTime) {
        switch uses.take(from: faults, for: resource.url)?.effect {
        case .status(let code, let headers)?: (.status(code, headers: headers), .zero)
        case .dropConnection?: (.drop, .zero)
        case .truncateBody?: (.truncate, .zero)
        case .delay(let extra)?: (.answer, extra)
        case nil: (.answer, .zero)
        }
    }
}
