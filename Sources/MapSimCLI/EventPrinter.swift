import MapSimKit

/// Formats events and load summaries as readable lines for a terminal.
struct EventPrinter: Sendable {
    var terminal: Terminal

    /// One line: the virtual time, the event type and its payload in short form.
    func line(for event: MapEvent) -> String {
        let time = pad(event.end.description, to: 12)
        let name = pad(event.type.rawValue, to: 26)
        return "\(terminal.paint(time, .dim)) \(paintName(name, event.payload)) \(details(event))"
    }

    private func paintName(_ name: String, _ payload: MapEventPayload) -> String {
        switch payload {
        case .mapLoadingError: terminal.paint(name, .red)
        case .styleImageMissing, .styleFeatureIgnored, .styleWarning: terminal.paint(name, .yellow)
        case .styleLoaded, .mapLoaded, .mapIdle: terminal.paint(name, .green)
        case .resourceRequest: terminal.paint(name, .cyan)
        default: name
        }
    }

    private func details(_ event: MapEvent) -> String {
        switch event.payload {
        case .resourceRequest(let request):
            var text = "\(request.request.kind.rawValue) \(request.request.url)"
            if let range = request.request.dataRange { text += " bytes \(range.lowerBound)–\(range.upperBound)" }
            if !request.request.scope.isRoot { text += " (import \(request.request.scope))" }
            if request.cancelled {
                text += " cancelled"
            } else if let response = request.response {
                if let error = response.error {
                    text += " " + terminal.paint("\(error.reason.rawValue): \(error.message)", .red)
                } else if response.noContent {
                    text += " no content"
                } else {
                    text += " \(ByteCount.format(response.size))"
                }
                if event.end > event.begin { text += " in \((event.end - event.begin).description)" }
            }
            return text
        case .mapLoadingError(let error):
            return "\(error.type.rawValue): \(error.message)"
        default:
            return event.payload.data.members.map { "\($0.key)=\($0.value.stringValue ?? JSONWriter.string($0.value))" }.joined(separator: " ")
        }
    }

