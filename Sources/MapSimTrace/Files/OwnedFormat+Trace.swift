import MapSimJSON

extension OwnedFormat {
    /// Events as JSON lines (`--events`), or a trace streamed as JSON lines: the first line is an
    /// event (`{"type": …}`) or a trace header (`{"mapsim": …}`).
    public static let eventLines = OwnedFormat("a mapsim events file (JSON lines, each an event)") { bytes in
        ["type", "mapsim"].contains(firstKey(bytes) ?? "")
    }

    /// A trace: YAML as mapsim writes it (its comment line, or its `mapsim:` header key first), or
    /// JSON lines with a header.
    public static let trace = OwnedFormat("a mapsim trace") { bytes in
        begins(bytes, with: "# mapsim trace") || begins(bytes, with: "mapsim:") || eventLines.recognizes(bytes)
    }

    /// A page mapsim made: HTML with its generator mark.
    public static let page = OwnedFormat("a page mapsim made (HTML with <meta name=\"generator\" content=\"mapsim …\">)") { bytes in
        contains(bytes, "<meta name=\"generator\" content=\"mapsim")
    }

    /// A load's summary as JSON (`load --summary`).
    public static let summary = OwnedFormat("a mapsim load summary (JSON)") { bytes in
        firstKey(bytes) == "style-loaded"
    }

    /// A trace exported for Perfetto (`export --perfetto`).
    public static let perfetto = OwnedFormat("a trace mapsim exported for Perfetto") { bytes in
        firstKey(bytes) == "traceEvents" && contains(bytes, "\"mapsim: ")
    }

    /// A JUnit report mapsim wrote (`--junit`).
    public static let junit = OwnedFormat("a JUnit report mapsim wrote") { bytes in
        begins(bytes, with: "<?xml") && contains(bytes, "<testsuite name=\"mapsim")
    }
}
