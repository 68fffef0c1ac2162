// Who said a sample of $space's active chat turns (at most $sample of them, read through the (space, kind)
// index, never the whole space): each speaker with the turns they said, and the sample's size. Every turn's
// embedded text carries its speaker's name, so the read path leaves the names of a conversation's main
// participants out of the question's dense query.
MATCH (e:Episodic {space: $space, kind: 'turn'})
USING INDEX e:Episodic(space, kind)
WHERE e.status = 'active'
WITH e
LIMIT $sample
WITH collect(e.author) AS authors, count(e) AS sampled
UNWIND authors AS author
RETURN author, count(*) AS units, sampled
