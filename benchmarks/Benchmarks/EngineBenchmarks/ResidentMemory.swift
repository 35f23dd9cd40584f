import Foundation

/// The process's resident memory as Linux reports it in `/proc/self`.
///
/// package-benchmark's `peakMemoryResident` samples the same figure every 5 ms over the whole
/// benchmark, set-up included; the memory benchmarks need it at chosen points instead (before
/// and after filling a table), and the high-water mark of just the measured part.
enum ResidentMemory {
    /// Resident bytes now: the second field of `/proc/self/statm`, in pages.
    static func current() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The peak resident bytes since the last ``resetPeak()``: `VmHWM` of `/proc/self/status`.
    static func peak() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return kib * 1_024
    }

    /// Resets the peak to the current resident size (writes `5` to `/proc/self/clear_refs`,
    /// Linux 4.0 and later); a no-op where that is not allowed.
    static func resetPeak() {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return }
        try? handle.write(contentsOf: Data("5".utf8))
        try? handle.close()
    }
}
