import NIOHTTP1

/// Why a server's answer is not HTTP, in the words users read rather than the parser's ("invalid
/// constant string" is another protocol on the port, or a server that is not one).
enum MalformedAnswer {
    static func reason(_ error: HTTPParserError) -> String {
        switch error {
        case .invalidConstant, .invalidVersion: "it does not begin as an HTTP answer does (is another protocol on that port?)"
        case .invalidStatus: "its status line is not valid"
        case .headerOverflow: "its headers are too large"
        case .invalidHeaderToken, .invalidCharactersUsed, .lfExpected: "its headers are not valid"
        case .invalidContentLength: "its Content-Length is not a number of bytes"
        case .unexpectedContentLength: "it has two lengths (two Content-Length headers, or one with chunked encoding)"
        case .invalidChunkSize: "a chunk of its body has no valid size"
        default: "\(error)"
        }
    }
}
