#!/usr/bin/env python3
"""Generate Sources/H3Core/H3Tables.swift from the constant tables of H3 4.5.0.

The tables (icosahedron face centres and axes, face neighbours, base-cell data,
neighbour digit tables) are published facts of the H3 grid; this script reads them
from the C sources bundled in the pinned PyPI sdist `h3==4.5.0` and writes them as
flat Swift arrays, so nothing is transcribed by hand.

usage: python3 scripts/dev/gen_h3_tables.py [PATH_TO_h3-4.5.0.tar.gz]   (downloads it when omitted)
"""
import glob, io, os, re, struct, subprocess, sys, tarfile, tempfile

DIGITS = {"CENTER_DIGIT": 0, "K_AXES_DIGIT": 1, "J_AXES_DIGIT": 2, "JK_AXES_DIGIT": 3,
          "I_AXES_DIGIT": 4, "IK_AXES_DIGIT": 5, "IJ_AXES_DIGIT": 6, "INVALID_DIGIT": 7,
          "INVALID_BASE_CELL": 127, "IJ": 1, "KI": 2, "JK": 3}


def sdist():
    if len(sys.argv) > 1:
        return open(sys.argv[1], "rb").read()
    d = tempfile.mkdtemp()
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                    "--no-build-isolation", "h3==4.5.0", "-d", d], check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    found = glob.glob(d + "/h3-4.5.0.tar.gz")
    if not found:
        sys.exit("could not download the h3==4.5.0 sdist; pass its path")
    return open(found[0], "rb").read()


def block(src, name):
    """The brace-enclosed initialiser of the C array `name`, comments removed."""
    i = src.index(name + "[")
    i = src.index("=", i)
    start = src.index("{", i)
    depth, j = 0, start
    while True:
        c = src[j]
        depth += c == "{"
        depth -= c == "}"
        j += 1
        if depth == 0:
            break
    body = src[start:j]
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    body = re.sub(r"//[^\n]*", "", body)
    return body


def numbers(body):
    out = []
    for tok in re.findall(r"[-+]?\d+\.\d*(?:[eE][-+]?\d+)?|[-+]?\d+|[A-Z][A-Z_0-9]*", body):
        out.append(DIGITS[tok] if tok in DIGITS else tok)
    return out


def dbl(tok):
    """A C double literal as an exact Swift bit pattern (Swift may round decimal literals
    through Float80 on x86, which can differ from C's correctly rounded value by an ulp)."""
    v = float(tok)
    return f"Double(bitPattern: 0x{struct.unpack('<Q', struct.pack('<d', v))[0]:016X}) /* {tok} */"


def swift_array(name, typ, vals, per_line, doc):
    if typ == "Double":
        vals = [dbl(v) for v in vals]
        per_line = 1
    lines = [f"/// {d}" for d in doc]
    lines.append(f"let {name}: [{typ}] = [")
    for k in range(0, len(vals), per_line):
        lines.append("    " + ", ".join(str(v) for v in vals[k:k + per_line]) + ",")
    lines.append("]")
    return "\n".join(lines)


