// Revoke an API key by id: revoked_at is set once and never cleared. No row when there is no such key.
MATCH (k:ApiKey {key_id: $key_id})
SET k.revoked_at = coalesce(k.revoked_at, datetime($now))
RETURN k.key_id AS key_id, k.sha256 AS sha256, k.scopes AS scopes, k.spaces AS spaces, k.name AS name,
       toString(k.created_at) AS created_at, toString(k.revoked_at) AS revoked_at
