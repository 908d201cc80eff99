import MapSimJSON
import MapSimStyle

/// The sprite: both parts of every sheet settle; a failure is not fatal but to a still image, which
/// MapLibre's still mode does not draw without its sprite.
extension LoadSequence {
    mutating func receiveSprite(_ response: Response, sheet index: Int, isImage: Bool, url: String) -> [Action] {
        let part = isImage ? load.sprite.sheets[safe: index]?.png : load.sprite.sheets[safe: index]?.json
        guard load.sprite.sheets.indices.contains(index), part == nil, load.sprite.sheets[index].pendingParts > 0 else { return [] }
        var actions: [Action] = []
        // A sprite error is settled at once (not fatal, no retries).
        if response.error != nil { actions.append(.cancel(isImage ? .spriteImage(index) : .spriteJSON(index))) }
        let partName = isImage ? "image" : "JSON"
        if let error = response.error {
            load.sprite.sheets[index].failure = load.sprite.sheets[index].failure ?? "failed to load the sprite \(partName) \(url): \(error.message)"
        } else if let data = response.data {
            if isImage { load.sprite.sheets[index].png = data } else { load.sprite.sheets[index].json = data }
        } else {
            load.sprite.sheets[index].failure = load.sprite.sheets[index].failure ?? "the sprite \(partName) \(url) has no content"
        }
        if isImage { load.sprite.sheets[index].pngURL = url } else { load.sprite.sheets[index].jsonURL = url }
        load.sprite.sheets[index].pendingParts -= 1
        if load.sprite.sheets[index].pendingParts == 0 { actions += finishSheet(index) }
        if case .failed = load.phase { return actions }
        if load.sprite.isSettled {
            noteNewData()
            actions.append(.emit(.styleDataLoaded(StyleDataLoaded(type: .sprite))))
            actions.append(.invalidate)
            actions += checkStyleLoaded()
        }
        return actions
    }

    mutating func finishSheet(_ index: Int) -> [Action] {
        let sheet = load.sprite.sheets[index]
        var failure = sheet.failure
        // A sheet that could not be loaded or read stops a still image; images dropped for lying
        // outside the sheet do not (MapLibre warns and draws the rest).
        var stopsStill = failure != nil
        if failure == nil, let json = sheet.json, let png = sheet.png {
            // The message names the file that is wrong: the image when it is no PNG, else the index.
            let prefix = sheet.source.id == "default" ? "" : sheet.source.id + ":"
            do throws(LoadingError) {
                let header = try PNGImage.validate(png)
                do throws(LoadingError) {
                    let spriteIndex = try SpriteIndex.parse(json, sheet: header)
                    load.sprite.imageNames.formUnion(spriteIndex.names.map { sheet.scope.qualify(prefix + $0) })
                    // MapLibre Native drops them and says so; GL JS draws them blank without a word.
                    if !spriteIndex.outOfBounds.isEmpty && options.engine.reportsSpriteImagesOutsideTheSheet {
                        failure = "sprite \(sheet.source.id): images outside the \(header.width)×\(header.height) sheet were dropped: \(spriteIndex.outOfBounds.joined(separator: ", "))"
                    }
                } catch {
                    failure = "sprite \(sheet.source.id) at \(sheet.jsonURL ?? ""): \(error)"
                    stopsStill = true
                }
            } catch {
                failure = "sprite \(sheet.source.id) at \(sheet.pngURL ?? ""): \(error)"
                stopsStill = true
            }
        }
        guard let failure else { return [] }
        if stopsStill && options.mode == .still { load.phase = .failed(failure) }
        return [.emit(.mapLoadingError(MapLoadingError(type: .sprite, message: failure)))]
    }
}
