import ArgumentParser
import Foundation
import MapSimKit

/// `mapsim eval EXPR`: evaluates a style expression on a feature, or runs expression cases.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        // Parsed as a root by `mapsim COMMAND` (MapSimCommand.leafCommand): "mapsim" is its super-command.
        _superCommandName: "mapsim",
        abstract: "Evaluate a style expression on a feature, as the map SDKs evaluate it.",
        discussion: """
        EXPR is an expression in JSON (or a legacy function object with --property-spec). The \
        result is printed as JSON: colors as [r, g, b, a] premultiplied from 0 to 1, formatted \
        text as its sections, images as {"name", "available"}. A type-check error prints each \
        problem with its place in the expression and exits 65; a runtime error prints \
        {"error": ...} and exits 1.

        --cases FILE reads expression cases in the style spec's test-suite format, one JSON \
        object per line (or one case file, or an array of cases): expression, inputs, optional \
        propertySpec and globalState. It writes one line per case, {"compiled": ..., \
        "outputs": [...]}, in the shape of the suite's "expected", numbers cut to 6 significant \
        digits as the suite writes them. "-" reads standard input. A line that is not a case \
        gets {"error": ...} and the exit status is 65.

        Collators compare in the Unicode root order (English); number-format knows English, \
        German and French conventions and formats other locales as en-US.

        \(ExitStatus.section([(ExitStatus.success, "the expression evaluated"), (ExitStatus.usage, "bad arguments (properties that are not a JSON object)"), (ExitStatus.invalidData, "the expression does not compile (the errors are printed)")]))

        Examples:
          mapsim eval '["+", 1, ["get", "n"]]' --properties '{"n": 41}'
          mapsim eval '["step", ["zoom"], "small", 10, "large"]' --zoom 12
          mapsim eval '["geometry-type"]' --geometry-type Point
          mapsim eval '{"stops": [[0, 1], [10, 5]]}' --zoom 5 \\
              --property-spec '{"type": "number"}'
          mapsim eval --cases cases.jsonl > results.jsonl
        """
    )

    @Argument(help: ArgumentHelp("The expression, as JSON.", valueName: "EXPR"))
    var expression: String?

    @Option(help: ArgumentHelp("Run expression cases from FILE (- for standard input), one JSON line each.", valueName: "FILE"))
    var cases: String?

    @Option(parsing: .unconditional, help: "The zoom level.")
    var zoom: Double?

    @Option(help: ArgumentHelp("The feature's properties, as a JSON object.", valueName: "JSON"))
    var properties: String?

    @Option(help: ArgumentHelp("The feature's geometry type: Point, LineString or Polygon.", valueName: "TYPE"))
    var geometryType: String?

    @Option(help: ArgumentHelp("The feature's id, as JSON (a number or a string).", valueName: "ID"))
    var id: String?

    @Option(help: ArgumentHelp("The feature's state, as a JSON object.", valueName: "JSON"))
    var featureState: String?

    @Option(help: ArgumentHelp("The style's global state, as a JSON object.", valueName: "JSON"))
    var globalState: String?

    @Option(help: ArgumentHelp("Image ids the style has, comma-separated (for image expressions).", valueName: "IDS"))
    var availableImages: String?

    @Option(help: ArgumentHelp("The property the expression sets, as its style-spec entry in JSON (type; property-type and expression default to data-driven, interpolated, of zoom and feature).", valueName: "JSON"))
    var propertySpec: String?

    func validate() throws {
        if (expression == nil) == (cases == nil) {
            throw ValidationError("Give either an expression or --cases FILE.")
        }
        if let geometryType, !["Point", "LineString", "Polygon", "Unknown"].contains(geometryType) {
            throw ValidationError("--geometry-type must be Point, LineString or Polygon, not \(geometryType).")
        }
    }

    func run() throws {
        if let cases {
            let status = try Self.runCases(cases)
            if status != ExitStatus.success { throw status }
            return
        }
        let spec = try propertySpec.map { ExpressionCaseRunner.completedSpec(try Self.object($0, option: "--property-spec")) }
        let json = try Self.json(expression ?? "", option: "EXPR")
        let compiled: StyleExpression
        switch StyleExpression.compile(json, propertySpec: spec) {
        case .success(let expression):
            compiled = expression
        case .failure(let failure):
            for problem in failure.errors { printError("mapsim: \(problem)") }
            throw ExitStatus.invalidData
        }
        var context = ExpressionContext(zoom: zoom)
        var feature = ExpressionFeature(properties: try properties.map { try Self.object($0, option: "--properties") } ?? JSONObject())
        feature.id = try id.map { try Self.json($0, option: "--id", bareStringAllowed: true) }
        feature.geometryType = geometryType
        context.feature = feature
        context.featureState = try featureState.map { try Self.object($0, option: "--feature-state") } ?? JSONObject()
        context.globalState = try globalState.map { try Self.object($0, option: "--global-state") } ?? JSONObject()
        if let availableImages {
            context.availableImages = Set(availableImages.split(separator: ",").map { String($0) })
        }
        do {
            print(ExpressionValue.jsonText(compiled.outputJSON(try compiled.evaluate(context))))
        } catch {
            print(ExpressionValue.jsonText(.object(JSONObject([("error", .string(error.message))]))))
            throw ExitStatus.failure
        }
    }

    /// Runs every case of `path`; returns `invalidData` when a line was not a case, `success` otherwise.
    static func runCases(_ path: String) throws -> ExitCode {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path, limit: 1 << 30)
        } catch {
            throw ExitStatus.fail(error)
        }
        var status = ExitStatus.success
        func emit(_ value: JSONValue) {
            print(ExpressionValue.jsonText(value))
        }
        let testCases: [(line: Int, value: Result<JSONValue, JSONSyntaxError>)]
        if let whole = try? JSONParser.parse(bytes), whole.objectValue != nil || whole.arrayValue != nil {
            testCases = (whole.arrayValue ?? [whole]).map { (1, .success($0)) }
        } else {
            testCases = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated().compactMap { index, line -> (line: Int, value: Result<JSONValue, JSONSyntaxError>)? in
                guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return nil }
                do throws(JSONSyntaxError) {
                    return (index + 1, .success(try JSONParser.parse(Array(line))))
                } catch {
                    return (index + 1, .failure(error))
                }
            }
        }
        for (line, parsed) in testCases {
            switch parsed {
            case .success(let testCase) where testCase.objectValue != nil && testCase["expression"] != nil:
                emit(ExpressionCaseRunner.run(testCase))
            case .success(let testCase):
                status = ExitStatus.invalidData
                let problem = testCase.objectValue == nil ? "a case must be a JSON object" : "a case has no \"expression\""
                emit(.object(JSONObject([("error", .string("\(path):\(line): \(problem)"))])))
            case .failure(let error):
                status = ExitStatus.invalidData
                emit(.object(JSONObject([("error", .string("\(path):\(line): \(error)"))])))
            }
        }
        return status
    }

    private static func json(_ text: String, option: String, bareStringAllowed: Bool = false) throws -> JSONValue {
        do {
            return try JSONParser.parse(text)
        } catch {
            if bareStringAllowed { return .string(text) }
            throw ValidationError("\(option) is not JSON: \(error)")
        }
    }

    private static func object(_ text: String, option: String) throws -> JSONObject {
        guard let object = try json(text, option: option).objectValue else { throw ValidationError("\(option) must be a JSON object.") }
        return object
    }
}
