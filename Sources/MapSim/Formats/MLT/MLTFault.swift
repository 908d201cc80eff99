/// What is wrong with the bytes of an MLT tile, said where it is found (a stream, a value); the
/// layer decoder adds the layer and column when it turns the fault into a `LoadingError`.
struct MLTFault: Error {
    /// What is wrong.
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
