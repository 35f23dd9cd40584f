#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the bundled data files (`countries.bin`, `postal_ca.bin`) are.
///
/// The search, first match wins:
/// 1. `--data DIR`: only there (an explicit folder that lacks the files is an error naming it);
/// 2. `$GEO_ENRICH_DATA`, when set and not empty: only there, likewise;
/// 3. beside the real executable (`/proc/self/exe`, symbolic links resolved, not `argv[0]`):
///    `<bin>/data`, and for a SwiftPM build (`<repo>/.build…/<config>/geo-enrich`) the
///    repository's `data/`;
/// 4. `<bin>/../share/geo-enrich`: an installed prefix (`make install`, the .deb);
/// 5. `/usr/share/geo-enrich`.
///
/// A folder holds the data when both files are readable there. When none does, the error lists
/// every folder looked at, in order.
enum DataDirectory {
    /// The files a data folder must hold.
    static let requiredFiles = ["countries.bin", "postal_ca.bin"]
    /// The `--data` option's help, the same for every command that reads the data.
    static let optionHelp = "Folder of the data files (countries.bin, postal_ca.bin). Default: $GEO_ENRICH_DATA, "
        + "else data/ beside the executable (or the repository's, for a SwiftPM build), else "
        + "<prefix>/share/geo-enrich of the executable's bin/, else /usr/share/geo-enrich. "
        + "`geo-enrich about` shows the folder found."
    /// The system-wide folder, last in the search.
    static let systemFolder = "/usr/share/geo-enrich"

    /// A folder the search looked at, and why it was a candidate.
    struct Candidate: Equatable {
        var path: String
        var origin: String
    }

    /// The folder found, and how.
    struct Found {
        var path: String
        var origin: String
    }

    /// No candidate folder holds the data.
    struct NotFound: Error, CustomStringConvertible {
        var searched: [Candidate]
        /// True when `--data` or `$GEO_ENRICH_DATA` chose the folder (the search stops there).
        var explicit: Bool

        var description: String {
            let files = DataDirectory.requiredFiles.joined(separator: ", ")
            var text = "no geo-enrich data (\(files)) found; looked in:\n"
            for c in searched {
                let missing = DataDirectory.requiredFiles.filter { !DataDirectory.readable(c.path + "/" + $0) }
                let why = DataDirectory.isDirectory(c.path) ? "missing or unreadable: " + missing.joined(separator: ", ")
                                                            : "no such folder"
                text += "  \(c.path)  (\(c.origin); \(why))\n"
            }
            if explicit, let given = searched.first {
                let leaveOut = given.origin == "--data" ? "leave --data out" : "unset GEO_ENRICH_DATA"
                text += "a folder given by \(given.origin) is the only place searched; point it at the "
                    + "folder holding the data files, or \(leaveOut) to search beside the executable"
            } else {
                text += "pass --data DIR or set GEO_ENRICH_DATA to the folder holding the data files "
                    + "(the repository's data/, or an installation's share/geo-enrich)"
            }
            return text
        }
    }

    /// The data folder path (what the commands open). Throws ``NotFound``, whose message lists
    /// the folders searched.
    static func resolve(_ option: String?) throws -> String {
        try find(option).path
    }

    /// The data folder and how it was found.
    static func find(_ option: String?,
                     environment: String? = environmentValue("GEO_ENRICH_DATA"),
                     executable: String? = executablePath()) throws(NotFound) -> Found {
        let list = candidates(option: option, environment: environment, executable: executable)
        for c in list where holdsData(c.path) { return Found(path: c.path, origin: c.origin) }
        let explicit = option != nil || (environment.map { !$0.isEmpty } ?? false)
        throw NotFound(searched: list, explicit: explicit)
    }

    /// The folders to look in, in order, without duplicates.
    static func candidates(option: String?, environment: String?, executable: String?) -> [Candidate] {
        if let option { return [Candidate(path: option, origin: "--data")] }
        if let environment, !environment.isEmpty {
            return [Candidate(path: environment, origin: "$GEO_ENRICH_DATA")]
        }
        var list: [Candidate] = []
        func add(_ path: String, _ origin: String) {
            let p = normalize(path)
            if !list.contains(where: { $0.path == p }) { list.append(Candidate(path: p, origin: origin)) }
        }
        if let executable {
            let bin = parent(executable)
            add(bin + "/data", "beside the executable")
            // a SwiftPM build: <repo>/.build…/[<triple>/]<config>/geo-enrich → <repo>/data
            let parts = bin.split(separator: "/", omittingEmptySubsequences: true)
            if let i = parts.lastIndex(where: { $0.hasPrefix(".build") }) {
                add("/" + parts[..<i].joined(separator: "/") + "/data", "the repository of this SwiftPM build")
            }
            add(bin + "/../share/geo-enrich", "the installation prefix of the executable")
        }
        add(systemFolder, "system-wide")
        return list
    }

    /// Whether every required file is readable in `folder`.
    static func holdsData(_ folder: String) -> Bool {
        requiredFiles.allSatisfy { readable(folder + "/" + $0) }
    }

    static func readable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    static func environmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The running executable's real path: `/proc/self/exe` on Linux (symbolic links resolved
    /// by the kernel), the loader's path made real elsewhere; nil when neither is known.
    static func executablePath() -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if n > 0 {
            return buffer.withUnsafeBufferPointer { b in
                String(decoding: UnsafeRawBufferPointer(start: b.baseAddress, count: n), as: UTF8.self)
            }
        }
        return nil
        #else
        var size: UInt32 = 0
        _ = _NSGetExecutablePath(nil, &size)
        var raw = [CChar](repeating: 0, count: Int(size) + 1)
        guard _NSGetExecutablePath(&raw, &size) == 0 else { return nil }
        var real = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(raw, &real) != nil else { return nil }
        return String(cString: real)
        #endif
    }

    /// The folder holding `path` ("/" for a file at the root).
    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` with `.`, `..` and repeated slashes removed lexically (the executable's folder is
    /// real, so its `..` is its parent).
    static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var out: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = out.last, last != ".." { out.removeLast(); continue }
            if part == "..", absolute { continue }
            out.append(part)
        }
        let joined = out.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
