// A libFuzzer target: every input goes through the invariant verifier
// (ChipTestSupport) under every preset policy, the same checks the tests
// apply to the RFC tables and the corpus, and through contact import with
// its invariants. A broken invariant traps, and libFuzzer keeps the input
// that did it. Built by Fuzz/run.sh.

import ChipTestSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    // One random chunking per input: the fuzzer varies the rest.
    let problems = InvariantVerifier.violations(ofAnyPolicy: Array(UnsafeBufferPointer(start: data, count: size)), seeds: [1])
    if let first = problems.first { fatalError(first) }
    if let first = ContactCorpus.importViolations(of: Array(UnsafeBufferPointer(start: data, count: size))).first {
        fatalError(first)
    }
    return 0
}
