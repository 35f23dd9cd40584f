#!/usr/bin/env python3
"""Write the RecordCodec differential corpus in Tests/RecordCodecTests/Fixtures/ from the peer.

Every expected value comes from the peer itself (../shared/bench/peer_enrich.py, imported with
importlib) and the libraries it runs on, never from a second implementation:
  verdicts.txt    input lines and the peer's `validate` verdict (reason code, or the parsed
                  fields), plus blank lines that the peer's main loop skips;
  splices.txt     valid lines, a `geo` object's values, and the output line the peer's
                  `flush()` writes (`raw.rstrip()[:-1] + b',"geo":' + orjson.dumps(g) + b"}"`);
  timestamps.txt  strings and the peer's `parse_ts` of them (CPython's datetime.fromisoformat);
  floats.txt      doubles and `orjson.dumps` of them.

Lines are random but deterministic (fixed seed): records built token by token (escapes,
number forms, white space, key order, duplicate keys, nested values), the hard cases named in
the codec's brief, and random byte mutations of valid lines for the JSON grammar.

Raw bytes are written escaped so that any byte survives: printable ASCII other than `\\` as is,
every other byte as `\\xHH`. Numbers are typed: `i:<int>` for a Python int, `f:<repr>` for a
float (repr is shortest round-trip: a correctly rounded reader gets the bits back).

Needs the peer's Python packages (`bash ../shared/bench/setup_peer.sh`); orjson must be 3.8.3.
usage: python3 scripts/dev/gen_codec_corpus.py [--peer PATH] [--out DIR] [--seed N] [--scale K]
       (--scale multiplies every count, for long runs into another directory; the tests read
        RECORD_CODEC_CORPUS=DIR instead of the fixtures when it is set)
"""
import argparse
import importlib.util
import os
import random
import struct
import sys

import h3
import orjson

SEED = 20_251_127  # fixed: the fixtures must not change unless this script does
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_OUT = os.path.join(REPO, "Tests", "RecordCodecTests", "Fixtures")
DEFAULT_PEER = os.path.join(os.path.dirname(REPO), "shared", "bench", "peer_enrich.py")

COUNTS = dict(records=1500, broken=400, mutations=700, splices=400, timestamps=2000, floats=1500)


