/// A JUnit XML report, as CI systems read them: one suite of test cases, each passed or failed with
/// a message. `mapsim run` writes one case per scenario, `mapsim load` one per budget and one for errors.
public struct JUnitReport: Sendable, Equatable {
    /// One test case.
    public struct Case: Sendable, Equatable {
        /// The case's name.
        public var name: String
        /// Its class name, which CI systems group by.
        public var className: String
        /// How long it took, in seconds; nil when not measured.
        public var seconds: Double?
        /// Why it failed: the first line is the failure's message, the whole text its body; nil when it passed.
        public var failure: String?
        /// What it printed, shown with the case.
        public var output: String?

        /// A case.
        public init(name: String, className: String, seconds: Double? = nil, failure: String? = nil, output: String? = nil) {
            self.name = name
            self.className = className
            self.seconds = seconds
            self.failure = failure
            self.output = output
        }
    }

    /// The suite's name.
    public var name: String
    /// The cases, in order.
    public var cases: [Case]

    /// A report of `cases` in the suite `name`.
    public init(name: String, cases: [Case]) {
        self.name = name
        self.cases = cases
    }

    /// The report as JUnit XML.
    public var xml: String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuite name=\"\(Self.escape(name))\" tests=\"\(cases.count)\" failures=\"\(cases.count { $0.failure != nil })\">\n"
        for testCase in cases {
            xml += "  <testcase classname=\"\(Self.escape(testCase.className))\" name=\"\(Self.escape(testCase.name))\""
            if let seconds = testCase.seconds { xml += " time=\"\(Self.threeDecimals(seconds))\"" }
            guard testCase.failure != nil || testCase.output != nil else {
                xml += "/>\n"
                continue
            }
            xml += ">\n"
            if let failure = testCase.failure {
                let message = failure.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
                xml += "    <failure message=\"\(Self.escape(message))\">\(Self.escape(failure))</failure>\n"
            }
            if let output = testCase.output { xml += "    <system-out>\(Self.escape(output))</system-out>\n" }
            xml += "  </testcase>\n"
        }
        return xml + "</testsuite>\n"
    }

    /// `text` with XML's special characters escaped, and characters XML 1.0 cannot hold dropped.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            default: if scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF { escaped.unicodeScalars.append(scalar) }
            }
        }
        return escaped
    }

    private static func threeDecimals(_ seconds: Double) -> String {
        let thousandths = Int64((max(0, seconds) * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
