#!/bin/sh
# The graphmem image's entrypoint (docker-compose.yml): wait for Neo4j, install the schema, make sure clients
# have an API key, then serve. Arguments go to `graphmem serve`; a first argument that is not an option runs
# that graphmem command instead (`docker compose run --rm graphmem keys list`).
#
#   NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD  the server (required: the image has no embedded Neo4j)
#   GRAPHMEM_API_KEY     the key clients send: accepted with read,write,admin on every space (16+ characters,
#                        no '|', ';' or spaces). Unset (and GRAPHMEM_API_KEYS unset too): a development key is
#                        minted once by `graphmem keys ensure-dev` into GRAPHMEM_SECRETS_DIR/dev-api-key.
#   GRAPHMEM_NEO4J_WAIT  seconds to wait for Neo4j to answer (default 120)
set -eu

if [ "$#" -gt 0 ] && [ "${1#-}" = "$1" ]; then
    exec graphmem "$@"
fi

say() { echo "graphmem-entrypoint: $*"; }
fail() { echo "graphmem-entrypoint: error: $*" >&2; exit 1; }

[ -n "${NEO4J_URI:-}" ] || fail "NEO4J_URI is not set (e.g. bolt://neo4j:7687)"
if [ -n "${GRAPHMEM_API_KEY:-}" ]; then
    case "$GRAPHMEM_API_KEY" in
        *'|'* | *';'* | *' '* | *'	'*) fail "GRAPHMEM_API_KEY may not contain '|', ';' or spaces" ;;
    esac
    [ "${#GRAPHMEM_API_KEY}" -ge 16 ] || fail "GRAPHMEM_API_KEY is too short: use 16 characters or more"
    GRAPHMEM_API_KEYS="${GRAPHMEM_API_KEYS:+$GRAPHMEM_API_KEYS;}$GRAPHMEM_API_KEY|read,write,admin|*|GRAPHMEM_API_KEY"
    export GRAPHMEM_API_KEYS
fi

wait_s="${GRAPHMEM_NEO4J_WAIT:-120}"
case "$wait_s" in '' | *[!0-9]*) fail "GRAPHMEM_NEO4J_WAIT must be a whole number of seconds, not '$wait_s'" ;; esac
deadline=$(($(date +%s) + wait_s))
until probe=$(graphmem neo4j status 2>&1); do
    case "$probe" in *"is not reachable"*) ;; *) fail "$probe" ;; esac # a bad setting: waiting will not help
    if [ "$(date +%s)" -ge "$deadline" ]; then
        fail "Neo4j did not answer within ${wait_s} s: $(printf '%s' "$probe" | tail -n 1)"
    fi
    say "waiting for Neo4j at $NEO4J_URI"
    sleep 2
done
say "$probe"

graphmem schema install

if [ -n "${GRAPHMEM_API_KEY:-}" ]; then
    say "clients send GRAPHMEM_API_KEY (read,write,admin on every space) as 'Authorization: Bearer <key>'"
elif [ -z "${GRAPHMEM_API_KEYS:-}" ]; then
    graphmem keys ensure-dev
fi

exec graphmem serve --no-schema-install "$@"
