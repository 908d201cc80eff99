import MapSim
import MapSimJSON
import MapSimStyle

extension JSONField {
    /// A duration of a scenario: a whole number of milliseconds (`500`), or a string with a unit
    /// (`"250ms"`, `"1.5s"`, `"2min"`; a bare number in a string is milliseconds too), from
    /// `minimum` to a day.
    func duration(atLeast minimum: SimTime = .zero) throws(StyleError) -> SimTime {
        let range = minimum...SimTime.seconds(86_400)
        let time: SimTime
        switch value {
        case .number:
            time = .milliseconds(Int64(try integer(in: 0...Int(range.upperBound.microseconds / 1_000))))
        case .string(let text):
            guard let parsed = SimTime(parsing: text, bareUnit: .milliseconds(1)) else {
                throw failure("\"\(text)\" is not a duration: write a number of milliseconds, or a number with a unit (250ms, 1.5s, 2min)")
            }
            time = parsed
        default:
            throw failure("expected a duration (milliseconds, or a string such as \"1.5s\"), found \(value.typeName)")
        }
        guard range.contains(time) else {
            throw failure("\(time.shortDescription) is outside \(range.lowerBound.shortDescription)...\(range.upperBound.shortDescription)")
        }
        return time
    }
}
