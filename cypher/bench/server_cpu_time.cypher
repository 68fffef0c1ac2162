// CPU time the Neo4j server's JVM has used since it started, in nanoseconds (JMX OperatingSystem bean), and
// the cores it may use: the perf bench waits for it to go quiet after a bulk load before timing queries.
CALL dbms.queryJmx('java.lang:type=OperatingSystem') YIELD attributes
RETURN attributes.ProcessCpuTime.value AS cpu_ns, attributes.AvailableProcessors.value AS cores
