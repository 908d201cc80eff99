import CFuzzDriver
import Foundation

// libFuzzer's driver with the command line as given: `MAPSIM_FUZZ_TARGET=json MapSimFuzz CORPUS -max_total_time=60`.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, count in fuzzOneInput(data, count) })
