/// Runs a `DrivenMachine` on a virtual clock — the one executor of mapsim's machines: the `Map`
/// actor, region downloads and the tests all drive their machines through it.
///
/// Like swift-nio's embedded event loop, time moves only when told. `feed(_:perform:)` hands the
/// machine an input now; `step(notAfter:perform:)` feeds the earliest input that is due. The loop
/// carries out the machine's loads, cancellations and scheduled inputs itself, and hands every
/// output to `perform`, in order.
///
/// Loads are real work (tasks through backends), but they never decide order: the answer of a load
/// takes its place among the scheduled inputs when the loop next steps — its place in the order of
/// insertion is taken then, in the order the loads were started, whenever the load really finishes
/// — and is delivered at the time the `DeliveryTiming` gives from the request and the response. The
/// loop waits for a load only when its answer could come before the next input; other loads keep
/// running meanwhile. So the same inputs give the same outputs on every run.
///
/// Over the real network, where no run repeats another, a loop made with `.onArrival` takes each
/// answer when it comes instead — one slow answer holds no other back — and its virtual time is the
/// wall clock's since the loop began: an input scheduled for a time is fed when that time comes. A
/// deterministic loop can be told to follow the wall clock from its current time on
/// (`followWallClock()`), as a map does once it is loaded and real transports feed it: what their work
/// (`DriveAction.perform`) posts is fed as it arrives, and timers fire on the wall clock — the same
/// machine, the same loop, as swift-nio runs the same handlers on an embedded or a real event loop.
///
/// Its methods run on the caller's actor (the `Map`'s), so the loop needs no lock of its own.
public final class DriveLoop<Machine: DrivenMachine, Loads: LoadPerformer> {
    private enum Due {
        case input(Machine.Input)
        case answer(LoadAnswer)
    }

    /// A load under way; once the loop has stepped, the place its answer takes in the order.
    private struct InFlight {
        var order: LoadOrder
        var start: SimTime
        /// When it started on the wall clock.
        var wallStart: ContinuousClock.Instant
        var handle: Loads.Handle
        var place: (time: SimTime, sequence: UInt64)?
        /// A limit its answer is known to come after (its real time ran past it): a step to that
        /// limit does not wait for it again.
        var lateFor: SimTime?
    }

    /// The machine, for reading its state.
    public private(set) var machine: Machine
    private let loads: Loads
    private var timing: any DeliveryTiming
    private var scheduler = Scheduler<Due>()
    private var inFlight: [AttemptID: InFlight] = [:]
    /// Loads started since the loop last stepped, in the order they were started.
    private var unplaced: [AttemptID] = []
    /// Loads whose answers have a place, in the order of their places.
    private var placed: [AttemptID] = []
    private var placedHead = 0
    /// Answers in the scheduler, and those of them that were cancelled before they were fed.
    private var scheduledAnswers: Set<AttemptID> = []
    private var cancelledAnswers: Set<AttemptID> = []

    private var delivery: AnswerOrder
    private let arrivals = ArrivalQueue<Machine.Input>()
    /// The wall-clock instant of virtual time zero, for a loop that takes answers as they arrive.
    private var origin = ContinuousClock.now
    /// The work performed beside the loop and not over yet, by number.
    private var performing: [Int: Task<Void, Never>] = [:]
    private var nextWork = 0

    /// A loop running `machine`, its loads carried out by `loads` and timed by `timing` (which
    /// `.onArrival` does not use).
    public init(machine: Machine, loads: Loads, timing: any DeliveryTiming, delivery: AnswerOrder = .deterministic) {
        self.machine = machine
        self.loads = loads
        self.timing = timing
        self.delivery = delivery
    }

    deinit {
        for load in inFlight.values { loads.cancel(load.handle) }
        for work in performing.values { work.cancel() }
    }

    /// The current virtual time.
    public var now: SimTime { scheduler.now }

    /// Whether anything is left to happen by `limit` (at all, by default): a load under way or
    /// delivered — its answer due at any time, since a load that answers after `limit` was still
    /// awaited at it — work performed beside the loop that may still post inputs, or an input
    /// scheduled by then; a refresh due later (an expiring style's) is not.
    public func hasPendingWork(by limit: SimTime = .max) -> Bool {
        discardCancelledAnswers()
        return !inFlight.isEmpty || !performing.isEmpty || scheduledAnswers.count > cancelledAnswers.count
            || scheduler.count > cancelledAnswers.count && (scheduler.nextTime ?? .max) <= limit
    }

    /// From now on, the loop's virtual time moves with the wall clock from its current time: an
    /// input scheduled for a time is fed when that time comes, and answers and what performed work
    /// posts are taken as they arrive. Loads under way keep their places no more.
    public func followWallClock() {
        guard delivery == .deterministic else { return }
        delivery = .onArrival
        origin = ContinuousClock.now - .microseconds(scheduler.now.microseconds)
        for (attempt, load) in inFlight {
            let (loads, arrivals, handle) = (loads, arrivals, load.handle)
            Task { arrivals.post(.answer(attempt, await loads.finish(handle).response)) }
        }
        unplaced.removeAll()
        placed.removeAll()
        placedHead = 0
    }

