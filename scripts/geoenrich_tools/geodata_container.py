"""Writes geo-enrich's binary data container (read by Sources/GeoLookup/DataFile.swift).

Layout (little-endian): a 128-byte header, then the payload, which starts 8-byte aligned.

  offset size field
  0      8    magic, ASCII, one per kind of file (e.g. b"GEPOSTL1")
  8      4    format version (uint32)
  12     4    header size (uint32) = 128
  16     8    payload size in bytes (uint64) = file size - 128
  24     8    payload checksum (uint64): sum of w_i * (2i + 1) mod 2**64 over the payload read
              as little-endian uint64 words w_i (a last partial word padded with zeros)
  32     32   four counts (uint64 each), meaning set by the kind of file
  64     64   source description, UTF-8, NUL-padded

Sections inside a payload are concatenated in a documented order, each padded to 8 bytes.
"""
import struct

import numpy as np

HEADER_SIZE = 128


def checksum(payload: bytes) -> int:
    padded = payload + b"\0" * (-len(payload) % 8)
    w = np.frombuffer(padded, dtype="<u8")
    weights = np.arange(len(w), dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    with np.errstate(over="ignore"):
        return int(np.sum(w * weights, dtype=np.uint64))


def pad8(b: bytes) -> bytes:
    return b + b"\0" * (-len(b) % 8)


def write(path, magic: bytes, version: int, counts, source: str, sections):
    """Write `sections` (a list of bytes or numpy arrays, each padded to 8 bytes) as one file."""
    assert len(magic) == 8 and len(counts) == 4
    payload = b"".join(pad8(s.tobytes() if hasattr(s, "tobytes") else bytes(s)) for s in sections)
    src = source.encode("utf-8")
    assert len(src) <= 64, "source description longer than 64 bytes"
    header = (magic + struct.pack("<IIQQ", version, HEADER_SIZE, len(payload), checksum(payload))
              + struct.pack("<4Q", *counts) + src.ljust(64, b"\0"))
    assert len(header) == HEADER_SIZE
    with open(path, "wb") as f:
        f.write(header)
        f.write(payload)
    return len(header) + len(payload)
