"""Where things are, for scripts that run from any directory: the repository root, the peer's
folder beside it (../shared/bench, or $GEO_ENRICH_PEER as scripts/test.sh reads it) and the
stream generator (the peer's gen_stream.py when it is there, else our stream_gen.py)."""
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PEER_DIR = os.environ.get("GEO_ENRICH_PEER") or os.path.join(os.path.dirname(REPO), "shared", "bench")
PEER = os.path.join(PEER_DIR, "peer_enrich.py")
PEER_GEN_STREAM = os.path.join(PEER_DIR, "gen_stream.py")
# our own generator (stream_gen.py beside this file), for a clone with no peer beside it
OWN_GEN_STREAM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stream_gen.py")
# the stream generator the checks use by default: the peer's when it is there, else ours
GEN_STREAM = PEER_GEN_STREAM if os.path.isfile(PEER_GEN_STREAM) else OWN_GEN_STREAM