def main():
    tar = tarfile.open(fileobj=io.BytesIO(sdist()))
    def read(path):
        m = [n for n in tar.getnames() if n.endswith(path)]
        return tar.extractfile(m[0]).read().decode()
    face = read("lib/faceijk.c")
    base = read("lib/baseCells.c")
    algos = read("lib/algos.c")
    parts = []
    src_note = "Source: H3 4.5.0 (uber/h3, Apache-2.0), as bundled in the PyPI sdist h3==4.5.0;"
    fc = numbers(block(face, "faceCenterPoint"))
    assert len(fc) == 60
    parts.append(swift_array("faceCenterPointTable", "Double", fc, 3,
        ["Icosahedron face centres as unit vectors (x, y, z), 20 faces.", src_note + " `faceCenterPoint`."]))
    ax = numbers(block(face, "faceAxesAzRadsCII"))
    assert len(ax) == 60
    parts.append(swift_array("faceAxesAzRadsCIITable", "Double", ax, 3,
        ["Azimuth (radians) from each face centre to its Class II i, j, k axes, 20 × 3.", src_note + " `faceAxesAzRadsCII`."]))
    fn = numbers(block(face, "faceNeighbors"))
    assert len(fn) == 20 * 4 * 5
    parts.append(swift_array("faceNeighborsTable", "Int32", fn, 5,
        ["Neighbouring faces: per face, 4 entries (central, ij, ki, jk quadrant) of",
         "(face, translate i, j, k, ccw 60° rotations), 20 × 4 × 5.", src_note + " `faceNeighbors`."]))
    afd = numbers(block(face, "adjacentFaceDir"))
    assert len(afd) == 400
    parts.append(swift_array("adjacentFaceDirTable", "Int8", afd, 20,
        ["Direction (0 central, 1 ij, 2 ki, 3 jk, -1 not adjacent) from face row to face column, 20 × 20.", src_note + " `adjacentFaceDir`."]))
    fib = numbers(block(base, "faceIjkBaseCells"))
    assert len(fib) == 20 * 27 * 2
    parts.append(swift_array("faceIjkBaseCellsTable", "Int16", fib, 6,
        ["Base cell and ccw 60° rotations for each face and ijk in 0...2, 20 × 3 × 3 × 3 × 2.", src_note + " `faceIjkBaseCells`."]))
    bcd = numbers(block(base, "baseCellData"))
    assert len(bcd) == 122 * 7
    parts.append(swift_array("baseCellDataTable", "Int8", bcd, 7,
        ["Per base cell: home face, home i, j, k, is pentagon, two cw-offset faces, 122 × 7.", src_note + " `baseCellData`."]))
    bcn = numbers(block(base, "baseCellNeighbors"))
    assert len(bcn) == 122 * 7
    parts.append(swift_array("baseCellNeighborsTable", "UInt8", bcn, 7,
        ["Neighbouring base cell in each of the 7 directions (127: none), 122 × 7.", src_note + " `baseCellNeighbors`."]))
    bcr = numbers(block(base, "baseCellNeighbor60CCWRots"))
    assert len(bcr) == 122 * 7
    parts.append(swift_array("baseCellNeighbor60CCWRotsTable", "Int8", bcr, 7,
        ["Ccw 60° rotations into the neighbouring base cell's frame (-1: none), 122 × 7.", src_note + " `baseCellNeighbor60CCWRots`."]))
    for t in ("NEW_DIGIT_II", "NEW_ADJUSTMENT_II", "NEW_DIGIT_III", "NEW_ADJUSTMENT_III"):
        v = numbers(block(algos, t))
        assert len(v) == 49, t
        camel = "".join(w.capitalize() for w in t.lower().split("_"))
        camel = camel[0].lower() + camel[1:]
        camel = camel.replace("Ii", "II").replace("IIi", "III")
        parts.append(swift_array(camel + "Table", "UInt8", v, 7,
            [f"Neighbour traversal: current digit → direction → {'new digit' if 'DIGIT' in t else 'carry direction at the coarser level'}, 7 × 7.", src_note + f" `{t}`."]))
    consts = read("include/constants.h") + face
    lines = ["/// Scalar constants of the H3 grid, bit-exact with the C library's double literals.",
             "/// " + src_note + " `constants.h`, `faceijk.c`.",
             "enum H3Constants {"]
    for name in ("M_PI", "M_PI_2", "M_2PI", "M_PI_180", "M_180_PI", "EPSILON", "M_SQRT3_2", "M_RSIN60",
                 "M_ONETHIRD", "M_ONESEVENTH", "M_AP7_ROT_RADS", "RES0_U_GNOMONIC", "INV_RES0_U_GNOMONIC",
                 "M_SQRT7", "M_RSQRT7"):
        m = re.search(r"#define " + name + r"\s+([-+0-9.eE]+)", consts)
        camel = name.lower()
        lines.append(f"    static let {camel} = {dbl(m.group(1))}")
    lines.append("}")
    parts.append("\n".join(lines))
    header = ("// Generated by scripts/dev/gen_h3_tables.py from H3 4.5.0's published constant tables. Do not edit.\n"
              "// The tables are facts of the H3 grid (uber/h3, Apache-2.0); see THIRD_PARTY in data/README.md.\n")
    out = header + "\n" + "\n\n".join(parts) + "\n"
    dest = os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "H3Core", "H3Tables.swift")
    open(dest, "w").write(out)
    print("wrote", os.path.normpath(dest))


if __name__ == "__main__":
    main()
