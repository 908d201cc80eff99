import MapSim
import MapSimJSON
import MapSimStyle
import MapSimTrace
import Synchronization

/// `mapsim validate --deep`: loads a style through an environment, at the style's own camera, and
/// reports what does not resolve.
public enum DeepValidator {
    /// Diagnostics for every resource that failed to load (once each) and every symbol layer whose
    /// constant `icon-image` the sprite lacks; `bytes` is the style's text, for line numbers. The
    /// environment's map options say how often a failure is retried.
    public static func validate(styleURL: String, bytes: [UInt8], environment: LoadingEnvironment) async -> [StyleDiagnostic] {
        let map = await environment.makeMap()
        let errors = Mutex<[MapLoadingError]>([])
        let subscription = map.subscribe(MapEvents.mapLoadingError) { event in errors.withLock { $0.append(event.payload) } }
        await map.setStyleURI(styleURL)
        _ = await map.run(until: .mapIdle, timeout: .seconds(60))
        subscription.cancel()
        let sprite = await map.spriteImageNames
        let style = await map.style

        let redactor = URLRedactor()
        // A resource that failed more than once (retried, or revalidated) is reported once.
        var seen = Set<String>()
        var diagnostics = errors.withLock { $0 }.compactMap { error -> StyleDiagnostic? in
            let message = redactor.redact("\(error.type.rawValue): \(error.message)")
            return seen.insert(message).inserted ? StyleDiagnostic(message: message, line: nil) : nil
        }
        guard let style, !style.sprites.isEmpty || style.layers.contains(where: { $0.iconImage != nil }) else { return diagnostics }
        let lines = JSONLineIndex(scanning: bytes)
        for (index, layer) in style.layers.enumerated() {
            // An empty icon-image is no icon, as the SDKs read it.
            guard let icon = layer.iconImage, !icon.isEmpty, !sprite.contains(icon) else { continue }
            let path = "layers[\(index)].layout.icon-image"
            diagnostics.append(StyleDiagnostic(message: "\(path): image \"\(icon)\" is not in the sprite", line: lines.line(path)))
        }
        return diagnostics
    }
}
