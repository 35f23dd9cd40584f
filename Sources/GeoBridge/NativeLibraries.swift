import CGEOS
import CPROJ

/// Versions of the C libraries GeoBridge is linked against, for `--version` output and bug
/// reports. Built against PROJ 9.1 and GEOS 3.11; newer versions are expected to work.
public enum NativeLibraries {
    /// GEOS's version string as reported at run time, e.g. `3.11.1-CAPI-1.17.1`.
    public static var geosVersion: String { String(cString: GEOSversion()) }

    /// PROJ's version number as reported at run time, e.g. `9.1.1`.
    public static var projVersion: String { String(cString: proj_info().version) }

    /// PROJ's release string as reported at run time, e.g. `Rel. 9.1.1, December 1st, 2022`.
    public static var projRelease: String { String(cString: proj_info().release) }
}