    /// Feeds `input` now and carries out what the machine asks; outputs go to `perform`, in order.
    public func feed(_ input: Machine.Input, perform: (Machine.Output) -> Void) {
        // On the wall clock, an input comes at the time it is fed — but never after something due
        // that has not run yet, so times only go forward.
        if delivery == .onArrival { scheduler.advance(to: min(SimTime(ContinuousClock.now - origin), scheduler.nextTime ?? .max)) }
        handle(input, perform: perform)
    }

    /// Runs `work` beside the loop, as the machine's `DriveAction.perform` does: for an output its
    /// owner carries out with real I/O of its own, whose result comes back as inputs. On a loop
    /// taking answers as they arrive, the inputs are fed as they come and a step waits for them;
    /// a deterministic loop feeds them only when it next steps after they came.
    public func perform(_ work: @escaping @Sendable (InputPost<Machine.Input>) async -> Void) {
        start(work)
    }

    /// Hands the machine `input` at the loop's time and carries out what it asks.
    private func handle(_ input: Machine.Input, perform: (Machine.Output) -> Void) {
        let now = scheduler.now
        for action in machine.handle(input, at: now) {
            switch action {
            case .load(let order):
                let handle: Loads.Handle
                switch delivery {
                case .deterministic:
                    handle = loads.start(order)
                    unplaced.append(order.attempt)
                case .onArrival:
                    let (arrivals, attempt) = (arrivals, order.attempt)
                    handle = loads.start(order) { arrivals.post(.answer(attempt, $0)) }
                }
                inFlight[order.attempt] = InFlight(order: order, start: now, wallStart: ContinuousClock.now, handle: handle)
            case .cancelLoad(let attempt):
                if let load = inFlight.removeValue(forKey: attempt) {
                    loads.cancel(load.handle)
                } else if scheduledAnswers.contains(attempt) {
                    cancelledAnswers.insert(attempt)
                }
            case .schedule(let input, let time):
                scheduler.schedule(.input(input), at: time, lane: Machine.lane(of: input))
                // A step waiting for its next input may have one sooner now.
                if delivery == .onArrival { arrivals.post(.wake) }
            case .perform(let work):
                start(work)
            case .output(let output):
                perform(output)
            }
        }
    }

    /// Feeds the earliest input due no later than `limit` — an answer, or a scheduled input — after
    /// waiting for every load whose answer could come first. Returns false when nothing is due by then.
    public func step(notAfter limit: SimTime, perform: (Machine.Output) -> Void,
                     isolation: isolated (any Actor)? = #isolation) async -> Bool {
        if delivery == .onArrival { return await stepOnArrival(notAfter: limit, perform: perform) }
        // Only performed work posts to a deterministic loop; what it posted is fed at this step's time.
        if !performing.isEmpty { takeArrivals() }
        placeStartedLoads()
        var index = placedHead
        while let attempt = nextPlaced(from: &index), let load = inFlight[attempt], let place = load.place {
            discardCancelledAnswers()
            if let next = scheduler.next, next.time <= limit, (next.time, next.lane, next.sequence) < (place.time, 0, place.sequence) { break }
            index += 1
            // An answer that comes after the real time its load takes is not waited for past the
            // limit: a server that never answers holds a run no longer than it may last.
            if let late = load.lateFor, late >= limit { continue }
            guard let (response, measured) = await finish(load, notAfter: limit) else {
                inFlight[attempt]?.lateFor = limit
                continue
            }
            // Cancelled while it ran: its answer never comes.
            guard let finished = inFlight.removeValue(forKey: attempt) else { continue }
            let delay = timing.delay(for: finished.order.resource, response: response, measured: measured)
            scheduler.schedule(.answer(LoadAnswer(finished.order, response)), at: max(finished.start + delay, place.time), sequence: place.sequence)
            scheduledAnswers.insert(attempt)
        }
        discardCancelledAnswers()
        guard let (_, due) = scheduler.popNext(notAfter: limit) else { return false }
        feed(due, perform: perform)
        return true
    }

    /// Feeds a due input or answer.
    private func feed(_ due: Due, perform: (Machine.Output) -> Void) {
        switch due {
        case .input(let input):
            handle(input, perform: perform)
        case .answer(let answer):
            scheduledAnswers.remove(answer.order.attempt)
            handle(Machine.input(for: answer), perform: perform)
        }
    }

