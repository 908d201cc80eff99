import Foundation

/// libFuzzer's entry: runs the target `MAPSIM_FUZZ_TARGET` names on one input. Every error a
/// reader throws is an answer; a crash, a hang (libFuzzer's -timeout) or unbounded memory
/// (-rss_limit_mb, -malloc_limit_mb) is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data else { return 0 }
    FuzzTarget.selected.run(Array(UnsafeBufferPointer(start: data, count: count)))
    return 0
}