    /// The closing summary: milestones, traffic by kind, what map-idle waited for, errors and the
    /// budgets' verdicts.
    func summary(_ summary: LoadSummary, budgets: [BudgetVerdict] = []) -> [String] {
        var lines = [""]
        for (name, time) in [("style-loaded", summary.styleLoaded), ("map-loaded", summary.mapLoaded), ("map-idle", summary.mapIdle)] {
            lines.append("\(pad(name, to: 14)) \(time.map { "at " + $0.description } ?? terminal.paint("not reached", .yellow))")
        }
        let total = summary.total
        lines.append("\(pad("requests", to: 14)) \(total.requests) (\(ByteCount.format(total.bytes)))"
            + (total.failures > 0 ? ", \(total.failures) failed" : "") + (total.cancelled > 0 ? ", \(total.cancelled) cancelled" : ""))
        for (kind, traffic) in summary.traffic {
            lines.append("  \(pad(kind.rawValue, to: 12)) \(pad(String(traffic.requests), to: 4)) \(ByteCount.format(traffic.bytes))"
                + (traffic.failures > 0 ? " (\(traffic.failures) failed)" : ""))
        }
        if !summary.responsesBySource.isEmpty {
            let sources = summary.responsesBySource.map { "\($0.source.rawValue) \($0.count)" }.joined(separator: ", ")
            lines.append("\(pad("answered by", to: 14)) \(sources)" + (summary.notModified > 0 ? " (\(summary.notModified) revalidated, not modified)" : ""))
        }
        if summary.liveUpdates > 0 || !summary.liveSubscriptions.isEmpty || !summary.refusedSubscriptions.isEmpty {
            let updated = summary.updatedLocations.isEmpty ? "" : ", \(summary.updatedLocations.count) location\(summary.updatedLocations.count == 1 ? "" : "s") updated"
            lines.append("\(pad("live", to: 14)) \(summary.liveUpdates) update\(summary.liveUpdates == 1 ? "" : "s")\(updated)")
            if !summary.liveSubscriptions.isEmpty { lines.append("  subscribed   " + summary.liveSubscriptions.joined(separator: ", ")) }
            if !summary.refusedSubscriptions.isEmpty {
                lines.append("  " + terminal.paint("refused      " + summary.refusedSubscriptions.joined(separator: ", "), .yellow))
            }
        }
        lines.append("\(pad("frames", to: 14)) \(summary.frames)")
        lines.append("\(pad("events", to: 14)) \(summary.eventCount)")
        lines += criticalPath(summary)
        if !summary.timedOut.isEmpty {
            lines.append("\(pad("timed out", to: 14)) \(summary.timedOut.count), no answer when the time was over")
            let redactor = URLRedactor(parameters: URLRedactor.defaultParameters)
            for url in summary.timedOut { lines.append("  " + terminal.paint(redactor.redact(url), .red)) }
        }
        let errorCount = summary.errors.count + summary.liveErrors.count
        lines.append("\(pad("errors", to: 14)) \(errorCount == 0 ? "none" : String(errorCount))")
        for error in summary.errors { lines.append("  " + terminal.paint("\(error.type.rawValue): \(error.message)", .red)) }
        for message in summary.liveErrors { lines.append("  " + terminal.paint("live-error: \(message)", .red)) }
        if !summary.ignoredFeatures.isEmpty {
            lines.append("\(pad("ignored", to: 14)) \(summary.ignoredFeatures.count), not drawn by \(summary.ignoredFeatures[0].engine)")
            for ignored in summary.ignoredFeatures { lines.append("  " + terminal.paint("\(ignored.feature.rawValue): \(ignored.message)", .yellow)) }
        }
        if !summary.missingImages.isEmpty || !summary.warnings.isEmpty {
            lines.append("\(pad("warnings", to: 14)) \(summary.missingImages.count + summary.warnings.count)")
            for warning in summary.warnings { lines.append("  " + terminal.paint("style-warning: \(warning.message)", .yellow)) }
            for image in summary.missingImages { lines.append("  " + terminal.paint("style-image-missing: \(image)", .yellow)) }
        }
        if !budgets.isEmpty {
            let exceeded = budgets.count { !$0.isMet }
            lines.append("\(pad("budgets", to: 14)) \(budgets.count - exceeded) met" + (exceeded > 0 ? ", \(exceeded) exceeded" : ""))
            for verdict in budgets { lines.append("  " + terminal.paint(verdict.line, verdict.isMet ? .green : .red)) }
        }
        return lines
    }

    /// The chain of requests map-idle waited for, each with its start and end, by its path below the style.
    private func criticalPath(_ summary: LoadSummary) -> [String] {
        guard let path = summary.criticalPath, !path.steps.isEmpty else { return [] }
        let naming = ResourcePath(base: summary.styleURL ?? "")
        var lines = ["critical path  to \(path.milestone.rawValue) at \(path.time)"]
        let names = path.steps.map { naming.path(of: $0.url) }
        let width = min(48, names.map(\.count).max() ?? 0)
        for (step, name) in zip(path.steps, names) {
            let outcome = step.failed ? " " + terminal.paint("failed", .red) : ""
            lines.append("  \(pad(step.kind.rawValue, to: 12)) \(pad(name, to: width)) \(Self.milliseconds(step.begin)) → \(step.end)\(outcome)")
        }
        if let last = path.steps.last, last.end < path.time {
            lines.append("  then frames and fades: \((path.time - last.end).shortDescription) to \(path.milestone.rawValue)")
        }
        return lines
    }

    /// A time as milliseconds without the unit: `16.666`.
    private static func milliseconds(_ time: SimTime) -> String {
        String(time.description.dropLast(3))
    }

    private func pad(_ text: String, to width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
