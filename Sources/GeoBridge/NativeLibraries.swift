import CGEOS

/// Versions of the C library GeoBridge is linked against, for `about` and bug reports. Built
/// against GEOS 3.11; newer versions are expected to work. (The geodesic is our own Swift,
/// ``Geodesic``: PROJ is no longer linked.)
public enum NativeLibraries {
    /// GEOS's version string as reported at run time, e.g. `3.11.1-CAPI-1.17.1`.
    public static var geosVersion: String { String(cString: GEOSversion()) }
}
