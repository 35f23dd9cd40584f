"""Python helpers shared by more than one of geo-enrich's scripts (scripts/ci, scripts/data, scripts/dev).

Importable once `scripts/` is on the module path: the entry points (scripts/test.sh,
scripts/data/build_data.sh) export PYTHONPATH=scripts; by hand, run a script as
`PYTHONPATH=scripts python3 scripts/ci/h3_diffcheck.py ...` from the repository root.

  paths              the repository root and the peer's folder beside it (../shared/bench)
  geodata_container  the header and checksum of geo-enrich's data files
  country_rule       the peer's country rule, straight from the shapefile
  h3_testpoints      the points where H3 is fragile (pentagons, face edges, poles, antimeridian)
  broken_lines       a corpus of every kind of bad or awkward input line, with what the peer does with it
  stream_gen         our realistic stream generator (also a script), for the stream checks without the peer
  geofence_gen       generated geofences, their file, and the membership reference (shapely, pyproj)
  faulty_http        a loopback HTTP server that records requests and fails as told (push_check, geofence_webhook_check)
  checks             the tally of named pass/fail checks that the CLI case lists print
"""
