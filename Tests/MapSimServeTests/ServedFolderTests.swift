import Foundation
import Testing
import MapSimTesting
@testable import MapSimServe

/// The files `mapsim serve` keeps in memory: served as they are now on disk, whatever way they
/// changed — rewritten, replaced by a rename, deleted, reached through a link that now leads
/// elsewhere, or changed with their size and time kept — at the very next request.
@Suite("ServedFolder")
struct ServedFolderTests {
    private func text(_ folder: ServedFolder, _ path: String) -> String? {
        folder.file(atRelativePath: path).map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    @Test func aFileIsServedAsItIsNowAfterEveryKindOfChange() throws {
        let fixture = try FixtureDirectory()
        _ = try fixture.write("site/tiles/a/1.pbf", "one")
        _ = try fixture.write("site/tiles/b/1.pbf", "uno")
        _ = try fixture.write("site/style.json", "{}")
        try FileManager.default.createSymbolicLink(atPath: fixture.path + "/site/linked", withDestinationPath: "tiles/a")
        let folder = try #require(ServedFolder(path: fixture.path + "/site"))
        #expect(text(folder, "tiles/a/1.pbf") == "one")
        #expect(text(folder, "linked/1.pbf") == "one")
        #expect(folder.file(atRelativePath: "tiles/a/1.pbf")?.isWatched == true, "kept, and watched: no look at the disk")

        // Rewritten in place, with the same size and modification time as before.
        let path = fixture.path + "/site/tiles/a/1.pbf"
        let time = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate]
        try Data("two".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: time as Any], ofItemAtPath: path)
        #expect(text(folder, "tiles/a/1.pbf") == "two")
        #expect(text(folder, "linked/1.pbf") == "two", "the file behind a link too")

        // Replaced by a rename, as editors save.
        _ = try fixture.write("site/tiles/a/1.tmp", "three!")
        #expect(rename(fixture.path + "/site/tiles/a/1.tmp", path) == 0)
        #expect(text(folder, "tiles/a/1.pbf") == "three!")

        // A link that now leads elsewhere.
        try FileManager.default.removeItem(atPath: fixture.path + "/site/linked")
        try FileManager.default.createSymbolicLink(atPath: fixture.path + "/site/linked", withDestinationPath: "tiles/b")
        #expect(text(folder, "linked/1.pbf") == "uno")

        // A folder moved away, then a file deleted.
        try FileManager.default.moveItem(atPath: fixture.path + "/site/tiles/b", toPath: fixture.path + "/site/tiles/c")
        #expect(folder.file(atRelativePath: "linked/1.pbf") == nil)
        #expect(text(folder, "tiles/c/1.pbf") == "uno")
        try FileManager.default.removeItem(atPath: path)
        #expect(folder.file(atRelativePath: "tiles/a/1.pbf") == nil)
        #expect(text(folder, "style.json") == "{}", "what did not change is still served")
    }

    #if os(Linux)
    /// Each request asks whether notices are queued without reading them, outside the folder's lock;
    /// only a request that finds some reads them, under it.
    @Test func aChangeIsNoticedWithoutTheNoticeBeingReadUntilItIsApplied() throws {
        let fixture = try FixtureDirectory()
        _ = try fixture.write("site/tiles/1.pbf", "one")
        let root = try #require(realpath(fixture.path + "/site", nil))
        defer { free(root) }
        let watch = try #require(FolderWatch(root: String(cString: root)))
        #expect(watch.watchFolders(of: "tiles/1.pbf"))
        #expect(!watch.hasNotices)
        try Data("two".utf8).write(to: URL(fileURLWithPath: fixture.path + "/site/tiles/1.pbf"))
        #expect(watch.hasNotices)
        #expect(watch.hasNotices, "asking read nothing: the notice is still queued")
        #expect(watch.changes() == .paths(["tiles/1.pbf"]))
        #expect(!watch.hasNotices)
        #expect(watch.changes() == .none)
    }
    #endif
}
