extension Int64 {
    /// The sum, held at `.max` or `.min` rather than wrapping: time that runs past what 64 bits
    /// count stays at the end of time.
    func saturatingAdding(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// The difference, held at `.max` or `.min` rather than wrapping.
    func saturatingSubtracting(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }
}
