import ArgumentParser
import Foundation
import MapSimKit

/// The events of a command that reads a live source in real time (`live listen`, `live replay` of a
/// feed URL): the source's handler yields into it, `--for` or Ctrl-C ends it, and each event the
/// command takes is written to `--events` as it goes, a line at a time (standard output too).
/// SIGTERM and SIGHUP end it as Ctrl-C does.
final class LiveEventStream {
    /// The events, in arrival order; it ends when the time is up or the user stops it.
    let events: AsyncStream<MapEvent>
    /// Where the source's handler puts its events.
    let input: AsyncStream<MapEvent>.Continuation
    private let writer: EventLineWriter?
    private let stop: StreamStop

    /// A stream ending after `duration` (nil: only on Ctrl-C), recorded to the file `eventsPath`.
    init(recordingTo eventsPath: String?, for duration: SimTime?) throws {
        do {
            writer = try eventsPath.map { try EventLineWriter(path: $0) }
        } catch {
            throw ExitStatus.fail(error)
        }
        // Each line as it comes, also into a pipe (`mapsim live listen --json | jq`).
        StandardOutput.writeLineByLine()
        (events, input) = AsyncStream<MapEvent>.makeStream()
        let input = input
        stop = StreamStop(after: duration) { input.finish() }
    }

    /// The signal that ended the stream, if one did.
    var caughtSignal: Int32? {
        stop.caughtSignal
    }

    /// The exit for a stream that SIGTERM or SIGHUP ended (Ctrl-C, the usual way to stop
    /// listening, is a success).
    func signalExit() -> ExitCode? {
        guard let signal = caughtSignal, signal != SIGINT else { return nil }
        return ExitStatus.stopped(by: signal)
    }

    /// Records an event the command took from the stream.
    func record(_ event: MapEvent) {
        writer?.write(event)
    }

    /// Stops listening for the end and writes the recording whole.
    func close() throws {
        stop.cancel()
        do {
            try writer?.close()
        } catch {
            throw ExitStatus.fail(error)
        }
    }
}
