import Foundation
import Testing
import MapSimJSON
import MapSimTesting

@Suite("mapsim eval")
struct EvalCommandTests {
    @Test func evaluatesOnTheGivenFeature() async throws {
        let sum = try await CommandRunner.run(["eval", #"["+", 1, ["get", "n"]]"#, "--properties", #"{"n": 41}"#])
        #expect(sum.status == 0 && sum.standardOutput == "42\n")
        let step = try await CommandRunner.run(["eval", #"["step", ["zoom"], "small", 10, "large"]"#, "--zoom", "12"])
        #expect(step.standardOutput == "\"large\"\n")
        let color = try await CommandRunner.run(["eval", #"["to-color", "rgba(255, 0, 0, 0.5)"]"#])
        #expect(color.standardOutput == "[0.5,0,0,0.5]\n")
        let function = try await CommandRunner.run(["eval", #"{"stops": [[0, 1], [10, 5]]}"#, "--zoom", "5", "--property-spec", #"{"type": "number"}"#])
        #expect(function.standardOutput == "3\n")
        let state = try await CommandRunner.run(["eval", #"["case", ["boolean", ["feature-state", "hover"], false], "on", "off"]"#,
                                                 "--feature-state", #"{"hover": true}"#, "--id", "7"])
        #expect(state.standardOutput == "\"on\"\n")
    }

    @Test func typeErrorsExit65AndRuntimeErrorsExit1() async throws {
        let typeError = try await CommandRunner.run(["eval", #"["+", 1, "two"]"#])
        #expect(typeError.status == 65 && typeError.standardError.contains("[2]: Expected number but found string instead."))
        let runtime = try await CommandRunner.run(["eval", #"["number", ["get", "name"]]"#, "--properties", #"{"name": "x"}"#])
        #expect(runtime.status == 1 && runtime.standardOutput == #"{"error":"Expected value to be of type number, but found string instead."}"# + "\n")
        let notJSON = try await CommandRunner.run(["eval", "[1,"])
        #expect(notJSON.status == 64 && notJSON.standardError.contains("EXPR is not JSON"))
        let neither = try await CommandRunner.run(["eval"])
        #expect(neither.status == 64)
    }

    @Test func runsCasesLineByLine() async throws {
        let fixture = try FixtureDirectory()
        let cases = try fixture.write("cases.jsonl", """
        {"expression": ["get", "x"], "inputs": [[{}, {"properties": {"x": 1}}], [{}, {"properties": {}}]]}
        not json
        {"expression": ["to-color", "#f00"], "propertySpec": {"type": "color"}, "inputs": [[{}, {}]]}
        {"expression": ["+", 1]}

        """)
        let result = try await CommandRunner.run(["eval", "--cases", cases])
        #expect(result.status == 65)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0] == #"{"compiled":{"result":"success","isFeatureConstant":false,"isZoomConstant":true,"type":"value"},"outputs":[1,null]}"#)
        #expect(lines[1].hasPrefix(#"{"error":"\#(cases):2: "#))
        #expect(lines[2] == #"{"compiled":{"result":"success","isFeatureConstant":true,"isZoomConstant":true,"type":"color"},"outputs":[[1,0,0,1]]}"#)
        #expect(lines[3] == #"{"compiled":{"result":"success","isFeatureConstant":true,"isZoomConstant":true,"type":"number"},"outputs":[]}"#)
    }

    @Test func aCaseWithoutAnExpressionIsAnError() async throws {
        let fixture = try FixtureDirectory()
        let cases = try fixture.write("cases.json", #"{"foo": 1}"#)
        let result = try await CommandRunner.run(["eval", "--cases", cases])
        #expect(result.status == 65 && result.standardOutput.contains(#"a case has no \"expression\""#), "\(result.standardOutput)")
    }
}
