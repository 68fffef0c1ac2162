// Drop one index by name (a vector index built with other options, rebuilt by the install that follows).
DROP INDEX $index IF EXISTS
