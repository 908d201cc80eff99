import ArgumentParser

/// A command's options read without ArgumentParser, into the plain values of a run (`LoadRun`,
/// `RegionDownloadRun`): ArgumentParser builds every option of a command by reflection before it
/// parses one, a few milliseconds of a command's start-up. The reader takes only what it reads
/// exactly as ArgumentParser would; on anything else — help, a mistake, a value that does not
/// parse, an option given twice that is not repeatable — it gives up, and the command is parsed
/// by ArgumentParser, which words help and mistakes as it always has.
struct PlainCommandLine<Run>: Sendable {
    /// How one option is read: whether it takes a value, whether that value may start with `-`
    /// (ArgumentParser's `.unconditional`), whether it may be repeated, and how it sets it —
    /// false when the value does not parse.
    struct Option: Sendable {
        var takesValue = true
        var unconditional = false
        var repeatable = false
        var apply: @Sendable (inout Run, String) -> Bool

        /// A flag: it sets a Boolean to true.
        static func flag(_ set: @escaping @Sendable (inout Run) -> Void) -> Option {
            Option(takesValue: false) { run, _ in
                set(&run)
                return true
            }
        }

        /// An option whose value is read by `T(argument:)`, as ArgumentParser reads it.
        static func value<T: ExpressibleByArgument>(_: T.Type, unconditional: Bool = false, repeatable: Bool = false,
                                                    _ set: @escaping @Sendable (inout Run, T) -> Void) -> Option {
            Option(unconditional: unconditional, repeatable: repeatable) { run, text in
                guard let value = T(argument: text) else { return false }
                set(&run, value)
                return true
            }
        }

        /// This option of a part of a larger run (its loading settings), setting that part there.
        func within<Whole>(_ part: WritableKeyPath<Whole, Run> & Sendable) -> PlainCommandLine<Whole>.Option {
            let apply = apply
            return PlainCommandLine<Whole>.Option(takesValue: takesValue, unconditional: unconditional, repeatable: repeatable) { whole, text in
                apply(&whole[keyPath: part], text)
            }
        }
    }

    /// The options, by long name.
    let options: [String: Option]
    /// The short names, with the long name each stands for (`-q`: `--quiet`).
    let shortNames: [String: String]

    /// The positional arguments of `arguments` (a command's, after its name), once every option
    /// among them has been set in `run`; nil when an argument is not one this reader takes as
    /// ArgumentParser would (then `run` is half set, and to be dropped).
    func read(_ arguments: some Sequence<String>, into run: inout Run) -> [String]? {
        var positional: [String] = []
        var given = Set<String>()
        var rest = ArraySlice(arguments)
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("-"), argument != "-" else {
                positional.append(argument)
                continue
            }
            var name = shortNames[argument] ?? argument
            var inline: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let option = options[name], option.repeatable || given.insert(name).inserted else { return nil }
            let value: String
            if option.takesValue {
                if let inline {
                    value = inline
                } else {
                    guard let next = rest.popFirst(), option.unconditional || !next.hasPrefix("-") else { return nil }
                    value = next
                }
            } else {
                guard inline == nil else { return nil }
                value = ""
            }
            guard option.apply(&run, value) else { return nil }
        }
        return positional
    }
}
