// The shared values (GeoModel: the `geo` object, numbers as JSON wrote them, timestamps,
// country and postal codes) are part of this module's API: a client that imports this module
// names them without importing GeoModel as well.
@_exported import GeoModel
