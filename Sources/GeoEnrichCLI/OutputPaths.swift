import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials  // not Foundation: its link brings 34 MB of ICU data (README, Binary size)
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Refuses, before anything is opened, outputs that would destroy an input or each other: an
/// output (`-o`, `--errors`, `--stats`, the push's dead-letter file) that is an input, or two
/// outputs that are one file.
///
/// "One file" is decided by device and inode for files that exist (a hard link or a symbolic
/// link is caught as well as the same name), and by the resolved path for outputs not made yet.
/// Only regular files count: `/dev/null`, `/dev/stderr` on a terminal and pipes can be named
/// twice. An output opened as an input was truncated first, then read while being written
/// (SIGBUS on a mapped input); two outputs on one file lost lines with exit status 0.
enum OutputPaths {
    /// One named file: what the user called it, and how it is identified.
    private struct Named {
        let option: String
        let path: String
        let identity: Identity?
    }

    private enum Identity: Equatable {
        /// An existing regular file.
        case inode(dev: UInt64, ino: UInt64)
        /// A regular file not made yet, by its resolved path.
        case path(String)
    }

    /// - Parameters:
    ///   - inputs: the input paths (`-` is standard input).
    ///   - outputs: each output's option name and path, `nil` when not given.
    /// - Throws: `ValidationError` (exit 64) naming both options and the file.
    static func check(inputs: [String], outputs: [(option: String, path: String?)]) throws {
        var ins = inputs.filter { $0 != "-" }.map { Named(option: "input", path: $0, identity: identity($0)) }
        // standard input (no INPUT, or `-`) redirected from a file: `-o f < f` truncated f before it was read
        if inputs.isEmpty || inputs.contains("-"), let stdin = standardInputIdentity() {
            ins.append(Named(option: "input", path: "standard input", identity: stdin))
        }
        let outs = outputs.compactMap { o in
            o.path.flatMap { $0 == "-" ? nil : Named(option: o.option, path: $0, identity: identity($0)) }
        }
        for (k, out) in outs.enumerated() {
            guard let id = out.identity else { continue }
            if let input = ins.first(where: { $0.identity == id }) {
                throw ValidationError("\(out.option) \(out.path) is the input \(input.path): writing it would destroy what is to be read; choose another file")
            }
            if let other = outs[..<k].first(where: { $0.identity == id }) {
                throw ValidationError("\(out.option) \(out.path) and \(other.option) \(other.path) are one file: their lines would overwrite each other; choose two files")
            }
        }
    }

    /// Standard input's file, when it is a regular file (not a terminal or a pipe).
    private static func standardInputIdentity() -> Identity? {
        var info = stat()
        guard fstat(STDIN_FILENO, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return .inode(dev: UInt64(info.st_dev), ino: UInt64(info.st_ino))
    }

    /// How `path` is told apart, or `nil` when it is not (or would not be) a regular file.
    private static func identity(_ path: String) -> Identity? {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            return .inode(dev: UInt64(info.st_dev), ino: UInt64(info.st_ino))
        }
        // not made yet: its directory resolved (symbolic links followed) and its name
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().resolvingSymlinksInPath().standardizedFileURL.path
        return .path(directory + "/" + url.lastPathComponent)
    }
}
