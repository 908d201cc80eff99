import ArgumentParser
import MapSimKit

/// `NAME=JSON` on the command line: a global state value (`["global-state", NAME]`); a VALUE that
/// is not JSON is the string itself (`--global-state lang=fr`), `null` the style's default.
struct GlobalStateArgument: ExpressibleByArgument {
    var name: String
    var value: JSONValue

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else { return nil }
        name = String(argument[..<equals])
        let text = String(argument[argument.index(after: equals)...])
        value = (try? JSONParser.parse(Array(text.utf8))) ?? .string(text)
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
