import ArgumentParser
import MapSimKit

/// `IMPORT.NAME=JSON` on the command line: a config value of a Mapbox style (`["config", NAME]` in
/// the style imported as IMPORT; `NAME=JSON` without a dot, or `.NAME=JSON`, for the root style). A
/// VALUE that is not JSON is the string itself (`--config basemap.lightPreset=dusk`), `null` the
/// import's own value.
struct ConfigArgument: ExpressibleByArgument {
    var importID: String
    var name: String
    var value: JSONValue

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else { return nil }
        let key = argument[..<equals]
        if let dot = key.firstIndex(of: ".") {
            importID = String(key[..<dot])
            name = String(key[key.index(after: dot)...])
        } else {
            importID = ""
            name = String(key)
        }
        guard !name.isEmpty else { return nil }
        let text = String(argument[argument.index(after: equals)...])
        value = (try? JSONParser.parse(Array(text.utf8))) ?? .string(text)
    }

    /// The values by import id, as trace headers and scenarios write them.
    static func object(_ settings: [ConfigArgument]) -> JSONObject {
        var byImport: [String: JSONObject] = [:]
        var order: [String] = []
        for setting in settings {
            if byImport[setting.importID] == nil { order.append(setting.importID) }
            byImport[setting.importID, default: JSONObject()][setting.name] = setting.value
        }
        var object = JSONObject()
        for id in order { object[id] = .object(byImport[id] ?? JSONObject()) }
        return object
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
