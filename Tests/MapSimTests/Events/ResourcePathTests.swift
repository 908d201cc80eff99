import Testing
@testable import MapSim

@Suite("ResourcePath")
struct ResourcePathTests {
    @Test func urlsAreNamedBelowTheStylesFolderFromTheOriginsRootOrWhole() {
        let http = ResourcePath(base: "http://127.0.0.1:8080/maps/style.json?v=2")
        #expect(http.folder == "http://127.0.0.1:8080/maps/" && http.origin == "http://127.0.0.1:8080")
        #expect(http.path(of: "http://127.0.0.1:8080/maps/tiles/10/163/395.pbf") == "tiles/10/163/395.pbf")
        #expect(http.path(of: "http://127.0.0.1:8080/fonts/Noto%20Sans/0-255.pbf") == "/fonts/Noto Sans/0-255.pbf")
        #expect(http.path(of: "https://cdn.example/a.pbf") == "https://cdn.example/a.pbf")
        let file = ResourcePath(base: "file:///srv/maps/style.json")
        #expect(file.origin == nil)
        #expect(file.path(of: "file:///srv/maps/glyphs/Noto%20Sans/0-255.pbf") == http.path(of: "http://127.0.0.1:8080/maps/glyphs/Noto%20Sans/0-255.pbf"))
        #expect(ResourcePath(base: "https://h/data/").path(of: "https://h/data/x.json") == "x.json", "a folder URL is the folder")
    }

    @Test func urlsInAMessageAreNamedByTheirPaths() {
        let naming = ResourcePath(base: "http://127.0.0.1:9/style.json")
        #expect(naming.naming(in: "HTTP 503 server error: http://127.0.0.1:9/tiles/1/0/0.pbf") == "HTTP 503 server error: tiles/1/0/0.pbf")
        #expect(naming.naming(in: "failed to load http://127.0.0.1:9/sprite.json: HTTP 404 (see http://127.0.0.1:9/sprite.png).")
            == "failed to load sprite.json: HTTP 404 (see sprite.png).")
        #expect(naming.naming(in: "nothing to name") == "nothing to name")
    }
}
