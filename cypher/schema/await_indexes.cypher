// Wait (up to 300 s) until every index is online.
CALL db.awaitIndexes(300)
