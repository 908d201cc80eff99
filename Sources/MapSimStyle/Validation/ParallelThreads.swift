import CThreadPlacement
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Work run on threads of its own, each started on a core other than the one of the thread that
/// starts it (`CThreadPlacement`), as the check of a large style's layers needs them: at once.
///
/// Dispatch's worker threads, created or woken by a busy thread, were often queued on that thread's
/// core while the other core idled: the second thread checking the layers of Mapbox Streets started
/// 0.9 ms after the first (the median of 40 runs), and the specification read "on another thread"
/// was mostly read by the thread that needed it, once that thread had nothing else to do.
enum ParallelThreads {
    /// Calls `body` with each index of `0..<count`, all at once: index 0 on the calling thread, every
    /// other on a thread of its own. Returns when every call has returned. An index whose thread
    /// cannot be started is called on the calling thread, after index 0.
    static func run(_ count: Int, _ body: @Sendable (Int) -> Void) {
        guard count > 1 else {
            if count == 1 { body(0) }
            return
        }
        #if os(Linux)
        withoutActuallyEscaping(body) { body in
            var started: [pthread_t] = []
            var unstarted: [Int] = []
            for index in 1..<count {
                if let thread = start({ body(index) }) { started.append(thread) } else { unstarted.append(index) }
            }
            body(0)
            for index in unstarted { body(index) }
            for thread in started { pthread_join(thread, nil) }
        }
        #else
        DispatchQueue.concurrentPerform(iterations: count, execute: body)
        #endif
    }

    /// Starts `work` on a thread of its own that nothing waits for (it ends when `work` returns);
    /// at the idle scheduling priority (Linux's `SCHED_IDLE`: it runs only on a core that has
    /// nothing else to run) when `atIdlePriority`.
    static func detach(atIdlePriority: Bool = false, _ work: @escaping @Sendable () -> Void) {
        #if os(Linux)
        if let thread = start(work, atIdlePriority: atIdlePriority) {
            pthread_detach(thread)
            return
        }
        #endif
        DispatchQueue.global(qos: atIdlePriority ? .background : .default).async(execute: work)
    }

    #if os(Linux)
    /// `work`, handed to a new thread, and whether that thread runs at the idle priority.
    private final class Work: Sendable {
        let run: @Sendable () -> Void
        let atIdlePriority: Bool

        init(_ run: @escaping @Sendable () -> Void, atIdlePriority: Bool) {
            self.run = run
            self.atIdlePriority = atIdlePriority
        }
    }

    /// Linux's `SCHED_IDLE` policy (`<linux/sched.h>`), which Glibc's module does not export.
    private static let idlePolicy: Int32 = 5

    /// A joinable thread running `work`, started on another core; nil when it cannot be started.
    private static func start(_ work: @escaping @Sendable () -> Void, atIdlePriority: Bool = false) -> pthread_t? {
        let context = Unmanaged.passRetained(Work(work, atIdlePriority: atIdlePriority)).toOpaque()
        var thread = pthread_t()
        let failure = mapsim_thread_start_elsewhere(&thread, { context in
            mapsim_thread_release_placement()
            let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
            if work.atIdlePriority {
                var parameters = sched_param()
                _ = pthread_setschedparam(pthread_self(), ParallelThreads.idlePolicy, &parameters)
            }
            work.run()
            return nil
        }, context)
        guard failure == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            return nil
        }
        return thread
    }
    #endif
}
