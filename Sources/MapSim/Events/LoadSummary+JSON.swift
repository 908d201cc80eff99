import MapSimJSON

extension LoadSummary {
    /// The summary as JSON for scripts: milestone times (µs, null when not reached), requests and
    /// bytes by kind, the critical path, errors, warnings and the budgets' verdicts.
    public func json(budgets: [BudgetVerdict] = []) -> JSONObject {
        func time(_ value: SimTime?) -> JSONValue { value.map { .number(Double($0.microseconds)) } ?? .null }
        func figures(_ traffic: Traffic) -> JSONObject {
            JSONObject([("requests", .number(Double(traffic.requests))), ("bytes", .number(Double(traffic.bytes))),
                        ("failed", .number(Double(traffic.failures))), ("cancelled", .number(Double(traffic.cancelled)))])
        }
        var kinds = JSONObject()
        for (kind, traffic) in traffic { kinds[kind.rawValue] = .object(figures(traffic)) }
        let naming = ResourcePath(base: styleURL ?? "")
        let path: JSONValue = criticalPath.map { path in
            .object(JSONObject([("milestone", .string(path.milestone.rawValue)), ("at", time(path.time)),
                                ("requests", .array(path.steps.map { step in
                                    .object(JSONObject([("kind", .string(step.kind.rawValue)), ("path", .string(naming.path(of: step.url))),
                                                        ("url", .string(step.url)), ("begin", time(step.begin)), ("end", time(step.end)),
                                                        ("failed", .bool(step.failed))]))
                                }))]))
        } ?? .null
        let errorList: [JSONValue] = errors.map { error in
            .object(JSONObject([("type", .string(error.type.rawValue)), ("message", .string(error.message))]))
        } + liveErrors.map { .object(JSONObject([("type", .string("live")), ("message", .string($0))])) }
        let verdicts: [JSONValue] = budgets.map { verdict in
            .object(JSONObject([("name", .string(verdict.budget.name)), ("limit", .number(Double(verdict.budget.limit))),
                                ("value", verdict.value.map { .number(Double($0)) } ?? .null), ("met", .bool(verdict.isMet)),
                                ("line", .string(verdict.line))]))
        }
        return JSONObject([
            ("style-loaded", time(styleLoaded)), ("map-loaded", time(mapLoaded)), ("map-idle", time(mapIdle)),
            ("requests", .object(figures(total))), ("kinds", .object(kinds)),
            ("answered-by", .object(JSONObject(responsesBySource.map { ($0.source.rawValue, JSONValue.number(Double($0.count))) }))),
            ("frames", .number(Double(frames))), ("events", .number(Double(eventCount))),
            ("critical-path", path), ("errors", .array(errorList)),
            ("missing-images", .array(missingImages.map { .string($0) })), ("timed-out", .array(timedOut.map { .string($0) })),
            ("ignored", .array(ignoredFeatures.map { .object(JSONObject([("feature", .string($0.feature.rawValue)), ("message", .string($0.message))])) })),
            ("warnings", .array(warnings.map { .string($0.message) })),
            ("budgets", .array(verdicts)),
        ])
    }
}
