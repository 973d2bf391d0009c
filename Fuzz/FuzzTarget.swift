// A libFuzzer target: every input goes through the invariant verifier
// (ChipTestSupport) under every preset policy, the same checks the tests
// apply to the RFC tables and the corpus. A broken invariant traps, and
// libFuzzer keeps the input that did it. Built by Fuzz/run.sh.

import ChipKit
import ChipTestSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var problems: [String] = []
    for policy in [ValidationPolicy.strict, .standard, .lenient] {
        var verifier = InvariantVerifier(policy: policy)
        verifier.seeds = [1]  // one random chunking per input: the fuzzer varies the rest
        problems += verifier.violations(of: bytes)
    }
    if let first = problems.first { fatalError(first) }
    return 0
}
