/// Names one fetch made through the map's pipeline for someone beside the map — a caller of
/// `Map.fetch`, or an attachment's `AttachmentAction.fetch` — so that its answer can be handed back.
public struct FetchToken: Sendable, Hashable {
    /// The place of the attachment that fetches; nil for a fetch through `Map.fetch`.
    let attachment: Int?
    /// The fetch's number, unique among those of its requester.
    public let value: Int

    /// The fetch numbered `value`, made through `Map.fetch`.
    public init(value: Int) {
        attachment = nil
        self.value = value
    }

    /// The fetch numbered `value` of the attachment at `place`.
    init(attachment place: Int, value: Int) {
        attachment = place
        self.value = value
    }
}
