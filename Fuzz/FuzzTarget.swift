// A libFuzzer target: every input goes through the invariant verifier
// (ChipTestSupport) under every preset policy, the same checks the tests
// apply to the RFC tables and the corpus, and through contact import with
// its invariants, and through a directory of its lines as contacts, whose
// suggestions must be what a scan of them gives. A broken invariant traps, and libFuzzer keeps the input
// that did it. Built by Fuzz/run.sh.

import ChipTestSupport
import ChipDirectoryTestSupport
import ChipKitTestSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    // One random chunking per input: the fuzzer varies the rest.
    let problems = InvariantVerifier.violations(ofAnyPolicy: Array(UnsafeBufferPointer(start: data, count: size)), seeds: [1])
    if let first = problems.first { fatalError(first) }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let first = ContactCorpus.importViolations(of: bytes).first {
        fatalError(first)
    }
    // The input's lines as contacts: the index suggests what a scan does.
    let contacts = ContactCorpus.contacts(fromLines: bytes)
    if let first = ContactCorpus.suggestionViolations(
        of: contacts, extraQueries: [String(decoding: bytes.prefix(12), as: UTF8.self)]).first {
        fatalError(first)
    }
    return 0
}
