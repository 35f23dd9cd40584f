import ArgumentParser
import GeoModel

/// `--postal-countries CA,US`: the countries whose points get a postal code, as the command
/// line writes them (ISO 3166-1 alpha-2, comma-separated; `none` for no postal codes).
public struct PostalCountries: ExpressibleByArgument, Sendable, Equatable {
    /// The postal systems asked for.
    public let systems: Set<PostalCode.System>

    /// The default: Canada alone.
    public static let canada = PostalCountries(systems: [.canada])

    public init(systems: Set<PostalCode.System>) { self.systems = systems }

    /// Reads `CA`, `US`, `CA,US` (any order, any case) or `none`; `nil` for anything else.
    public init?(argument: String) {
        if argument.lowercased() == "none" {
            systems = []
            return
        }
        var systems: Set<PostalCode.System> = []
        for name in argument.split(separator: ",", omittingEmptySubsequences: false) {
            switch name.trimmingCharacters(in: " ").uppercased() {
            case "CA": systems.insert(.canada)
            case "US": systems.insert(.unitedStates)
            default: return nil
            }
        }
        self.systems = systems
    }

    public var defaultValueDescription: String {
        let names = [systems.contains(.canada) ? "CA" : nil, systems.contains(.unitedStates) ? "US" : nil].compactMap { $0 }
        return names.isEmpty ? "none" : names.joined(separator: ",")
    }

    public static let help = ArgumentHelp(
        "Countries whose points get a postal code: CA (Canadian postal codes and FSA), US (ZIP codes), "
            + "CA,US, or none.",
        valueName: "countries")
}

private extension Substring {
    func trimmingCharacters(in set: Character) -> Substring {
        var s = self
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return s
    }
}