def load_peer(path):
    spec = importlib.util.spec_from_file_location("peer_enrich", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def esc(raw: bytes) -> str:
    return "".join(chr(b) if 0x20 <= b < 0x7F and b != 0x5C else "\\x%02x" % b for b in raw)


def num(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        raise TypeError(v)
    if isinstance(v, int):
        return "i:%d" % v
    return "f:" + repr(v)


# ---------------------------------------------------------------------------- value texts
# Each returns the JSON text of a value (bytes), so that the raw syntax is under control.

def iso_string(rng):
    """A timestamp string, mostly valid, in the forms the contract and fromisoformat know."""
    year = rng.choice([2025, 2025, 2025, 1970, 1969, 2000, 1, 999, 1000, 1684, 2256, 9999, 2024])
    month, day = rng.randint(1, 12), rng.randint(1, 28)
    if rng.random() < 0.1:
        month, day = rng.choice([(2, 29), (2, 30), (12, 31), (4, 31), (13, 1), (0, 1), (1, 0)])
    date = "%04d-%02d-%02d" % (year, month, day)
    if rng.random() < 0.08:
        date = rng.choice(["%04d%02d%02d" % (year, month, day), "%04d-W%02d-%d" % (year, rng.randint(1, 53), rng.randint(1, 7)),
                           "%04dW%02d%d" % (year, rng.randint(1, 53), rng.randint(1, 7)), "%04d-W%02d" % (year, rng.randint(1, 53))])
    h, m, s = rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59)
    time = rng.choice(["%02d:%02d:%02d" % (h, m, s)] * 6 + ["%02d:%02d" % (h, m), "%02d" % h, "%02d%02d%02d" % (h, m, s)])
    if rng.random() < 0.7:
        digits = rng.choice([1, 2, 3, 3, 3, 4, 5, 6, 6, 7, 9])
        frac = "".join(rng.choice("0123456789") for _ in range(digits))
        if rng.random() < 0.2:
            frac = rng.choice(["0005", "0015", "0025", "0035", "9995", "000500", "999500", "4995", "0045"])
        time += rng.choice(".....,") + frac
    zone = rng.choice(["Z"] * 8 + ["+00:00", "+05:30", "-08:00", "+0530", "-0800", "+05", "+14:00", "-12:00",
                                   "+23:59", "-23:59:59.999999", "+00:00:01.5", "", "", "+24:00", "z", "+5:30"])
    sep = rng.choice(["T"] * 10 + [" ", "t", "\u00e9", "_"])
    return date + sep + time + zone


def json_str(s: str, rng=None, escape_some=False) -> bytes:
    """A JSON string for s; with escape_some, one ASCII letter or digit becomes a \\u escape."""
    out = orjson.dumps(s)
    if escape_some and rng is not None and b"\\" not in out:
        spots = [i for i in range(1, len(out) - 1) if chr(out[i]).isalnum() and out[i] < 0x80]
        if spots:
            i = rng.choice(spots)
            out = out[:i] + b"\\u%04x" % out[i] + out[i + 1:]
    return out


def float_text(rng, x):
    form = rng.random()
    if form < 0.5:
        return repr(x).encode()
    if form < 0.75:
        return ("%.6f" % x).encode()
    if form < 0.85:
        return ("%.17g" % x).encode().replace(b"+", b"")
    if form < 0.95:
        return ("%e" % x).encode()
    return ("%.3E" % x).encode()


def ts_text(rng):
    r = rng.random()
    if r < 0.5:
        s = iso_string(rng)
        return json_str(s, rng, escape_some=rng.random() < 0.1)
    if r < 0.85:
        ms = 1764237600000 + rng.randrange(-10**9, 10**9)
        return str(ms).encode()
    return rng.choice([
        b"0", b"-0", b"-1", b"-62135596800000", b"253402300799999", b"253402300800000", b"1764237600123.5",
        b"1764237600123.9", b"-1764237600123.9", b"1.7642376e12", b"1.764237600123E+12", b"-1.5", b"1e20",
        b"1e300", b"1.7976931348623157e308", b"9223372036854775807", b"9223372036854775808",
        b"18446744073709551615", b"18446744073709551616", b"-9223372036854775808", b"-9223372036854775809",
        b"9.3e18", b"-9.3e18", b"123456789012345678901234567890", b"0.5", b"-0.0", b"1e-400",
        b"true", b"false", b"null", b"{}", b"[]", b"[1764237600000]", b'"1764237600000"', b'""',
        b'"2025-11-27T10:00:00"', b'"2025-11-27"', b'"10000-01-01T00:00:00Z"', b'"0000-01-01T00:00:00Z"',
        b'"2025-11-27T10:00:00.000Z"', b'"2025-11-27T10:00:00+05:30"', b'"2025-11-27T10:00:00.5-08:00"',
        b'"2025-11-27T10:00:00.123456789Z"', b'"2025-11-27T10:00:00ZZ"', b'"2025-11-27T10:00:00+00:00\\u0000"',
        b'"\\u0032025-11-27T10:00:00Z"', b'"2025-11-27\\u00e910:00:00Z"', b'"2025-11-27\\u202810:00:00Z"',
        b'"2025-11-27T10:00:00.+05:30"', b'"2025-11-27T10:00:00:5Z"', b'"2025-11-27T10:00:00+00:99"',
        b'"2025-11-27T24:00:00Z"', b'"2025-02-29T10:00:00Z"', b'"2024-02-29T10:00:00Z"', b'"2026-W01-1T00Z"',
        b'"2025-11-27T10:00:00+00:00:00.5"', b'"2025-11-27T10:00:00-00:00:00.5"', b'"2025-11-27T10:00:00+23:59:59.999999"',
    ])


def coord_text(rng, limit):
    r = rng.random()
    if r < 0.6:
        return float_text(rng, rng.uniform(-limit, limit))
    if r < 0.7:
        return str(rng.randint(-limit, limit)).encode()
    return rng.choice([
        b"%d" % limit, b"-%d" % limit, b"%d.0" % limit, b"-%d.0" % limit, b"%d.0000001" % limit,
        b"-%d.1" % limit, b"%d.00000000000000001" % limit, b"%d.0000000000001" % limit, b"%de0" % limit,
        b"0", b"-0", b"-0.0", b"0.0", b"1e2", b"0.9e2", b"-1.8e2", b"4.5e1", b"45.000000000000000000000001",
        b"1e-400", b"5e-324", b"1e-5", b"1.5e-7", b"12.0", b"100", b"18446744073709551615", b"-9223372036854775809",
        b"true", b"false", b"null", b'"45.0"', b"[45.0]", b"{}", b"0.1", b"49.888171", b"-97.131112",
    ])


def accuracy_text(rng):
    r = rng.random()
    if r < 0.4:
        return float_text(rng, round(rng.uniform(0, 150), rng.choice([0, 1, 1, 2, 6])))
    if r < 0.5:
        return str(rng.randint(0, 200)).encode()
    if r < 0.6:
        return float_text(rng, 10 ** rng.uniform(-320, 308))
    return rng.choice([
        b"-0.0", b"-0", b"0", b"0.0", b"-1", b"-0.5", b"-1e-300", b"true", b"false", b"null", b'"5"', b"[]",
        b"18446744073709551615", b"18446744073709551616", b"9223372036854775808", b"1e308", b"1e-320", b"12",
        b"12.0", b"1.5e-7", b"1e16", b"1e15", b"1E+2", b"0.00001", b"123456789.123456789",
    ])


def sid_text(rng):
    r = rng.random()
    if r < 0.85:
        return json_str("s-%06d" % rng.randrange(10**6), rng, escape_some=rng.random() < 0.1)
    if r < 0.93:
        return json_str(rng.choice(["550e8400-e29b-41d4-a716-446655440000", "sé-ñ-😀", "x", "a\"b", "tab\there",
                                    "\u0000", "\u2028", "  ", "s" * 40]), rng, escape_some=rng.random() < 0.5)
    return rng.choice([b'""', b"42", b"null", b"true", b"[]", b'{"id":"s-1"}', b'"\\ud83d\\ude00"', b'"\\u0000"',
                       b'"s\\u002d1"', b'"\\/"'])


def consent_text(rng):
    return rng.choice([b'"optIn"', b'"optOut"', b'"notSet"', b"null", b'"OptIn"', b'"opt\\u0049n"', b'"optin"',
                       b"1", b"true", b'""', b"[]", b'"optOut "', b'"notSet"'])


def filler_text(rng, depth=0):
    r = rng.random()
    if depth < 3 and r < 0.15:
        items = [b'%s:%s' % (json_str(rng.choice(["seq", "screen", "price", "k", "é", "a\\b"])), filler_text(rng, depth + 1))
                 for _ in range(rng.randint(0, 3))]
        return b"{" + b",".join(items) + b"}"
    if depth < 3 and r < 0.25:
        return b"[" + b",".join(filler_text(rng, depth + 1) for _ in range(rng.randint(0, 3))) + b"]"
    if r < 0.45:
        return json_str(rng.choice(["Home", "AddToCart", "é", "😀", "\u2028", "line\nbreak", "q\"uote", "back\\slash",
                                    "\u007f", "\u0001", "", "x" * 30]))
    if r < 0.6:
        return rng.choice([b"true", b"false", b"null", b"0", b"-0", b"925", b"-1.5e-3", b"1E400", b"1e308", b"-1e309",
                           b"2.5E+10", b"0.000001", b"123456789012345678901234567890", b"[[[]]]", b"{}", b"[]",
                           b'"\\ud83d\\ude00"', b'"\\u00e9\\n\\t\\"\\\\\\/\\b\\f\\r"'])
    return str(rng.uniform(-1e6, 1e6)).encode()


def ws(rng):
    return rng.choice([b""] * 12 + [b" ", b"  ", b"\t", b"\r", b" \r\t "])


def assemble(rng, members, with_ws):
    parts = []
    for k, v in members:
        if with_ws:
            parts.append(ws(rng) + k + ws(rng) + b":" + ws(rng) + v + ws(rng))
        else:
            parts.append(k + b":" + v)
    body = b"{" + b",".join(parts) + b"}"
    if with_ws:
        body = ws(rng) + body + ws(rng)
    return body


def record_line(rng):
    """A record, valid or not in its fields; always valid JSON unless a value text is not."""
    kind = rng.random()
    members = []
    if kind < 0.6:
        members.append((b'"type"', rng.choice([b'"location"'] * 8 + [b'"loc\\u0061tion"', b'"Location"', b"1", b"null"])))
    elif kind < 0.92:
        members.append((b'"type"', rng.choice([b'"track"', b'"screen"', b'""', b'"identity"'])))
    if rng.random() < 0.97:
        members.append((rng.choice([b'"session_id"'] * 12 + [b'"session\\u005fid"', b'"sessionId"']), sid_text(rng)))
    if rng.random() < 0.97:
        members.append((rng.choice([b'"timestamp"'] * 15 + [b'"time\\u0073tamp"', b'"ts"']), ts_text(rng)))
    if rng.random() < 0.15:
        members.append((b'"consent"', consent_text(rng)))
    if kind < 0.65 or rng.random() < 0.1:
        if rng.random() < 0.97:
            members.append((b'"latitude"', coord_text(rng, 90)))
        if rng.random() < 0.97:
            members.append((b'"longitude"', coord_text(rng, 180)))
        if rng.random() < 0.7:
            members.append((b'"accuracy"', accuracy_text(rng)))
    for _ in range(rng.choice([0, 0, 1, 2, 3])):
        members.append((json_str(rng.choice(["event_name", "data", "brand_id", "é", "", "x\\y"])), filler_text(rng)))
    rng.shuffle(members)
    if rng.random() < 0.1 and members:  # a duplicate key: the last one wins
        k, _ = rng.choice(members)
        value = {b'"latitude"': lambda: coord_text(rng, 90), b'"longitude"': lambda: coord_text(rng, 180),
                 b'"timestamp"': lambda: ts_text(rng), b'"session_id"': lambda: sid_text(rng)}.get(k, lambda: filler_text(rng))()
        members.insert(rng.randrange(len(members) + 1), (k, value))
    return assemble(rng, members, rng.random() < 0.3)


BROKEN = [
    b'{"type":"location","session_id":"s-1","timestamp":1764237600000,"latitude":49.9,"longitude":-97.1',
    b'{"type":"location","session_id":"s-1","timestamp":1764237600000,"latitude":49.9,"longitude":-97.1,}',
    b'{"session_id":"s-1","timestamp":1764237600000,}', b'{"session_id":"s-1" "timestamp":1}', b'{,}', b'{', b'}',
    b'[]', b'[{"session_id":"s-1","timestamp":1}]', b'"s-1"', b'1764237600000', b'null', b'true', b'-0', b'1e400',
    b'{}', b'{"session_id":"s-1"}', b'{"session_id":"s-1","timestamp":1}x', b'{"session_id":"s-1","timestamp":1}{}',
    b'\xef\xbb\xbf{"session_id":"s-1","timestamp":1}', b'{"session_id":"s-1","timestamp":1}\x0c',
    b'{"session_id":"s-1","timestamp":1}\x00', b'{"session_id":"s-1","timestamp":01}', b'{"session_id":"s-1","timestamp":1.}',
    b'{"session_id":"s-1","timestamp":.5}', b'{"session_id":"s-1","timestamp":+1}', b'{"session_id":"s-1","timestamp":NaN}',
    b'{"session_id":"s-1","timestamp":Infinity}', b'{"session_id":"s-1","timestamp":-Infinity}', b"{'session_id':'s-1'}",
    b'{"session_id":"s-1","timestamp":1,"x":1e400}', b'{"session_id":"s-1","timestamp":1,"x":-1e309}',
    b'{"session_id":"s-1","timestamp":1,"x":1' + b"0" * 400 + b'}', b'{"session_id":"s-1","timestamp":1,"x":0.' + b"0" * 400 + b'1e400}',
    b'{"session_id":"s-1","timestamp":1,"x":' + str(2**1024 - 2**970).encode() + b'}',
    b'{"session_id":"s-1","timestamp":1,"x":' + str(2**1024 - 2**970 - 1).encode() + b'}',
    b'{"session_id":"s-1","timestamp":1,"x":' + str(2**1024 - 2**970 - 1).encode() + b'.99999}',
    b'{"session_id":"s-1","timestamp":1,"x":1.797693134862315807937289714053e308}',
    b'{"session_id":"s-1","timestamp":1,"x":1.797693134862315807937289714052e308}',
    b'{"session_id":"s-1","timestamp":1,"x":1.797693134862315807937289714053034e308}',
    b'{"session_id":"s-1","timestamp":1,"x":-1.797693134862315807937289714053035e308}',
    b'{"session_id":"s-1","timestamp":1,"x":0.1797693134862315807937289714053e309}',
    b'{"session_id":"s-1","timestamp":1,"x":17976931348623158079372897140530e277}',
    b'{"session_id":"s-1","timestamp":1,"x":0e99999999999999999999}', b'{"session_id":"s-1","timestamp":1,"x":1e-99999999999999999}',
    b'{"session_id":"s-1","timestamp":1,"x":1e000000000000000000000000000308}',
    b'{"session_id":"s-1","timestamp":1,"x":"\\ud800"}', b'{"session_id":"s-1","timestamp":1,"x":"\\udc00"}',
    b'{"session_id":"s-1","timestamp":1,"x":"\\ud800\\udc00"}', b'{"session_id":"s-1","timestamp":1,"x":"\\ud800\\u0041"}',
    b'{"session_id":"s-1","timestamp":1,"x":"\\ud800\\ud800"}', b'{"session_id":"s-1","timestamp":1,"x":"\\ud800x"}',
    b'{"session_id":"s-1","timestamp":1,"x":"\\ud800\\\\"}', b'{"session_id":"\\ud800","timestamp":1}',
    b'{"session_id":"\\udbff\\udfff","timestamp":1}', b'{"session_id":"\\uDBFF\\uDFFF","timestamp":1}',
    b'{"session_id":"s-1","timestamp":1,"x":"\\u12"}', b'{"session_id":"s-1","timestamp":1,"x":"\\u12g4"}',
    b'{"session_id":"s-1","timestamp":1,"x":"\\x41"}', b'{"session_id":"s-1","timestamp":1,"x":"\\U0041"}',
    b'{"session_id":"s-1","timestamp":1,"x":"\\a"}', b'{"session_id":"s-1","timestamp":1,"x":"a\x01b"}',
    b'{"session_id":"s-1","timestamp":1,"x":"a\x1fb"}', b'{"session_id":"s-1","timestamp":1,"x":"a\tb"}',
    b'{"session_id":"s-1","timestamp":1,"x":"a\x7fb"}', b'{"session_id":"s-1","timestamp":1,"x":"a\x00b"}',
    b'{"session_id":"s-1","timestamp":1,"x":"\xc0\xaf"}', b'{"session_id":"s-1","timestamp":1,"x":"\xe0\x80\xaf"}',
    b'{"session_id":"s-1","timestamp":1,"x":"\xed\xa0\x80"}', b'{"session_id":"s-1","timestamp":1,"x":"\xed\xbf\xbf"}',
    b'{"session_id":"s-1","timestamp":1,"x":"\xf4\x90\x80\x80"}', b'{"session_id":"s-1","timestamp":1,"x":"\xf5\x80\x80\x80"}',
    b'{"session_id":"s-1","timestamp":1,"x":"\xff"}', b'{"session_id":"s-1","timestamp":1,"x":"\xe2\x82"}',
    b'{"session_id":"s-1","timestamp":1,"x":"\x80"}', b'{"session_id":"s-1","timestamp":1,"x":"\xf0\x9f\x98"}',
    b'{"session_id":"s-1","timestamp":1,"x":"\xf0\x9f\x98\x80"}', b'{"session_id":"s-1","timestamp":1,"x":"\xef\xbf\xbf"}',
    b'{"session_id":"s-1","timestamp":1,"x":"\xf4\x8f\xbf\xbf"}', b'{"session_id":"s-1","timestamp":1,"x":"\xc2\x80"}',
    b'{"session_id":"s-1","timestamp":1\xff}', b'\xff{"session_id":"s-1","timestamp":1}', b'{"session_id":"s-1","timestamp":1,\xc3\xa9:1}',
    b'{"session_id":"s-1","timestamp":1,"x":tru}', b'{"session_id":"s-1","timestamp":1,"x":truee}',
    b'{"session_id":"s-1","timestamp":1,"x":nul}', b'{"session_id":"s-1","timestamp":1,"x":[1,]}',
    b'{"session_id":"s-1","timestamp":1,"x":[,1]}', b'{"session_id":"s-1","timestamp":1,"x":[1 2]}',
    b'{"session_id":"s-1","timestamp":1,"x":{"a" 1}}', b'{"session_id":"s-1","timestamp":1,"x":{1:2}}',
    b'{"session_id":"s-1","timestamp":1,"x":{"a":}}', b'{"session_id":"s-1","timestamp":1,"x":[}',
    b'{"session_id":"s-1","timestamp":1,"x":{]}', b'{"session_id":"s-1","timestamp":1,"x":' + b"[" * 300 + b"]" * 300 + b"}",
    b'{"session_id":"s-1","timestamp":1,"x":' + b"[" * 300 + b"]" * 299 + b"}",
    b'{"session_id":"s-1","timestamp":1,"x":' + b'{"a":' * 200 + b"1" + b"}" * 200 + b"}",
    b'{"session_id":"s-1","timestamp":1,"x":' + b'[{"a":' * 100 + b"[]" + b"}]" * 100 + b"}",
    b'{"session_id":"s-1","timestamp":1,"x":' + b'[{"a":' * 100 + b"[]" + b"]}" * 100 + b"}",
    b'{"session_id":"s-1","timestamp":1,"x":/*c*/1}', b'{"session_id":"s-1","timestamp":1}//c',
    b'{"session_id":"s-1","timestamp":1,"x":0x10}', b'{"session_id":"s-1","timestamp":1,"x":1_0}',
    b'{"session_id":"s-1","timestamp":1,"x":-}', b'{"session_id":"s-1","timestamp":1,"x":--1}',
    b'{"session_id":"s-1","timestamp":1,"x":1e}', b'{"session_id":"s-1","timestamp":1,"x":1e+}', b'{"session_id":"s-1","timestamp":1,"x":1.5e-}',
    b'{"session_id":"s-1","timestamp":1,"x":-01}', b'{"session_id":"s-1","timestamp":1,"x":00}', b'{"session_id":"s-1","timestamp":1,"x":1e5.0}',
    b'{"session_id":"s-1","timestamp":1,"x":"unterminated}', b'{"session_id":"s-1","timestamp":1,"x":"a\\"}',
    b'{"session_id":"s-1","timestamp":1,"x":"a\\\\"}', b'{"session_id":"s-1" ,"timestamp" :1 }',
    b'  {"session_id":"s-1","timestamp":1}\t \r', b'\r{"session_id":"s-1","timestamp":1}', b'\x0b{"session_id":"s-1","timestamp":1}',
    b'{"session_id":"","timestamp":1}', b'{"session_id":null,"timestamp":1}', b'{"session_id":42,"timestamp":1}',
    b'{"session_id":true,"timestamp":1}', b'{"timestamp":1}', b'{"session_id":"s-1","timestamp":true}',
    b'{"session_id":"s-1","timestamp":null}', b'{"session_id":"s-1","timestamp":{}}', b'{"session_id":"s-1"}',
    b'{"session_id":"s-1","timestamp":"2025-11-27T10:00:00"}', b'{"session_id":"s-1","timestamp":"10000-01-01T00:00:00Z"}',
    b'{"session_id":"s-1","timestamp":1,"consent":"maybe"}', b'{"session_id":"s-1","timestamp":1,"consent":null}',
    b'{"session_id":"s-1","timestamp":1,"consent":false}', b'{"type":"location","session_id":"s-1","timestamp":1,"longitude":1}',
    b'{"type":"location","session_id":"s-1","timestamp":1,"latitude":90.0000001,"longitude":0}',
    b'{"type":"location","session_id":"s-1","timestamp":1,"latitude":0,"longitude":-180.1}',
    b'{"type":"location","session_id":"s-1","timestamp":1,"latitude":true,"longitude":0}',
    b'{"type":"location","session_id":"s-1","timestamp":1,"latitude":0,"longitude":0,"accuracy":-0.0}',
    b'{"type":"location","session_id":"s-1","timestamp":1,"latitude":0,"longitude":0,"accuracy":-1}',
    b'{"type":"location","session_id":"s-1","timestamp":1,"latitude":0,"longitude":0,"accuracy":true}',
    b'{"type":"location","session_id":"s-1","timestamp":1,"latitude":0,"longitude":0,"accuracy":null}',
    b'{"type":"location","session_id":"s-1","timestamp":1,"latitude":1,"latitude":"x","longitude":0}',
    b'{"type":"location","session_id":"s-1","timestamp":1,"latitude":"x","latitude":1,"longitude":0}',
    b'{"type":"location","type":"track","session_id":"s-1","timestamp":1}', b'{"type":"track","type":"location","session_id":"s-1","timestamp":1}',
    b'{"session_id":"a","session_id":"","timestamp":1}', b'{"session_id":"","session_id":"a","timestamp":1}',
    b'{"session_id":"s-1","timestamp":true,"timestamp":5}', b'{"session_id":"s-1","timestamp":5,"timestamp":true}',
]

MUTATION_BYTES = list(b'{}[]",:\\ \t\r\x00\x01\x1f\x7f0123456789-+.eEtfnu') + [0x80, 0xC0, 0xC3, 0xA9, 0xED, 0xA0, 0xF4, 0x90, 0xFF, 0xE2]


def mutate(rng, raw):
    b = bytearray(raw)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        op = rng.random()
        i = rng.randrange(len(b) + 1) if b else 0
        if op < 0.3 and b:
            del b[min(i, len(b) - 1)]
        elif op < 0.6:
            b[i:i] = bytes([rng.choice(MUTATION_BYTES)])
        elif op < 0.8 and b:
            b[min(i, len(b) - 1)] = rng.choice(MUTATION_BYTES)
        elif op < 0.9:
            del b[i:]
        elif b:
            j = rng.randrange(len(b))
            b[i:i] = b[j:j + rng.randint(1, 8)]
    return bytes(b)


# ---------------------------------------------------------------------------- the corpus

class Corpus:
    def __init__(self, peer, seed, scale):
        self.peer = peer
        self.rng = random.Random(seed)
        self.scale = scale
        self.verdicts = []
        self.seen = set()
        self.valid = []  # (raw, ts, fix)

    def n(self, key):
        return COUNTS[key] * self.scale

    def add_line(self, raw):
        raw = raw.replace(b"\n", b" ").rstrip(b"\r\n")  # what the peer's line loop hands to validate
        if raw in self.seen:
            return
        self.seen.add(raw)
        if not raw.strip():
            self.verdicts.append("B\t%s" % esc(raw))
            return
        try:
            rec, sid, ts, consent, fix = self.peer.validate(raw)
        except self.peer.BadLine as e:
            self.verdicts.append("V\t%s\tbad\t%s" % (esc(raw), e.args[0]))
            return
        brace = len(raw.rstrip()) - 1
        assert raw[brace:brace + 1] == b"}"
        lat, lon, acc = fix if fix is not None else (None, None, None)
        self.verdicts.append("V\t%s\tok\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%d" % (
            esc(raw), "fix" if fix is not None else "event", esc(sid.encode("utf-8")), ts,
            consent if consent is not None else "-", num(lat), num(lon), num(acc), brace))
        self.valid.append((raw, ts, fix))

    def build_verdicts(self):
        rng = self.rng
        for raw in BROKEN:
            self.add_line(raw)
        for raw in [b"", b" ", b"\t", b"\x0b", b"\x0c", b" \t\x0b\x0c ", b"\r \r", b"\x00", b"\xa0", b"  x  "]:
            self.add_line(raw)
        for _ in range(self.n("records")):
            self.add_line(record_line(rng))
        for _ in range(self.n("broken")):  # field-level breakage in otherwise valid records
            self.add_line(record_line(rng))
        base = [raw for raw, _, _ in self.valid]
        for _ in range(self.n("mutations")):
            self.add_line(mutate(rng, rng.choice(base)))

    def build_splices(self):
        rng = self.rng
        peer = self.peer
        fixes = [(raw, ts, fix) for raw, ts, fix in self.valid
                 if fix is not None and -62135596800000 <= ts <= 253402300799999]
        out = []
        for _ in range(self.n("splices")):
            raw, _, _ = rng.choice(self.valid)  # the line that gets the geo object: fix or event
            _, fts, (lat, lon, acc) = rng.choice(fixes)
            geo = {"latitude": lat, "longitude": lon}
            if acc is not None:
                geo["accuracy"] = acc
            geo["fix_timestamp"] = peer.iso(fts)
            geo["h3"] = h3.latlng_to_cell(lat, lon, 15)
            country = rng.choice(["CA", "CA", "US", "FR", None, "\u00e9\"\\\x01"])
            if country:
                geo["country"] = country
            postal = None
            if rng.random() < 0.6:
                code = rng.choice(["R3C 4L9", "M5V 3L9", "H0H 0H1", "K1A 0B1"])
                d = round(float(rng.choice([rng.uniform(0, 20000), rng.uniform(0, 1), 0.0, 20000.0, 1e-7])), 1)
                postal = (code, code[:3], d)
                geo["postalcode"], geo["fsa"], geo["postal_distance_m"] = postal
            age = rng.choice([0, 0, rng.randrange(60000), 59999, 1])
            # the peer's flush(), verbatim in effect
            g = dict(geo, age_ms=age)
            g = {k: g[k] for k in peer.GEO_KEYS if k in g}
            body = raw.rstrip()
            expected = body[:-1] + b',"geo":' + orjson.dumps(g) + b"}"
            out.append("S\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s" % (
                esc(raw), num(lat), num(lon), num(acc), fts, age, geo["h3"],
                esc(country.encode()) if country else "-",
                postal[0] if postal else "-", postal[1] if postal else "-", num(postal[2]) if postal else "-",
                esc(expected)))
        return out

    def build_timestamps(self):
        rng = self.rng
        peer = self.peer
        out = []
        alphabet = "0123456789-:.,+TZW z\u00e9\u2028\x00t"
        strings = set()
        while len(strings) < self.n("timestamps"):
            s = iso_string(rng)
            if rng.random() < 0.5:
                s = list(s)
                for _ in range(rng.choice([1, 1, 2, 3])):
                    i = rng.randrange(len(s) + 1)
                    op = rng.random()
                    if op < 0.35 and s:
                        del s[min(i, len(s) - 1)]
                    elif op < 0.7:
                        s.insert(i, rng.choice(alphabet))
                    elif s:
                        s[min(i, len(s) - 1)] = rng.choice(alphabet)
                s = "".join(s)
            strings.add(s)
        for year in (1, 2, 999, 1000, 1684, 1685, 2255, 2256, 9998, 9999):
            for _ in range(3 * self.scale):
                us = rng.randrange(1000000)
                strings.add("%04d-%02d-%02dT%02d:%02d:%02d.%06d%s" % (
                    year, rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59),
                    rng.randint(0, 59), us, rng.choice(["Z", "+05:30", "-08:00", "+00:00:00.000001", "-23:59:59.999999"])))
        for s in sorted(strings):
            try:
                ms = peer.parse_ts(s)
                out.append("T\t%s\t%d" % (esc(s.encode()), ms))
            except (ValueError, TypeError, OverflowError):
                out.append("T\t%s\t-" % esc(s.encode()))
        return out

    def build_floats(self):
        rng = self.rng
        values = {0.0, -0.0, 1e-05, 1e16, 12.0, 100.0, 1.5e-07, 1e15, 9999999999999998.0, 1e-4, 9.999999999999999e-05,
                  5e-324, 1.7976931348623157e308, 2.2250738585072014e-308, 0.1, 19.7, 49.888171, -97.131112, 1 / 3,
                  2.0 ** 53, 2.0 ** 53 + 2, 123456789012345678.0, 1e21, 1e22, 1e23, 0.3, 4.35e-5, 0.00001234}
        while len(values) < self.n("floats"):
            r = rng.random()
            if r < 0.4:
                x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
            elif r < 0.7:
                x = round(rng.uniform(-200, 200), rng.randint(0, 9))
            elif r < 0.85:
                x = float("%.*g" % (rng.randint(1, 17), 10 ** rng.uniform(-12, 22)))
            else:
                x = float(rng.randint(1, 10**rng.randint(1, 18))) * 10.0 ** rng.randint(-8, 8)
            if x == x and abs(x) != float("inf"):
                values.add(x)
        return ["F\t%s\t%s" % (repr(x), orjson.dumps(x).decode()) for x in sorted(values, key=repr)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", default=os.environ.get("GEO_ENRICH_PEER_SCRIPT", DEFAULT_PEER))
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--scale", type=int, default=1)
    a = ap.parse_args()
    if orjson.__version__ != "3.8.3":
        sys.exit("gen_codec_corpus.py: orjson %s found, the peer's is 3.8.3" % orjson.__version__)
    peer = load_peer(a.peer)
    corpus = Corpus(peer, a.seed, a.scale)
    corpus.build_verdicts()
    files = {
        "verdicts.txt": ("the peer's validate() of each line (V), and blank lines it skips (B)", corpus.verdicts),
        "splices.txt": ("the output line the peer's flush() writes for a line and a geo object", corpus.build_splices()),
        "timestamps.txt": ("the peer's parse_ts() of strings (- where it raises)", corpus.build_timestamps()),
        "floats.txt": ("orjson.dumps() of doubles", corpus.build_floats()),
    }
    os.makedirs(a.out, exist_ok=True)
    for name, (what, rows) in files.items():
        with open(os.path.join(a.out, name), "w", encoding="ascii", newline="\n") as f:
            f.write("# %s: %s\n" % (name, what))
            f.write("# Generated by scripts/dev/gen_codec_corpus.py (seed %d, scale %d) from the peer %s with\n"
                    % (a.seed, a.scale, os.path.relpath(a.peer, REPO)))
            f.write("# Python %s, orjson %s, h3 %s. Regenerate: bash ../shared/bench/setup_peer.sh &&\n"
                    % (sys.version.split()[0], orjson.__version__, h3.__version__))
            f.write("# python3 scripts/dev/gen_codec_corpus.py. Do not edit by hand. Fields are tab-separated;\n")
            f.write("# bytes outside printable ASCII (and \\) are written \\xHH; numbers i:<int> or f:<repr>.\n")
            for row in rows:
                f.write(row + "\n")
        print("%s: %d rows" % (name, len(rows)), file=sys.stderr)


if __name__ == "__main__":
    main()
