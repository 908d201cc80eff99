import Synchronization
import Testing
import MapSimJSON
@testable import MapSimStyle

/// The specification read a section at a time is the specification read whole.
@Suite("StyleSpecSections")
struct StyleSpecSectionsTests {
    private let whole = (try? JSONParser.parse(StyleSpecReference.json).objectValue) ?? JSONObject()

    @Test func eachSectionIsTheWholeReadingsAndInItsOrder() throws {
        #expect(whole.count > 40)
        let sections = StyleSpecSections()
        for (name, value) in whole.members.reversed() {
            #expect(sections[name] == value, "\(name)")
        }
        #expect(sections["no-such-section"] == nil)
        #expect(StyleSpecSections.names == whole.members.map(\.key))
        #expect(StyleSpecSections.readWhole() == whole)
    }

    /// Sections read all at once are the same sections.
    @Test func readingAllReadsEverySection() {
        let sections = StyleSpecSections()
        sections.readAll()
        #expect(StyleSpecSections.names.allSatisfy { sections[$0] == whole[$0] })
    }

    /// Threads asking for the same sections at once each get the one reading that is kept.
    @Test func threadsAskingAtOnceGetTheSameSections() {
        let sections = StyleSpecSections()
        let names = ["layout_symbol", "paint_line", "$root", "source_vector"]
        let differing = Mutex<[String]>([])
        ParallelThreads.run(4) { thread in
            for name in names + names.reversed() where sections[name] != whole[name] {
                differing.withLock { $0.append("thread \(thread): \(name)") }
            }
        }
        #expect(differing.withLock { $0 }.isEmpty)
    }
}
