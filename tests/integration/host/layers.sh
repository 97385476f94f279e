# The library's layers on the object graph of this build: no cycle, no
# use of a layer above, no printing from library code; and in the
# sources, no #include "LAYER/..." of a layer above, used or not
# (tests/integration/layers.py). The unit tests' links check the same
# thing another way: each links only its layer and the ones below.
. "$(dirname "$0")/../../lib.sh"

python3 "$TOP/tests/integration/layers.py" "$TOP/build" ||
	fail "the layers are broken (above)"
