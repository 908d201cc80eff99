import Foundation
import Testing
import MapSimTesting
@testable import MapSim

@Suite("FileResourceLoader")
struct FileResourceLoaderTests {
    @Test func readsFileAndAssetURLsWithPercentDecoding() async throws {
        let fixture = try FixtureDirectory()
        try fixture.write("a b/c.json", "{}")
        let loader = FileResourceLoader(assetRoot: fixture.path)
        let byFile = await loader.load(Resource(url: fixture.url("a b/c.json"), kind: .style))
        #expect(byFile.data == Array("{}".utf8) && byFile.source == .localFile && byFile.error == nil)
        let byAsset = await loader.load(Resource(url: "asset://a%20b/c.json", kind: .style))
        #expect(byAsset.data == Array("{}".utf8))
        #expect(loader.handles("file:///x") && loader.handles("asset://x") && !loader.handles("https://x"))
    }

    @Test func missingFilesAndDirectoriesAreNotFound() async throws {
        let fixture = try FixtureDirectory()
        try fixture.write("dir/x", "1")
        let loader = FileResourceLoader(assetRoot: fixture.path)
        let missing = await loader.load(Resource(url: fixture.url("nope.json"), kind: .style))
        #expect(missing.error?.reason == .notFound)
        #expect(missing.error?.message.contains("nope.json") == true)
        let directory = await loader.load(Resource(url: "asset://dir", kind: .style))
        #expect(directory.error?.reason == .notFound)
        #expect(directory.error?.message.contains("is a directory") == true)
    }

    @Test func refusesPathsThatLeaveTheAssetRoot() async throws {
        let outside = try FixtureDirectory()
        try outside.write("secret.txt", "s")
        let fixture = try FixtureDirectory()
        try fixture.write("root/ok.txt", "ok")
        try FileManager.default.createSymbolicLink(atPath: fixture.path + "/root/link", withDestinationPath: outside.path + "/secret.txt")
        let loader = FileResourceLoader(assetRoot: fixture.path + "/root")
        for url in ["asset://../root/../../secret.txt", "asset://%2E%2E/x", "asset://link"] {
            let response = await loader.load(Resource(url: url, kind: .style))
            #expect(response.error?.reason == .other, "\(url)")
            #expect(response.error?.message.contains("leaves the asset root") == true, "\(url)")
        }
        let inside = await loader.load(Resource(url: "asset://sub/../ok.txt", kind: .style))
        #expect(inside.data == Array("ok".utf8))
    }

    @Test func refusesRemoteFileHosts() async {
        let response = await FileResourceLoader(assetRoot: "/").load(Resource(url: "file://server/share/x", kind: .style))
        #expect(response.error?.reason == .other)
    }
}

@Suite("HTTPDate")
struct HTTPDateTests {
    @Test func writesAndReadsRFC1123() {
        let date = HTTPDate(secondsSince1970: 784_111_777)
        #expect(date.description == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate(rfc1123: "Sun, 06 Nov 1994 08:49:37 GMT") == date)
        #expect(HTTPDate(secondsSince1970: 0).description == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate(rfc1123: "yesterday") == nil)
    }
}
