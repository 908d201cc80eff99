import MapSimJSON

/// The images of a sprite sheet: names and rectangles from the sprite JSON, checked against the PNG.
public struct SpriteIndex: Sendable, Equatable {
    /// One image of the sheet.
    public struct Image: Sendable, Equatable {
        /// Rectangle in sheet pixels.
        public var x: Int, y: Int, width: Int, height: Int
        /// Device pixels per logical pixel of the image.
        public var pixelRatio: Double
        /// Whether it is a signed-distance-field icon.
        public var sdf: Bool
    }

    /// The images by name, in document order.
    public var images: [(name: String, image: Image)]
    /// Names dropped because their rectangle leaves the sheet.
    public var outOfBounds: [String]

    /// The image names.
    public var names: [String] { images.map(\.name) }

    /// Parses sprite JSON; with `sheet`, images that leave the sheet are dropped into `outOfBounds`.
    public static func parse(_ bytes: [UInt8], sheet: PNGHeader? = nil) throws(LoadingError) -> SpriteIndex {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw LoadingError.malformedResource("sprite JSON is not valid JSON: \(error)")
        }
        guard let object = document.objectValue else { throw LoadingError.malformedResource("sprite JSON must be an object, found \(document.typeName)") }
        var index = SpriteIndex(images: [], outOfBounds: [])
        for (name, value) in object.members {
            func integer(_ key: String) throws(LoadingError) -> Int {
                guard let n = value[key]?.numberValue, n >= 0, n == n.rounded(), n < 1e7 else {
                    throw LoadingError.malformedResource("sprite image \"\(name)\": \"\(key)\" must be a whole number ≥ 0")
                }
                return Int(n)
            }
            guard value.objectValue != nil else { throw LoadingError.malformedResource("sprite image \"\(name)\" must be an object") }
            let image = Image(x: try integer("x"), y: try integer("y"), width: try integer("width"), height: try integer("height"),
                              pixelRatio: value["pixelRatio"]?.numberValue ?? 1, sdf: value["sdf"]?.boolValue ?? false)
            if let sheet, image.x + image.width > sheet.width || image.y + image.height > sheet.height {
                index.outOfBounds.append(name)
            } else {
                index.images.append((name, image))
            }
        }
        return index
    }

    public static func == (lhs: SpriteIndex, rhs: SpriteIndex) -> Bool {
        lhs.outOfBounds == rhs.outOfBounds && lhs.images.count == rhs.images.count
            && zip(lhs.images, rhs.images).allSatisfy { $0.name == $1.name && $0.image == $1.image }
    }
}
