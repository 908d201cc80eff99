import MapSim
import NIOHTTP1

/// A body as sent, decoded by its `Content-Encoding`, for both of the loader's clients: gzip (and
/// `x-gzip`) and deflate inflated within the body limit, with a gzip member's stream kept as zlib
/// for a store (`Response.zlibData`); any other coding, or none, as sent.
enum ContentDecoding {
    /// The body `sent` with `headers`, and its stream as zlib when it came as one gzip member.
    /// Throws `PlainHTTPConnection.BodyTooLarge` past `limit`, `PlainHTTPConnection.UndecodableBody`
    /// when it does not inflate.
    static func decode(_ sent: [UInt8], headers: HTTPHeaders, limit: Int) throws -> (body: [UInt8], zlib: [UInt8]?) {
        let coding = headers.first(name: "content-encoding").map { ASCIIBytes.trimmingBlanks($0.utf8) }
        let isDeflated = coding.map { ASCIIBytes.equalsIgnoringCase($0, "gzip") || ASCIIBytes.equalsIgnoringCase($0, "x-gzip") || ASCIIBytes.equalsIgnoringCase($0, "deflate") } ?? false
        guard isDeflated, !sent.isEmpty else { return (sent, nil) }
        do {
            return try ZlibCodec.inflateKeepingStream(sent, limit: limit)
        } catch {
            if error.code == .tooLarge { throw PlainHTTPConnection.BodyTooLarge() }
            throw PlainHTTPConnection.UndecodableBody(coding: coding.map { String(Substring($0)) } ?? "", reason: error.reason)
        }
    }
}
