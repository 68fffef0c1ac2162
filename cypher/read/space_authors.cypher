// Who wrote a sample of $space's active evidence units (at most $sample of them, read through the
// (space, status) index, never the whole space): each author with the units they wrote, and the sample's
// size. The read path leaves the names of a space's main participants out of the question's dense query.
MATCH (e:Episodic {space: $space, status: 'active'})
WITH e
LIMIT $sample
WITH collect(e.author) AS authors, count(e) AS sampled
UNWIND authors AS author
RETURN author, count(*) AS units, sampled
