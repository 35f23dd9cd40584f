"""Where things are, for scripts that run from any directory: the repository root and the peer's
folder beside it (../shared/bench, or $GEO_ENRICH_PEER as scripts/test.sh reads it)."""
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PEER_DIR = os.environ.get("GEO_ENRICH_PEER") or os.path.join(os.path.dirname(REPO), "shared", "bench")
PEER = os.path.join(PEER_DIR, "peer_enrich.py")
GEN_STREAM = os.path.join(PEER_DIR, "gen_stream.py")
