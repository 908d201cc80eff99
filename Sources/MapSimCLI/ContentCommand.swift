import ArgumentParser

/// `mapsim content`: a site's content, its manifest and signed packages.
struct ContentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "content",
        abstract: "Make and check signed content packages: a site's style, sprites, glyphs and tiles for a first run offline.",
        discussion: """
        A site's content is described by a manifest, manifest.json next to its style: {"site", \
        "version", "items": [{"url", "kind", "size", "sha256"}, ...]}, URLs relative to the \
        manifest. A package is a zip of the manifest, its items and an Ed25519 signature of the \
        manifest; the manifest's SHA-256 hashes cover every item. It is checked with a public key \
        you give, never with one it carries.

        Examples:
          mapsim content keygen -o site-key
          mapsim content pack styles/sample -o city.mapsimpkg --key site-key \\
              --site city --version 1
          mapsim content verify city.mapsimpkg --public-key site-key.pub
        """,
        subcommands: [ContentKeygenCommand.self, ContentPackCommand.self, ContentVerifyCommand.self, ContentCheckCommand.self]
    )
}
