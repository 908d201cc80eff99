/// A 3D model a style names (Mapbox's `models`, or a `model` source's `models`): its id and the
/// URL of its glTF file (`.glb`).
public struct StyleModel: Sendable, Equatable {
    /// The model's id, as `model-id` names it.
    public var id: String
    /// The URL of its `.glb` file.
    public var url: String

    /// A model.
    public init(id: String, url: String) {
        self.id = id
        self.url = url
    }
}
