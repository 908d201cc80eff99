import Foundation
import ArgumentParser
@testable import MapSimCLI
import MapSimTesting
import Testing

/// The documentation cannot drift: every `sh` block of the README and the manual runs as shown, the
/// one dependency diagram is `Package.swift`'s, the exit statuses are `ExitStatus`'s, and every
/// command has its manual page.
@Suite("Documentation", .serialized)
struct DocumentationTests {
    static let repository = URL(fileURLWithPath: SampleStyle.stylesFolder).deletingLastPathComponent().standardizedFileURL.path
    static let catalog = repository + "/Sources/MapSim/MapSim.docc"

    /// The README and every article of the manual.
    static var documents: [String] {
        let articles = (try? FileManager.default.contentsOfDirectory(atPath: catalog)) ?? []
        return ["README.md"] + articles.filter { $0.hasSuffix(".md") }.sorted().map { "Sources/MapSim/MapSim.docc/" + $0 }
    }

    /// The fenced blocks of `text` whose info string is `info`, each as its lines.
    static func blocks(_ info: String, in text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            if current == nil, line == "```" + info {
                current = []
            } else if current != nil, line.hasPrefix("```") {
                blocks.append(current!)
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The commands of a block: continuation lines joined, comments and blank lines left out; a
    /// trailing `# exits N` says the status the command must exit with.
    static func commands(_ block: [String]) -> [(command: String, status: Int32)] {
        var joined: [String] = []
        var pending = ""
        for line in block {
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
            } else {
                joined.append(pending + line)
                pending = ""
            }
        }
        return joined.compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return nil }
            var status: Int32 = 0
            if let range = trimmed.range(of: "# exits "), let number = Int32(trimmed[range.upperBound...].prefix { $0.isNumber }) { status = number }
            return (trimmed, status)
        }
    }

    @Test func theReadmeIsAShortIntroductionWithTheTwoCommands() throws {
        let readme = try String(contentsOfFile: Self.repository + "/README.md", encoding: .utf8)
        #expect(readme.utf8.count <= 16_384)
        #expect(readme.contains("swift run mapsim load styles/sample/style.json") && readme.contains("swift test"))
        // Each article it links to exists.
        for article in readme.matches(of: /\]\((Sources\/MapSim\/MapSim\.docc\/[A-Za-z]+\.md)\)/) {
            #expect(FileManager.default.fileExists(atPath: Self.repository + "/" + article.1), "\(article.1)")
        }
    }

    @Test(arguments: documents)
    func everyShBlockRunsAsShown(_ document: String) async throws {
        let text = try String(contentsOfFile: Self.repository + "/" + document, encoding: .utf8)
        let commands = Self.blocks("sh", in: text).flatMap(Self.commands)
        guard !commands.isEmpty else { return }
        // A folder of its own, with the sample data, where `mapsim` is the binary under test.
        let folder = try FixtureDirectory()
        for data in ["styles", "traces"] { try FileManager.default.copyItem(atPath: Self.repository + "/" + data, toPath: folder.path + "/" + data) }
        let bin = folder.path + "/.bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/mapsim", withDestinationPath: CommandRunner.executable.path)
        for (command, expected) in commands {
            let line = command.hasPrefix("swift run mapsim ") ? String(command.dropFirst("swift run ".count)) : command
            #expect(line.hasPrefix("mapsim "), "\(document): a runnable block runs mapsim: \(command)")
            let result = try await ShellRunner.run(line, in: folder.path, path: bin)
            #expect(result.status == expected, "\(document): \(command)\n\(result.output.suffix(2_000))")
        }
    }

    /// A `console` block that starts with `$ mapsim …` shows that command and what it prints; it
    /// prints exactly that, in a folder with the sample data.
    @Test(arguments: documents)
    func everyConsoleBlockShowsWhatTheCommandPrints(_ document: String) async throws {
        let text = try String(contentsOfFile: Self.repository + "/" + document, encoding: .utf8)
        for block in Self.blocks("console", in: text) where block.first?.hasPrefix("$ mapsim ") == true {
            let folder = try FixtureDirectory()
            for data in ["styles", "traces"] { try FileManager.default.copyItem(atPath: Self.repository + "/" + data, toPath: folder.path + "/" + data) }
            let arguments = block[0].dropFirst("$ mapsim ".count).split(separator: " ").map(String.init)
            let result = try await CommandRunner.run(arguments, in: folder.path)
            let shown = block.dropFirst().joined(separator: "\n") + "\n"
            #expect(result.standardOutput == shown, "\(document): `\(block[0])` now prints:\n\(result.standardOutput)")
        }
    }

    @Test func theDependencyDiagramIsPackageSwifts() throws {
        let article = try String(contentsOfFile: Self.catalog + "/Architecture.md", encoding: .utf8)
        let diagram = try #require(Self.blocks("text", in: article).first { $0.contains { $0.contains("─▶") } })
        var drawn: [String: Set<String>] = [:]
        for line in diagram {
            let parts = line.components(separatedBy: "─▶")
            guard parts.count == 2 else { continue }
            let target = parts[0].trimmingCharacters(in: .whitespaces)
            let names = parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0 != "(nothing)" }
            drawn[target] = Set(names)
        }
        #expect(drawn == (try Self.declaredDependencies()))
    }

    @Test func theExitStatusesOfTheManualAreExitStatussAndEveryCommandListsItsOwn() async throws {
        let article = try String(contentsOfFile: Self.catalog + "/CommandLine.md", encoding: .utf8)
        let documented = article.components(separatedBy: "\n").compactMap { line -> String? in
            guard let match = line.wholeMatch(of: /\| (\d+) \| (.+) \|/) else { return nil }
            return "\(match.1) \(match.2)"
        }
        let help = try await CommandRunner.run(["--help"]).standardOutput
        #expect(!documented.isEmpty && documented == Self.statuses(in: help))
        let known = Set(documented.map { $0.prefix { $0.isNumber } })
        for command in try await Self.commandPaths() {
            let text = try await CommandRunner.run(command + ["--help"]).standardOutput
            // A group of commands does nothing itself: its subcommands say theirs.
            guard !text.contains("SUBCOMMANDS:") else { continue }
            let statuses = Self.statuses(in: text)
            #expect(!statuses.isEmpty, "mapsim \(command.joined(separator: " ")) --help lists no exit status")
            for status in statuses { #expect(known.contains(status.prefix { $0.isNumber }), "\(command): \(status)") }
        }
    }

    /// The commands parsed straight from their arguments (`MapSimCommand.leafCommand`) are every
    /// command without subcommands, by its name or its group's and its own, and each names the
    /// command above it, as the usage it prints when parsed from the root does.
    @Test func theLeafCommandsAreTheCommandsWithoutSubcommandsByTheirNames() {
        for command in MapSimCommand.commands {
            let name = command.configuration.commandName ?? ""
            let leaf = MapSimCommand.leafCommandType(named: name)
            #expect(leaf.map(ObjectIdentifier.init) == (command.configuration.subcommands.isEmpty ? ObjectIdentifier(command) : nil), "\(name)")
            // Parsed as a root, a leaf says whose command it is (and skips the completion-script check).
            if leaf != nil { #expect(command.configuration._superCommandName == "mapsim", "\(name)") }
            // A group's subcommands are leaves found by the group's name and theirs, and say so too.
            for subcommand in command.configuration.subcommands {
                let subname = subcommand.configuration.commandName ?? ""
                #expect(subcommand.configuration.subcommands.isEmpty, "\(name) \(subname)")
                let found = MapSimCommand.leafCommandType(named: subname, in: name)
                #expect(found.map(ObjectIdentifier.init) == ObjectIdentifier(subcommand), "\(name) \(subname)")
                #expect(subcommand.configuration._superCommandName == "mapsim \(name)", "\(name) \(subname)")
            }
        }
        #expect(MapSimCommand.leafCommandType(named: "region") == nil && MapSimCommand.leafCommandType(named: "download") == nil)
        #expect(MapSimCommand.leafCommandType(named: "download", in: "live") == nil && MapSimCommand.leafCommandType(named: "load", in: "region") == nil)
        #expect(MapSimCommand.configuration.subcommands.map { ObjectIdentifier($0) } == MapSimCommand.commands.map { ObjectIdentifier($0) })
    }

    /// A default is shown as it would be typed (`--timeout`'s `60s`, `--max-age`'s `1h`), never as
    /// a Swift value (`DurationArgument(time: …)`, which `--help` showed before).
    @Test func everyDefaultInTheHelpIsWrittenAsItWouldBeTyped() async throws {
        for command in try await Self.commandPaths() {
            let help = try await CommandRunner.run(command + ["--help"]).standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            let dump = help.firstMatch(of: /\(default: [A-Za-z]+\(/)
            #expect(dump == nil, "mapsim \(command.joined(separator: " ")) --help shows a default as a Swift value")
        }
        #expect(try await CommandRunner.run(["load", "--help"]).standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("(default: 60s)"))
        #expect(try await CommandRunner.run(["serve", "--help"]).standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("(default: 1h)"))
        #expect(try await CommandRunner.run(["live", "replay", "--help"]).standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("(default: 10ms)"))
    }

    @Test func theManualPagesNameEveryCommand() async throws {
        let pages = Self.repository + "/docs/man"
        let root = try String(contentsOfFile: pages + "/mapsim.1", encoding: .utf8)
        for command in try await Self.commandPaths() {
            #expect(root.contains(command[0]), "mapsim.1 names \(command[0])")
            #expect(FileManager.default.fileExists(atPath: pages + "/mapsim." + command.joined(separator: ".") + ".1"), "\(command)")
        }
    }

    @Test func theManualPagesKeepEveryCharacterOfTheHelp() async throws {
        for command in try await Self.commandPaths() {
            let help = try await CommandRunner.run(command + ["--help"]).standardOutput
            let page = try String(contentsOfFile: Self.repository + "/docs/man/mapsim." + command.joined(separator: ".") + ".1", encoding: .utf8)
            for scalar in Set(help.unicodeScalars.filter { !$0.isASCII }) {
                let escape = "\\[u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + "]"
                #expect(page.contains(escape), "mapsim \(command.joined(separator: " ")): the page writes \(scalar) as \(escape)")
            }
            #expect(!page.unicodeScalars.contains { !$0.isASCII }, "the page is ASCII, roff's escapes for the rest")
        }
    }

    /// Each target of `Package.swift` but the tests, with the targets of the package it depends on
    /// (read from the manifest's text: `swift package` cannot run while `swift test` holds the build).
    static func declaredDependencies() throws -> [String: Set<String>] {
        let manifest = try String(contentsOfFile: repository + "/Package.swift", encoding: .utf8)
        var declared: [String: Set<String>] = [:]
        for match in manifest.matches(of: /\.(target|executableTarget|systemLibrary)\(\s*name: "(\w+)"/) {
            // The call's arguments: up to the parenthesis that closes it.
            var depth = 1
            var end = match.range.upperBound
            while depth > 0, end < manifest.endIndex {
                if manifest[end] == "(" { depth += 1 } else if manifest[end] == ")" { depth -= 1 }
                end = manifest.index(after: end)
            }
            let call = String(manifest[match.range.upperBound..<end]).replacing(/\.product\([^)]*\)/, with: "")
            var dependencies: Set<String> = []
            if let list = call.firstMatch(of: /dependencies: \[([^\]]*)\]/) {
                dependencies = Set(list.1.matches(of: /"(\w+)"/).map { String($0.1) })
            }
            declared[String(match.2)] = dependencies
        }
        return declared
    }

    /// The statuses of a help text's `Exit status:` section, each as "NUMBER MEANING".
    static func statuses(in help: String) -> [String] {
        guard let start = help.range(of: "Exit status:\n") else { return [] }
        var entries: [String] = []
        for line in help[start.upperBound...].components(separatedBy: "\n") {
            if let match = line.wholeMatch(of: /\ \ (\d+) +(.+)/) {
                entries.append("\(match.1) \(match.2)")
            } else if line.hasPrefix("       "), !entries.isEmpty {
                entries[entries.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
            } else {
                break
            }
        }
        return entries
    }

    /// Every subcommand, as the words that name it, from the help's own lists.
    static func commandPaths() async throws -> [[String]] {
        var paths: [[String]] = []
        var queue: [[String]] = [[]]
        while !queue.isEmpty {
            let parent = queue.removeFirst()
            let help = try await CommandRunner.run(parent + ["--help"]).standardOutput
            guard let start = help.range(of: "SUBCOMMANDS:\n") else { continue }
            for line in help[start.upperBound...].components(separatedBy: "\n") {
                guard let match = line.wholeMatch(of: /\ \ ([a-z-]+) .*/) else { continue }
                let path = parent + [String(match.1)]
                paths.append(path)
                queue.append(path)
            }
        }
        return paths
    }
}

private extension String {
    /// The string with zeros in front, to `length` characters at least.
    func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
