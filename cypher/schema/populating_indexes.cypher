// Indexes not online yet, with how far their population has come.
SHOW INDEXES YIELD name, state, populationPercent
WHERE state <> 'ONLINE'
RETURN name, state, populationPercent
ORDER BY name
