// Every API key (digests included: callers show only the public fields), oldest first.
MATCH (k:ApiKey)
RETURN k.key_id AS key_id, k.sha256 AS sha256, k.scopes AS scopes, k.spaces AS spaces, k.name AS name,
       toString(k.created_at) AS created_at, toString(k.revoked_at) AS revoked_at
ORDER BY k.created_at, k.key_id