    /// `step` of a loop taking answers as they arrive: feeds what is due by the wall clock (an
    /// answer that came, an input whose time has come), else waits for the next answer or input.
    /// Returns false when nothing can come by `limit`; true also when the task was cancelled while
    /// waiting, for the caller to see it.
    private func stepOnArrival(notAfter limit: SimTime, perform: (Machine.Output) -> Void,
                               isolation: isolated (any Actor)? = #isolation) async -> Bool {
        while true {
            let wall = SimTime(ContinuousClock.now - origin)
            scheduler.advance(to: min(wall, limit))
            takeArrivals()
            discardCancelledAnswers()
            if let next = scheduler.next, next.time <= scheduler.now, let (_, due) = scheduler.popNext(notAfter: limit) {
                feed(due, perform: perform)
                return true
            }
            // On the wall clock, what comes later comes after the limit.
            if wall >= limit { return false }
            let nextInput = scheduler.next.map(\.time).flatMap { $0 <= limit ? $0 : nil }
            // What can still come by the limit: a scheduled input, an answer, and — until the limit
            // passes — an input posted by work performed beside the loop; a limit on the wall clock
            // is waited for (a run on the wall clock takes as long as it says).
            let awaitsWork = wall < limit && (limit < .max || !performing.isEmpty)
            guard !inFlight.isEmpty || awaitsWork || nextInput != nil else { return false }
            guard !Task.isCancelled else { return true }
            var wake = nextInput
            if awaitsWork && limit < .max { wake = min(wake ?? limit, limit) }
            await arrivals.wait(until: wake.map { origin + .microseconds($0.microseconds) })
        }
    }

    /// Runs `work` beside the loop; what it posts arrives as inputs, its end as `performed`.
    private func start(_ work: @escaping @Sendable (InputPost<Machine.Input>) async -> Void) {
        let number = nextWork
        nextWork += 1
        let arrivals = arrivals
        performing[number] = Task {
            await work(InputPost { arrivals.post(.input($0)) })
            arrivals.post(.performed(number))
        }
    }

    /// Takes what has arrived: answers are scheduled now (unless cancelled while they ran), posted
    /// inputs too, in the order they came.
    private func takeArrivals() {
        for arrival in arrivals.drain() {
            switch arrival {
            case .answer(let attempt, let response):
                guard let load = inFlight.removeValue(forKey: attempt) else { continue }
                scheduler.schedule(.answer(LoadAnswer(load.order, response)), at: scheduler.now)
                scheduledAnswers.insert(attempt)
            case .input(let input):
                scheduler.schedule(.input(input), at: scheduler.now, lane: Machine.lane(of: input))
            case .performed(let number):
                performing[number] = nil
            case .wake:
                continue
            }
        }
    }

    /// Steps until nothing is due by `limit`, then sets the clock to `limit`; stops where it is
    /// when the task is cancelled.
    public func run(until limit: SimTime, perform: (Machine.Output) -> Void, isolation: isolated (any Actor)? = #isolation) async {
        while !Task.isCancelled, await step(notAfter: limit, perform: perform) {}
        if !Task.isCancelled { scheduler.advance(to: limit) }
    }

    /// Moves the clock forward to `time` (never backwards) without running anything.
    public func advanceClock(to time: SimTime) {
        scheduler.advance(to: time)
    }

    /// Gives the loads started since the last step their places, in the order they were started.
    private func placeStartedLoads() {
        for attempt in unplaced where inFlight[attempt] != nil {
            inFlight[attempt]?.place = (scheduler.now, scheduler.reserveSequence())
            placed.append(attempt)
        }
        unplaced.removeAll(keepingCapacity: true)
    }

    /// The first placed load still under way at or after `index` (moved to it); the loads over
    /// before the first under way are dropped.
    private func nextPlaced(from index: inout Int) -> AttemptID? {
        let atHead = index == placedHead
        while placedHead < placed.count, inFlight[placed[placedHead]] == nil { placedHead += 1 }
        if placedHead > 1_024 && placedHead * 2 > placed.count {
            placed.removeFirst(placedHead)
            index -= placedHead
            placedHead = 0
        }
        if atHead || index < placedHead { index = placedHead }
        while index < placed.count, inFlight[placed[index]] == nil { index += 1 }
        return index < placed.count ? placed[index] : nil
    }

    /// The answer of `load`, waited for — when answers come after the real time their loads take —
    /// only while it could still come by `limit`: nil when it comes later.
    private func finish(_ load: InFlight, notAfter limit: SimTime, isolation: isolated (any Actor)? = #isolation) async -> (response: Response, measured: SimTime)? {
        guard timing.waitsForRealTime, limit < .max else { return await loads.finish(load.handle) }
        let budget = limit - load.start
        guard budget > .zero else { return nil }
        return await loads.finish(load.handle, by: load.wallStart + .microseconds(budget.microseconds))
    }

    /// Drops cancelled answers from the front of the schedule, without moving the clock.
    private func discardCancelledAnswers() {
        while !cancelledAnswers.isEmpty, case .answer(let answer)? = scheduler.first, cancelledAnswers.contains(answer.order.attempt) {
            scheduler.discardFirst()
            scheduledAnswers.remove(answer.order.attempt)
            cancelledAnswers.remove(answer.order.attempt)
        }
    }
}
