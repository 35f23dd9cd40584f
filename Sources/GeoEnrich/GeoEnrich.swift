// The library in one import: `import GeoEnrich` gives a service every public type of the
// engine, the lookups, H3, the record codec, the stream and the push, without naming the
// modules they live in (they stay separate so that each layer is built and tested alone; see
// ARCHITECTURE.md).
@_exported import EnrichEngine
@_exported import EnrichStream
@_exported import GeoLookup
@_exported import GeoModel
@_exported import H3Core
@_exported import LocationPush
@_exported import RecordCodec
