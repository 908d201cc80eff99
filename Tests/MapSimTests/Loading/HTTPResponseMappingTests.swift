import Testing
@testable import MapSim

@Suite("HTTPResponseMapping")
struct HTTPResponseMappingTests {
    private let now = HTTPDate(secondsSince1970: 1_000_000)

    private func map(_ status: Int, kind: Resource.Kind = .style, _ headers: [(String, String)] = [], body: [UInt8] = [1]) -> Response {
        HTTPResponseMapping.response(status: status, headers: headers.map { (name: $0.0, value: $0.1) }, body: body,
                                     for: Resource(url: "https://h/x", kind: kind), now: now)
    }

    @Test func mapsEveryStatusRow() {
        #expect(map(200).data == [1] && map(206).data == [1] && map(200).error == nil)
        #expect(map(204).noContent)
        #expect(map(304).notModified && map(304).data == nil)
        #expect(map(404, kind: .tile).noContent && map(404, kind: .tile).error == nil)
        #expect(map(404).error?.reason == .notFound)
        #expect(map(429).error?.reason == .rateLimit)
        #expect(map(500).error?.reason == .server && map(503).error?.reason == .server)
        #expect(map(403).error?.reason == .other && map(418).error?.reason == .other)
        #expect(map(502).error?.message == "HTTP 502 server error: https://h/x")
    }

    @Test func readsCacheHeaders() {
        let response = map(200, [("Cache-Control", "public, max-age=60, must-revalidate"), ("ETag", "\"v1\""), ("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT")])
        #expect(response.expires == HTTPDate(secondsSince1970: 1_000_060))
        #expect(response.mustRevalidate && response.etag == "\"v1\"")
        #expect(response.modified == HTTPDate(secondsSince1970: 784_111_777))
        #expect(map(200, [("expires", "Sun, 06 Nov 1994 08:49:37 GMT")]).expires == HTTPDate(secondsSince1970: 784_111_777))
        #expect(map(200, [("Expires", "0")]).expires == HTTPDate(secondsSince1970: 0))
        #expect(map(200, [("Cache-Control", "max-age=5"), ("Expires", "Sun, 06 Nov 1994 08:49:37 GMT")]).expires == HTTPDate(secondsSince1970: 1_000_005))
    }

    @Test func readsCacheControlDirectivesInAnyCaseAndSpacing() {
        #expect(CacheControl("MAX-AGE = \"30\" ,\tMust-Revalidate").maxAge == 30)
        #expect(CacheControl("MAX-AGE = \"30\" ,\tMust-Revalidate").mustRevalidate)
        #expect(CacheControl("max-age=-5").maxAge == -5 && CacheControl("max-age=+5").maxAge == 5)
        for unread in ["max-age", "max-age=", "max-age=5s", "max-age==5", "=5", "s-maxage=5", "max-age=99999999999999999999", ""] {
            #expect(CacheControl(unread).maxAge == nil, "\(unread)")
        }
        #expect(!CacheControl("no-cache, private").mustRevalidate && CacheControl("no-cache, private").maxAge == nil)
        #expect(CacheControl("max-age=1, max-age=2").maxAge == 2)
    }

    /// The fixed form servers send and any other spacing of its six fields read alike; other shapes not at all.
    @Test func readsHTTPDatesInTheirFixedFormAndOtherwiseSpaced() {
        let date = HTTPDate(secondsSince1970: 784_111_777)
        #expect(HTTPDate(rfc1123: "Sun, 06 Nov 1994 08:49:37 GMT") == date)
        #expect(HTTPDate(rfc1123: "Sun,  6 Nov 1994 08:49:37 GMT") == date)
        #expect(HTTPDate(rfc1123: "Sunday, 06 Nov 1994 08:49:37 GMT") == date)
        #expect(HTTPDate(rfc1123: date.description) == date && date.description == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate(secondsSince1970: -1).description == "Wed, 31 Dec 1969 23:59:59 GMT")
        #expect(HTTPDate(secondsSince1970: 951_782_400).description == "Tue, 29 Feb 2000 00:00:00 GMT")
        for bad in ["Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nox 1994 08:49:37 GMT",
                    "Sun, 06 Nov 1994 24:49:37 GMT", "Sun, 06 Nov 1994 08:4x:37 GMT", "Sun, 06 Nov 1994 08:49 GMT", "1994-11-06T08:49:37Z", ""] {
            #expect(HTTPDate(rfc1123: bad) == nil, "\(bad)")
        }
    }

    /// A lying server's numbers (a max-age or Retry-After past what a date holds, a year of 14 digits)
    /// give a date held at the end of time or none, never a wrapped one or a trap.
    @Test func headersPastTheEndOfTimeAreHeldThereOrIgnored() {
        #expect(map(200, [("Cache-Control", "max-age=9223372036854775807")]).expires == HTTPDate(secondsSince1970: .max))
        #expect(map(200, [("Cache-Control", "max-age=-9223372036854775808")]).expires == HTTPDate(secondsSince1970: 1_000_000 + .min))
        #expect(map(429, [("Retry-After", "9223372036854775807")]).error?.retryAfter == HTTPDate(secondsSince1970: .max))
        #expect(map(200, [("Last-Modified", "Sun, 06 Nov 99999999999999 08:49:37 GMT")]).modified == nil)
        #expect(map(200, [("Expires", "Sun, 06 Nov 99999999999999 08:49:37 GMT")]).expires == HTTPDate(secondsSince1970: 0))
        #expect(HTTPDate(rfc1123: "Fri, 31 Dec 9999 23:59:59 GMT") == HTTPDate(secondsSince1970: 253_402_300_799))
        // The first and last dates there are, as a trace writes them, read back as they were.
        for (seconds, text) in [(Int64.min, "Sun, 27 Jan -292277022657 08:29:52 GMT"), (.max, "Sun, 04 Dec 292277026596 15:30:07 GMT")] {
            #expect(HTTPDate(secondsSince1970: seconds).description == text && HTTPDate(rfc1123: text) == HTTPDate(secondsSince1970: seconds))
        }
        #expect(HTTPDate(rfc1123: "Sun, 04 Dec 292277026596 15:30:08 GMT") == nil && HTTPDate(rfc1123: "Sun, 27 Jan -292277022657 08:29:51 GMT") == nil)
        #expect(HTTPDate(secondsSince1970: .max).seconds(since: HTTPDate(secondsSince1970: -1)) == .max)
        #expect(HTTPDate(secondsSince1970: .min).seconds(since: HTTPDate(secondsSince1970: 1)) == .min)
        #expect(HTTPDate(secondsSince1970: 5).seconds(since: HTTPDate(secondsSince1970: 7)) == -2)
    }

    @Test func readsRetryAfterInEveryForm() {
        #expect(map(429, [("Retry-After", "30")]).error?.retryAfter == HTTPDate(secondsSince1970: 1_000_030))
        #expect(map(429, [("Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT")]).error?.retryAfter == HTTPDate(secondsSince1970: 784_111_777))
        #expect(map(429, [("x-rate-limit-reset", "1000500")]).error?.retryAfter == HTTPDate(secondsSince1970: 1_000_500))
        #expect(map(429).error?.retryAfter == nil)
    }
}
