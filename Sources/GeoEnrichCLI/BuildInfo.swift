/// Facts fixed when the binary is built, for `geo-enrich about`.
///
/// The git commit is written by `scripts/build_cli.sh` into `BuildInfo+Generated.swift` (ignored
/// by git), as `extension BuildInfo { static var commit: String { "…" } }`, which takes precedence
/// over the default below. A build without that file (plain `swift build` in a fresh clone, or a
/// source tree outside git) reports "unknown". A plain `swift build` after `build_cli.sh` reports
/// the commit of that last `build_cli.sh` run.
enum BuildInfo: BuildInfoDefaults {
    /// The H3 release whose results H3Core reproduces bit for bit.
    static let h3Version = "4.5.0"
}

/// The defaults a generated extension of ``BuildInfo`` overrides.
protocol BuildInfoDefaults {}

extension BuildInfoDefaults {
    /// The commit the binary was built from, e.g. `b1efa42c0d3e` or `b1efa42c0d3e-modified`.
    static var commit: String { "unknown" }
}
